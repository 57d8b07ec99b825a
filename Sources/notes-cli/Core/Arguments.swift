// A command's arguments and options, declared once as typed values: parsing, validation, help
// and shell completion all come from the declarations, so they cannot disagree.

/// What the shell may offer for a value (`notes completion`).
enum Completion: Sendable, Equatable {
    case none
    case choices([String])
    /// The notebook's tags.
    case tags
    /// The sync remotes' names.
    case remotes
    /// The handles of the notes changed last.
    case notes
    case files
    case directories
}

/// The type of a value on the command line: how it is read, what the shell may offer for it,
/// and what the user is told when the text is not one.
struct ValueType<Value: Sendable>: Sendable {
    let placeholder: String
    var completion: Completion = .none
    /// The value, or nil when the text is not one.
    let parse: @Sendable (String) -> Value?
    /// The message for a text that is not a value, given the option's name and the text.
    let invalid: @Sendable (_ name: String, _ text: String) -> String

    init(placeholder: String, completion: Completion = .none, parse: @escaping @Sendable (String) -> Value?,
         invalid: @escaping @Sendable (_ name: String, _ text: String) -> String) {
        self.placeholder = placeholder
        self.completion = completion
        self.parse = parse
        self.invalid = invalid
    }
}

extension ValueType where Value == String {
    /// Any text.
    static func text(_ placeholder: String, completion: Completion = .none) -> ValueType {
        ValueType(placeholder: placeholder, completion: completion, parse: { $0 }, invalid: { name, text in "\(name) cannot be '\(text)'" })
    }
}

extension ValueType where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the cases' raw values, in any case.
    static func choice(_ placeholder: String, _ type: Value.Type = Value.self) -> ValueType {
        let names = Value.allCases.map(\.rawValue)
        return ValueType(placeholder: placeholder, completion: .choices(names), parse: { Value(rawValue: $0.lowercased()) },
                         invalid: { name, text in "\(name) takes \(names.joined(separator: ", ")), not '\(text)'" })
    }
}

extension ValueType where Value == Int {
    /// A whole number in `range`.
    static func integer(_ placeholder: String, in range: ClosedRange<Int>) -> ValueType {
        ValueType(placeholder: placeholder, parse: { Int($0).flatMap { range.contains($0) ? $0 : nil } },
                  invalid: { name, text in
                      range.upperBound == Int.max ? "\(name) needs a positive number, not '\(text)'" : "\(name) must be \(range.lowerBound) to \(range.upperBound), not '\(text)'"
                  })
    }
}

/// Names, help and kind of an option, whatever its value's type: what the parser, the help and
/// the completion read.
struct OptionSpec: Sendable {
    enum Kind: Sendable { case flag, value, repeated }
    let names: [String]
    let kind: Kind
    let help: String
    /// Left out of help and completion: for the program's own use, not a person's.
    var hidden = false
    var placeholder = ""
    var completion = Completion.none
    /// The message for a text that is not a value; nil when it is one.
    var check: @Sendable (_ name: String, _ text: String) -> String? = { _, _ in nil }

    /// The long name without dashes, the key values are stored under.
    var key: String { String((names.first { $0.hasPrefix("--") } ?? names[0]).drop { $0 == "-" }) }
    var label: String { names.joined(separator: ", ") + (kind == .flag ? "" : " <\(placeholder)>") }

    static let help = OptionSpec(names: ["-h", "--help"], kind: .flag, help: "Show help information.")

    /// An option taking values of `type`, checked with it.
    static func taking<Value>(_ type: ValueType<Value>, names: [String], kind: Kind, help: String) -> OptionSpec {
        OptionSpec(names: names, kind: kind, help: help, placeholder: type.placeholder, completion: type.completion,
                   check: { name, text in type.parse(text) == nil ? type.invalid(name, text) : nil })
    }
}

/// An option without a value: `--json`.
struct Flag: Sendable {
    let spec: OptionSpec
    init(_ names: String..., help: String) { spec = OptionSpec(names: names, kind: .flag, help: help) }
}

/// An option with a value: `--title TEXT`. Given twice, the last one counts.
struct Option<Value: Sendable>: Sendable {
    private(set) var spec: OptionSpec
    let type: ValueType<Value>

    init(_ names: String..., type: ValueType<Value>, help: String, hidden: Bool = false) {
        self.type = type
        spec = .taking(type, names: names, kind: .value, help: help)
        spec.hidden = hidden
    }
}

/// An option that may be given several times: `--tag T --tag U`.
struct RepeatedOption<Value: Sendable>: Sendable {
    let spec: OptionSpec
    let type: ValueType<Value>

    init(_ names: String..., type: ValueType<Value>, help: String) {
        self.type = type
        spec = .taking(type, names: names, kind: .repeated, help: help)
    }
}

/// A positional argument's name and help, for the parser, the usage line and completion.
struct ArgumentSpec: Sendable {
    let name: String
    let help: String
    var optional = false
    var repeating = false
    var completion = Completion.none
    var check: @Sendable (_ name: String, _ text: String) -> String? = { _, _ in nil }
}

/// A positional argument: `<id>`. Repeating takes every positional from its place on.
struct Argument<Value: Sendable>: Sendable {
    let spec: ArgumentSpec
    let type: ValueType<Value>

    init(_ name: String, type: ValueType<Value>, help: String, optional: Bool = false, repeating: Bool = false) {
        self.type = type
        spec = ArgumentSpec(name: name, help: help, optional: optional, repeating: repeating, completion: type.completion,
                            check: { name, text in type.parse(text) == nil ? type.invalid(name, text) : nil })
    }
}

struct UsageError: Error {
    let message: String
}

/// What the user typed, checked against a command's declarations; read it with the same values
/// that declared it (`arguments[Self.title]`).
struct ParsedArguments {
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]
    /// Positionals by the name of the argument they were given for.
    private var positionalValues: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    subscript(_ flag: Flag) -> Bool { flags.contains(flag.spec.key) }
    /// The value given (validated when parsed), or nil.
    subscript<Value>(_ option: Option<Value>) -> Value? { values[option.spec.key]?.last.flatMap(option.type.parse) }
    subscript<Value>(_ option: RepeatedOption<Value>) -> [Value] { (values[option.spec.key] ?? []).compactMap(option.type.parse) }
    /// A single argument's value, or nil when an optional one was not given.
    subscript<Value>(_ argument: Argument<Value>) -> Value? { positionalValues[argument.spec.name]?.first.flatMap(argument.type.parse) }
    /// Every value of a repeating argument.
    func all<Value>(_ argument: Argument<Value>) -> [Value] { (positionalValues[argument.spec.name] ?? []).compactMap(argument.type.parse) }

    var wantsHelp: Bool { flags.contains(OptionSpec.help.key) }

    /// Parses `arguments`. `--` ends options; `-` alone is a positional (stdin), and so is an
    /// argument whose name has a space in it (`- [ ] buy milk`, `-1 more thing`: no option has
    /// one). Short flags may be grouped (`-fq`), values may follow `=` (`--tag=x`) or come as
    /// the next argument. With `dashWords` (a query, where `-word` leaves notes out), a single
    /// dash and two or more letters that are not all flags is a positional too, so a short
    /// option's value is then given apart (`-t home`).
    /// Every value is checked against its type, and the positionals against the arguments
    /// declared (missing or unexpected ones are usage errors), unless help was asked for.
    init(_ arguments: [String], options: [OptionSpec], positionals declared: [ArgumentSpec] = [],
         dashWords: Bool = false) throws(UsageError) {
        var lookup: [String: OptionSpec] = [:]
        for option in options + [OptionSpec.help] { for name in option.names { lookup[name] = option } }
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            let optionName = argument.hasPrefix("--") ? argument.prefix { $0 != "=" } : argument[...]
            let isDashWord = dashWords && !argument.hasPrefix("--") && argument.count > 2
                && !argument.dropFirst().allSatisfy { lookup["-" + String($0)]?.kind == .flag }
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || argument.count == 1 || isNegativeNumber(argument)
                || optionName.contains(where: \.isWhitespace) || isDashWord {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else if !argument.hasPrefix("--"), argument.count > 2 {
                // Grouped short flags (-fq), or a short option with its value attached (-tfoo).
                let first = "-" + String(argument.dropFirst().prefix(1))
                if let option = lookup[first], option.kind == .flag {
                    for character in argument.dropFirst() {
                        guard let flag = lookup["-" + String(character)], flag.kind == .flag else {
                            throw UsageError(message: "unknown option '-\(character)' in '\(argument)'")
                        }
                        flags.insert(flag.key)
                    }
                    continue
                }
                name = first
                inlineValue = String(argument.dropFirst(2))
            }
            guard let option = lookup[name] else {
                throw UsageError(message: "unknown option '\(name)'" + suggestion(for: name, among: Array(lookup.keys)))
            }
            switch option.kind {
            case .flag:
                if inlineValue != nil { throw UsageError(message: "option '\(name)' takes no value") }
                flags.insert(option.key)
            case .value, .repeated:
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError(message: "option '\(name)' needs a value")
                }
                if let message = option.check(option.names.last ?? name, value) { throw UsageError(message: message) }
                if option.kind == .value {
                    values[option.key] = [value]
                } else {
                    values[option.key, default: []].append(value)
                }
            }
        }
        if wantsHelp { return }
        try assign(to: declared)
    }

    private mutating func assign(to declared: [ArgumentSpec]) throws(UsageError) {
        var remaining = positionals[...]
        for argument in declared {
            let taken = argument.repeating ? Array(remaining) : Array(remaining.prefix(1))
            remaining = remaining.dropFirst(taken.count)
            if taken.isEmpty, !argument.optional { throw UsageError(message: "missing <\(argument.name)>") }
            for text in taken {
                if let message = argument.check("<\(argument.name)>", text) { throw UsageError(message: message) }
            }
            if !taken.isEmpty { positionalValues[argument.name] = taken }
        }
        if let extra = remaining.first { throw UsageError(message: "unexpected argument '\(extra)'") }
    }

    private func isNegativeNumber(_ text: String) -> Bool {
        text.count > 1 && text.dropFirst().allSatisfy(\.isNumber)
    }

    private func suggestion(for name: String, among names: [String]) -> String {
        let close = names.filter { $0.hasPrefix("--") && editDistance($0, name) <= 2 }.sorted().first
        return close.map { " (did you mean '\($0)'?)" } ?? ""
    }
}

/// Levenshtein distance, for "did you mean" hints.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return previous[b.count]
}
