// The byte-level automaton that decides which bytes may come next in JSON meeting a schema.
import Notes

/// A pushdown automaton over the bytes of the generated JSON. It is a value: copy it to try a
/// token, keep the copy if every byte was accepted.
struct SchemaAutomaton {
    enum Frame {
        /// Matching one of a choice's literals: `position` bytes in, options `low..<high` alive.
        case choice(id: Int, position: Int, low: Int, high: Int)
        /// An object waiting for its property `last` to finish.
        case object(node: Int, last: Int)
        case array(node: Int, count: Int, phase: ArrayPhase)
        case string(node: Int, state: StringState)
        case pattern(node: Int, state: PatternState)
        case integer(node: Int, state: IntegerState)
        case number(node: Int, state: NumberState)
    }

    enum ArrayPhase { case open, first, items }

    struct StringState {
        enum Phase: UInt8 { case open, content, escape, unicode }
        var phase: Phase = .open
        /// Unicode scalars so far (an escape counts as one).
        var count = 0
        /// Continuation bytes still due in a multi-byte UTF-8 sequence, and the range of the next one.
        var pending: UInt8 = 0
        var nextLow: UInt8 = 0x80
        var nextHigh: UInt8 = 0xBF
        /// Hex digits read in a \u escape.
        var hexDigits: UInt8 = 0
    }

    struct PatternState {
        var open = true
        var count = 0
        var states = Pattern.StateSet()
    }

    struct IntegerState {
        var negative = false
        var started = false
        var magnitude: Int64 = 0
        var digits = 0
    }

    struct NumberState {
        enum Phase: UInt8 { case integer, point, fraction }
        var phase: Phase = .integer
        var negative = false
        var started = false
        var integer: Int64 = 0
        var integerDigits = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
    }

    let schema: CompiledSchema
    private(set) var stack: [Frame] = []
    /// The whole value is complete: nothing more may be generated.
    private(set) var isDone = false

    init(schema: CompiledSchema) {
        self.schema = schema
        stack.reserveCapacity(16)
        pushValue(schema.root)
    }

    // MARK: Queries

    /// True when the text so far is a complete value, so the generation may stop here.
    var canStop: Bool {
        if isDone { return true }
        guard stack.count == 1, let top = stack.last else { return false }
        switch top {
        case .integer(let node, let state): return integerComplete(node: node, state)
        case .number(let node, let state): return numberComplete(node: node, state)
        default: return false
        }
    }

    /// The one byte that must come next, if there is only one.
    var forcedByte: UInt8? {
        guard !isDone, let top = stack.last else { return nil }
        switch top {
        case .choice(let id, let position, let low, let high):
            let options = schema.choices[id].options
            let byte = options[low][position]
            for option in options[(low + 1)..<high] where option[position] != byte { return nil }
            return byte
        case .string(let node, let state):
            if state.phase == .open { return UInt8(ascii: "\"") }
            guard state.phase == .content, state.pending == 0, case .string(_, let maxLength) = schema.nodes[node] else { return nil }
            return state.count >= maxLength ? UInt8(ascii: "\"") : nil
        case .array(_, _, .open):
            return UInt8(ascii: "[")
        case .pattern(let node, let state):
            if state.open { return UInt8(ascii: "\"") }
            guard case .pattern(let index, let maxLength) = schema.nodes[node] else { return nil }
            let pattern = schema.patterns[index]
            let next = state.count < maxLength ? pattern.nextBytes(state.states) : Pattern.ByteSet()
            if pattern.isAccepting(state.states) { return next.isEmpty ? UInt8(ascii: "\"") : nil }
            return next.count == 1 ? next.first : nil
        default:
            return nil
        }
    }

    /// Bytes that are fully determined from here on (keys, punctuation, the rest of an enum value).
    mutating func takeForcedBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        while let byte = forcedByte {
            let accepted = feed(byte)
            assert(accepted)
            bytes.append(byte)
        }
        return bytes
    }

    /// Feeds every byte, stopping at the first rejected one.
    mutating func feed<S: Sequence>(bytes: S) -> Bool where S.Element == UInt8 {
        for byte in bytes where !feed(byte) { return false }
        return true
    }

    // MARK: Transitions

    /// Advances over one byte; false (state unspecified) when the byte is not allowed.
    mutating func feed(_ byte: UInt8) -> Bool {
        guard !isDone, let top = stack.last else { return false }
        switch top {
        case .choice(let id, let position, let low, let high):
            let choice = schema.choices[id]
            var newLow = low
            while newLow < high, choice.options[newLow][position] < byte { newLow += 1 }
            var newHigh = newLow
            while newHigh < high, choice.options[newHigh][position] == byte { newHigh += 1 }
            guard newLow < newHigh else { return false }
            if choice.options[newLow].count == position + 1 {
                stack.removeLast()
                resolve(choice.actions[newLow])
            } else {
                stack[stack.count - 1] = .choice(id: id, position: position + 1, low: newLow, high: newHigh)
            }
            return true
        case .object:
            return false
        case .array(let node, let count, let phase):
            guard case .array(let item, let minimum, let maximum, _, let closeOnly, _) = schema.nodes[node] else { return false }
            switch phase {
            case .open:
                guard byte == UInt8(ascii: "[") else { return false }
                if minimum > 0 {
                    stack[stack.count - 1] = .array(node: node, count: count, phase: .items)
                    pushValue(item)
                } else if maximum == 0 {
                    stack[stack.count - 1] = .array(node: node, count: count, phase: .items)
                    stack.append(.choice(id: closeOnly, position: 0, low: 0, high: 1))
                } else {
                    stack[stack.count - 1] = .array(node: node, count: count, phase: .first)
                }
                return true
            case .first:
                if byte == UInt8(ascii: "]") {
                    stack.removeLast()
                    resumeParent()
                    return true
                }
                stack[stack.count - 1] = .array(node: node, count: count, phase: .items)
                pushValue(item)
                return feed(byte)
            case .items:
                return false
            }
        case .string(let node, var state):
            guard case .string(let minLength, let maxLength) = schema.nodes[node] else { return false }
            switch state.phase {
            case .open:
                guard byte == UInt8(ascii: "\"") else { return false }
                state.phase = .content
            case .content:
                if state.pending > 0 {
                    guard byte >= state.nextLow && byte <= state.nextHigh else { return false }
                    state.pending -= 1
                    state.nextLow = 0x80
                    state.nextHigh = 0xBF
                } else if byte == UInt8(ascii: "\"") {
                    guard state.count >= minLength else { return false }
                    stack.removeLast()
                    resumeParent()
                    return true
                } else {
                    guard state.count < maxLength else { return false }
                    switch byte {
                    case 0x00..<0x20: return false
                    case UInt8(ascii: "\\"): state.phase = .escape
                    case 0x20..<0x80: break
                    case 0xC2...0xDF: state.pending = 1
                    case 0xE0: state.pending = 2; state.nextLow = 0xA0
                    case 0xED: state.pending = 2; state.nextHigh = 0x9F
                    case 0xE1...0xEF: state.pending = 2
                    case 0xF0: state.pending = 3; state.nextLow = 0x90
                    case 0xF1...0xF3: state.pending = 3
                    case 0xF4: state.pending = 3; state.nextHigh = 0x8F
                    default: return false
                    }
                    state.count += 1
                }
            case .escape:
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    state.phase = .content
                case UInt8(ascii: "u"):
                    state.phase = .unicode
                    state.hexDigits = 0
                default:
                    return false
                }
            case .unicode:
                guard let digit = hexDigitValue(byte) else { return false }
                // No surrogates: a lone one is not a character, and pairs are not worth the states.
                if state.hexDigits == 0 && digit == 0xD { state.nextHigh = 7 }
                else if state.hexDigits == 1 && state.nextHigh == 7 { guard digit <= 7 else { return false }; state.nextHigh = 0xBF }
                state.hexDigits += 1
                if state.hexDigits == 4 { state.phase = .content; state.nextHigh = 0xBF }
            }
            stack[stack.count - 1] = .string(node: node, state: state)
            return true
        case .pattern(let node, var state):
            guard case .pattern(let index, let maxLength) = schema.nodes[node] else { return false }
            let pattern = schema.patterns[index]
            if state.open {
                guard byte == UInt8(ascii: "\"") else { return false }
                state.open = false
                state.states = pattern.start
            } else if byte == UInt8(ascii: "\"") {
                guard pattern.isAccepting(state.states) else { return false }
                stack.removeLast()
                resumeParent()
                return true
            } else {
                guard state.count < maxLength else { return false }
                let next = pattern.step(state.states, byte)
                // Only states from which the match can still finish within the length limit.
                let left = pattern.remaining(next)
                guard !next.isEmpty, left != Int.max, state.count + 1 + left <= maxLength else { return false }
                state.states = next
                state.count += 1
            }
            stack[stack.count - 1] = .pattern(node: node, state: state)
            return true
        case .integer(let node, var state):
            guard case .integer(let minimum, let maximum) = schema.nodes[node] else { return false }
            if let digit = decimalDigit(byte) {
                if state.started && state.magnitude == 0 { return false }
                if !state.started && state.negative && digit == 0 { return false }
                let (scaled, overflow) = state.magnitude.multipliedReportingOverflow(by: 10)
                guard !overflow, state.digits < 18 else { return false }
                let magnitude = scaled + Int64(digit)
                guard Self.integerFeasible(magnitude: magnitude, negative: state.negative, minimum: minimum, maximum: maximum) else { return false }
                state.magnitude = magnitude
                state.started = true
                state.digits += 1
            } else if byte == UInt8(ascii: "-") && !state.started && !state.negative {
                guard minimum < 0 else { return false }
                state.negative = true
            } else {
                guard integerComplete(node: node, state) else { return false }
                stack.removeLast()
                resumeParent()
                return feed(byte)
            }
            stack[stack.count - 1] = .integer(node: node, state: state)
            return true
        case .number(let node, var state):
            guard case .number(let minimum, let maximum, let fractionDigits, let maxIntegerDigits) = schema.nodes[node] else { return false }
            if let digit = decimalDigit(byte) {
                switch state.phase {
                case .integer:
                    if state.started && state.integer == 0 { return false }
                    guard state.integerDigits < maxIntegerDigits else { return false }
                    state.integer = state.integer * 10 + Int64(digit)
                    state.integerDigits += 1
                    state.started = true
                case .point, .fraction:
                    guard state.fractionDigits < fractionDigits else { return false }
                    state.fraction = state.fraction * 10 + Int64(digit)
                    state.fractionDigits += 1
                    state.phase = .fraction
                }
                guard Self.numberFeasible(state, minimum: minimum, maximum: maximum, fractionDigits: fractionDigits,
                                          maxIntegerDigits: maxIntegerDigits) else { return false }
            } else if byte == UInt8(ascii: "-") && !state.started && !state.negative {
                guard minimum < 0 else { return false }
                state.negative = true
            } else if byte == UInt8(ascii: ".") && state.phase == .integer && state.started && fractionDigits > 0 {
                state.phase = .point
                guard Self.numberFeasible(state, minimum: minimum, maximum: maximum, fractionDigits: fractionDigits,
                                          maxIntegerDigits: maxIntegerDigits) else { return false }
            } else {
                guard numberComplete(node: node, state) else { return false }
                stack.removeLast()
                resumeParent()
                return feed(byte)
            }
            stack[stack.count - 1] = .number(node: node, state: state)
            return true
        }
    }

    private mutating func pushValue(_ node: Int) {
        switch schema.nodes[node] {
        case .object(_, let start, _):
            stack.append(.object(node: node, last: -1))
            stack.append(.choice(id: start, position: 0, low: 0, high: schema.choices[start].options.count))
        case .literal(let choice):
            stack.append(.choice(id: choice, position: 0, low: 0, high: schema.choices[choice].options.count))
        case .string:
            stack.append(.string(node: node, state: StringState()))
        case .pattern:
            stack.append(.pattern(node: node, state: PatternState()))
        case .integer:
            stack.append(.integer(node: node, state: IntegerState()))
        case .number:
            stack.append(.number(node: node, state: NumberState()))
        case .array:
            stack.append(.array(node: node, count: 0, phase: .open))
        }
    }

    private mutating func resolve(_ action: LiteralChoice.Action) {
        switch action {
        case .valueDone:
            resumeParent()
        case .close:
            stack.removeLast()
            resumeParent()
        case .property(let index):
            guard case .object(let node, _) = stack.last, case .object(let properties, _, _) = schema.nodes[node] else { return }
            stack[stack.count - 1] = .object(node: node, last: index)
            pushValue(properties[index])
        case .item:
            guard case .array(let node, _, _) = stack.last, case .array(let item, _, _, _, _, _) = schema.nodes[node] else { return }
            pushValue(item)
        case .alternative(let node, let firstValueDone):
            guard case .object(let properties, _, _) = schema.nodes[node] else { return }
            stack.append(.object(node: node, last: 0))
            if firstValueDone { resumeParent() } else { pushValue(properties[0]) }
        }
    }

    /// A value just ended: let the container below choose what follows.
    private mutating func resumeParent() {
        guard let top = stack.last else {
            isDone = true
            return
        }
        switch top {
        case .object(let node, let last):
            guard case .object(_, _, let after) = schema.nodes[node] else { return }
            let id = after[last]
            stack.append(.choice(id: id, position: 0, low: 0, high: schema.choices[id].options.count))
        case .array(let node, let count, _):
            guard case .array(_, let minimum, let maximum, let commaOnly, let closeOnly, let either) = schema.nodes[node] else { return }
            let newCount = count + 1
            stack[stack.count - 1] = .array(node: node, count: newCount, phase: .items)
            let id = newCount < minimum ? commaOnly : newCount >= maximum ? closeOnly : either
            stack.append(.choice(id: id, position: 0, low: 0, high: schema.choices[id].options.count))
        default:
            break
        }
    }

    // MARK: Numbers

    private func integerComplete(node: Int, _ state: IntegerState) -> Bool {
        guard state.started, case .integer(let minimum, let maximum) = schema.nodes[node] else { return false }
        let value = state.negative ? -state.magnitude : state.magnitude
        return value >= minimum && value <= maximum
    }

    /// Whether some integer written with this prefix of digits lies in the range.
    static func integerFeasible(magnitude: Int64, negative: Bool, minimum: Int64, maximum: Int64) -> Bool {
        // Magnitudes reachable from the prefix: m, then [m*10, m*10+9], [m*100, m*100+99], ...
        let (lowMagnitude, highMagnitude) = negative ? (maximum < 0 ? -maximum : 1, -minimum) : (max(minimum, 0), maximum)
        guard lowMagnitude <= highMagnitude else { return false }
        var low = magnitude
        var span: Int64 = 1
        while true {
            if low > highMagnitude { return false }
            if low + span - 1 >= lowMagnitude { return true }
            if magnitude == 0 { return false }
            let (nextLow, overflow) = low.multipliedReportingOverflow(by: 10)
            if overflow { return false }
            low = nextLow
            span *= 10
        }
    }

    private func numberComplete(node: Int, _ state: NumberState) -> Bool {
        guard state.started, state.phase != .point,
              case .number(let minimum, let maximum, let fractionDigits, _) = schema.nodes[node] else { return false }
        let scaled = state.integer * pow10(fractionDigits) + state.fraction * pow10(fractionDigits - state.fractionDigits)
        let value = state.negative ? -scaled : scaled
        return value >= minimum && value <= maximum
    }

    /// Whether some number with this prefix (values scaled by 10^fractionDigits) lies in the range.
    static func numberFeasible(_ state: NumberState, minimum: Int64, maximum: Int64, fractionDigits: Int, maxIntegerDigits: Int) -> Bool {
        let scale = pow10(fractionDigits)
        func intersects(_ low: Int64, _ high: Int64) -> Bool {
            let (signedLow, signedHigh) = state.negative ? (-high, -low) : (low, high)
            return signedLow <= maximum && signedHigh >= minimum
        }
        switch state.phase {
        case .integer:
            var integer = state.integer
            var span: Int64 = 1
            var digits = state.integerDigits
            while true {
                if intersects(integer * scale, (integer + span) * scale - 1) { return true }
                if integer == 0 || digits >= maxIntegerDigits { return false }
                integer *= 10
                span *= 10
                digits += 1
            }
        case .point, .fraction:
            let unit = pow10(fractionDigits - state.fractionDigits)
            let low = state.integer * scale + state.fraction * unit
            return intersects(low, low + unit - 1)
        }
    }

    private func decimalDigit(_ byte: UInt8) -> UInt8? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : nil
    }
}
