// A small argument parser: options declared as values, parsed into a lookup the command reads.

/// One option or flag a command accepts.
struct OptionSpec: Sendable {
    enum Kind: Sendable { case flag, value(placeholder: String), repeated(placeholder: String) }
    let names: [String]        // e.g. ["-t", "--tag"]
    let kind: Kind
    let help: String

    static func flag(_ names: String..., help: String) -> OptionSpec { OptionSpec(names: names, kind: .flag, help: help) }
    static func value(_ names: String..., placeholder: String, help: String) -> OptionSpec {
        OptionSpec(names: names, kind: .value(placeholder: placeholder), help: help)
    }
    static func repeated(_ names: String..., placeholder: String, help: String) -> OptionSpec {
        OptionSpec(names: names, kind: .repeated(placeholder: placeholder), help: help)
    }

    /// The long name without dashes, the key values are stored under.
    var key: String { String((names.first { $0.hasPrefix("--") } ?? names[0]).drop { $0 == "-" }) }
}

/// A positional argument, for the usage line and help.
struct PositionalSpec: Sendable {
    let name: String
    let help: String
    var optional = false
    var repeating = false
}

struct UsageError: Error {
    let message: String
}

/// What the user typed, checked against the specs.
struct ParsedArguments {
    private(set) var flags: Set<String> = []
    private(set) var values: [String: [String]] = [:]
    private(set) var positionals: [String] = []

    func has(_ key: String) -> Bool { flags.contains(key) }
    func value(_ key: String) -> String? { values[key]?.last }
    func all(_ key: String) -> [String] { values[key] ?? [] }

    /// Parses `arguments`. `--` ends options; `-` alone is a positional (stdin). Short flags may
    /// be grouped (`-fq`), values may follow `=` (`--tag=x`) or come as the next argument.
    init(_ arguments: [String], options: [OptionSpec]) throws(UsageError) {
        var lookup: [String: OptionSpec] = [:]
        for option in options { for name in option.names { lookup[name] = option } }
        lookup["-h"] = .flag("-h", "--help", help: "")
        lookup["--help"] = lookup["-h"]
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") || argument.count == 1 || isNegativeNumber(argument) {
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
                if let option = lookup[first], case .flag = option.kind {
                    for character in argument.dropFirst() {
                        guard let flag = lookup["-" + String(character)], case .flag = flag.kind else {
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
                if case .value = option.kind {
                    values[option.key] = [value]
                } else {
                    values[option.key, default: []].append(value)
                }
            }
        }
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
