// Turns what a user types into a safe FTS5 MATCH expression.
//
// Supported: words (all must match), `"quoted phrases"`, `prefix*`, AND / OR / NOT between
// terms, and a leading `-` for NOT. Every term is emitted as an FTS5 string, so quotes,
// parentheses, colons, stray operators and any Unicode text can never be a syntax error.
//
// Filters: `links:ID` keeps the notes that link to the note ID (its handle, or any unique start or end of its id),
// `-links:ID` those that do not; `tag:`, `category:`, `urgency:`, `created:`, `updated:` and
// `due:` (see QueryFilter), each negated by a leading `-`.

import Notes

public struct SearchQuery: Equatable, Sendable {
    enum Token: Equatable {
        case term(String, prefix: Bool)
        case and, or, not
    }

    /// The FTS5 expression, or nil when the input has nothing to search for.
    let matchExpression: String?
    /// The words and phrases searched for (without operators), for highlighting by hand.
    public let terms: [String]
    /// `links:` filters, in the order typed.
    let linksTo: [LinkFilter]
    /// The other filters, in the order typed.
    public let filters: [QueryFilter]
    /// The first filter that could not be read; searching with it is an error.
    public let invalidFilter: SearchQueryError?
    /// The words and phrases, without operators, filters and excluded terms: what search by
    /// meaning embeds.
    public let meaningText: String
    /// The words and phrases searched for, without the excluded ones.
    let includedTerms: [String]
    /// Terms after NOT or `-`: a note that only means something similar must not contain them.
    public let excludedTerms: [String]

    public struct LinkFilter: Equatable, Sendable {
        /// The id prefix typed after `links:`.
        public var reference: String
        /// `-links:`: notes that do not link to it.
        public var negated: Bool
    }

    /// Whether there is anything to look for: words or filters.
    public var isEmpty: Bool { matchExpression == nil && linksTo.isEmpty && filters.isEmpty }

    public init(_ text: String) {
        // Control characters (NUL included) separate words; they are never part of one.
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        var links: [LinkFilter] = []
        var filters: [QueryFilter] = []
        var invalid: SearchQueryError?
        var inPhrase = false
        let words = cleaned.split(separator: " ", omittingEmptySubsequences: false).filter { word in
            defer { if word.count(where: { $0 == "\"" }) % 2 == 1 { inPhrase.toggle() } }
            let negated = word.hasPrefix("-")
            let body = negated ? word.dropFirst() : word
            guard !inPhrase, let colon = body.firstIndex(of: ":") else { return true }
            let key = body[..<colon].lowercased(), value = body[body.index(after: colon)...]
            if key == "links", !value.isEmpty {
                links.append(LinkFilter(reference: String(value), negated: negated))
                return false
            }
            guard let field = QueryFilter.Field(rawValue: key) else { return true }
            do throws(SearchQueryError) {
                filters.append(try QueryFilter.parse(field: field, text: value, negated: negated))
            } catch {
                if invalid == nil { invalid = error }
            }
            return false
        }
        linksTo = links
        self.filters = filters
        invalidFilter = invalid
        let tokens = SearchQuery.tokens(words.joined(separator: " "))
        matchExpression = SearchQuery.expression(tokens)
        terms = tokens.compactMap { if case let .term(text, _) = $0 { text } else { nil } }
        var kept: [String] = [], excluded: [String] = []
        var afterNot = false
        for token in tokens {
            switch token {
            case let .term(text, _):
                if afterNot { excluded.append(text) } else { kept.append(text) }
                afterNot = false
            case .not: afterNot = true
            case .and, .or: afterNot = false
            }
        }
        includedTerms = kept
        meaningText = kept.joined(separator: " ")
        excludedTerms = excluded
    }

    static func tokens(_ text: String) -> [Token] {
        var tokens: [Token] = []
        var characters = Substring(text)
        while let first = characters.first {
            if first.isWhitespace {
                characters = characters.dropFirst()
            } else if first == "\"" {
                let rest = characters.dropFirst()
                let end = rest.firstIndex(of: "\"") ?? rest.endIndex
                var phrase = rest[..<end]
                characters = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
                var prefix = false
                if characters.first == "*" {
                    prefix = true
                    characters = characters.dropFirst()
                }
                phrase = Substring(phrase.trimmingWhitespace())
                if phrase.contains(where: { $0.isLetter || $0.isNumber }) { tokens.append(.term(String(phrase), prefix: prefix)) }
            } else {
                let end = characters.firstIndex { $0.isWhitespace || $0 == "\"" } ?? characters.endIndex
                var word = characters[..<end]
                characters = characters[end...]
                switch word {
                case "AND", "&&": tokens.append(.and); continue
                case "OR", "||": tokens.append(.or); continue
                case "NOT": tokens.append(.not); continue
                default: break
                }
                if word.hasPrefix("-"), word.count > 1 {
                    tokens.append(.not)
                    word = word.dropFirst()
                }
                let prefix = word.hasSuffix("*")
                while let last = word.last, last == "*" { word = word.dropLast() }
                // Only letters and digits reach the index; a word of punctuation finds nothing.
                if word.contains(where: { $0.isLetter || $0.isNumber }) { tokens.append(.term(String(word), prefix: prefix)) }
            }
        }
        return tokens
    }

    /// Joins terms with the operators between them. FTS5's NOT is binary (`a NOT b`), so a
    /// query cannot start with NOT; stray and doubled operators are dropped.
    static func expression(_ tokens: [Token]) -> String? {
        var parts: [String] = []
        var pending: Token?
        var sawTerm = false
        for token in tokens {
            switch token {
            case let .term(text, prefix):
                if sawTerm {
                    switch pending {
                    case .or: parts.append("OR")
                    case .not: parts.append("NOT")
                    default: parts.append("AND")
                    }
                } else if pending == .not {
                    // Nothing to subtract from: a leading NOT term cannot be expressed.
                    pending = nil
                    continue
                }
                parts.append("\"" + text.replacingOccurrences("\"", with: "\"\"") + "\"" + (prefix ? "*" : ""))
                sawTerm = true
                pending = nil
            case .and, .or, .not:
                if sawTerm || token == .not { pending = token }
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}
