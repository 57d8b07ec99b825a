// Tags: `#word` in a note's text, or given with `--tag`.

public enum Tags {
    /// Lowercase, without a leading `#`, without blanks and duplicates, sorted.
    public static func normalized(_ tags: [String]) -> [String] {
        // Tags read back from the store are normalized already: 10,000 notes listed check theirs
        // by byte instead of asking each character whether it is a letter.
        isNormalizedASCII(tags) ? tags : normalized(tags[...])
    }

    public static func normalized<S: Sequence>(_ tags: S) -> [String] where S.Element == String {
        var seen = Set<String>()
        for tag in tags {
            var text = tag.trimmingWhitespace().lowercased()
            while text.hasPrefix("#") { text.removeFirst() }
            if !text.isEmpty, text.allSatisfy(isTagCharacter) { seen.insert(text) }
        }
        return seen.sorted()
    }

    /// Hashtags in the note's prose (see `MarkdownText`): `#` at the start or after a space or
    /// opening bracket, followed by letters, digits, `_`, `-` or `/`. A Markdown heading
    /// (`# Title`) and `C#` are not tags, and neither is `#123` (an issue number) nor anything in
    /// code, HTML, a URL or a link (`[[Note#Heading]]`, `[text](#anchor)`).
    public static func inText(_ text: String) -> [String] {
        var found: [String] = []
        for case let .prose(run) in MarkdownText.pieces(text) { hashtags(in: run, into: &found) }
        return normalized(found)
    }

    private static func hashtags(in run: Substring, into found: inout [String]) {
        // Only a `#` can start a tag: find them by byte, and look at the byte before (the
        // characters that may precede a tag are all ASCII; a run starts as if after a space).
        let bytes = run.utf8
        var index = bytes.startIndex
        while let hash = bytes[index...].firstIndex(of: UInt8(ascii: "#")) {
            let previous = hash == bytes.startIndex ? UInt8(ascii: " ") : bytes[bytes.index(before: hash)]
            let start = bytes.index(after: hash)
            guard previous == UInt8(ascii: " ") || previous == UInt8(ascii: "\t") || previous == UInt8(ascii: "(") || previous == UInt8(ascii: "[") else {
                index = start
                continue
            }
            var end = start
            while end < run.endIndex, isTagCharacter(run[end]) { end = run.index(after: end) }
            var tag = run[start..<end]
            while let last = tag.last, last == "-" || last == "/" { tag = tag.dropLast() }
            if tag.contains(where: { $0.isLetter }) { found.append(String(tag)) }
            index = end
        }
    }

    /// Whether every tag is non-empty lowercase ASCII of tag characters, and they are sorted
    /// without duplicates (for ASCII, String order is byte order).
    private static func isNormalizedASCII(_ tags: [String]) -> Bool {
        for (index, tag) in tags.enumerated() {
            guard !tag.isEmpty, tag.utf8.allSatisfy({ byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "/")
            }) else { return false }
            if index > 0, !(tags[index - 1] < tag) { return false }
        }
        return true
    }

    static func isTagCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "/"
    }
}
