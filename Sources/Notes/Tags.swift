// Tags: `#word` in a note's text, or given with `--tag`.

public enum Tags {
    /// Lowercase, without a leading `#`, without blanks and duplicates, sorted.
    public static func normalized<S: Sequence>(_ tags: S) -> [String] where S.Element == String {
        var seen = Set<String>()
        for tag in tags {
            var text = tag.trimmingWhitespace().lowercased()
            while text.hasPrefix("#") { text.removeFirst() }
            if !text.isEmpty, text.allSatisfy(isTagCharacter) { seen.insert(text) }
        }
        return seen.sorted()
    }

    /// Hashtags in running text: `#` at the start or after a space or opening bracket, followed by
    /// letters, digits, `_`, `-` or `/`. A Markdown heading (`# Title`) and `C#` are not tags,
    /// and neither is `#123` (an issue number) nor anything inside inline or fenced code.
    public static func inText(_ text: String) -> [String] {
        var found: [String] = []
        var inFence = false
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.trimmingWhitespace().hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            var previous: Character = " "
            var inCode = false
            var index = line.startIndex
            while index < line.endIndex {
                let character = line[index]
                if character == "`" { inCode.toggle() }
                if !inCode, character == "#", previous == " " || previous == "\t" || previous == "(" || previous == "[" {
                    var end = line.index(after: index)
                    while end < line.endIndex, isTagCharacter(line[end]) { end = line.index(after: end) }
                    var tag = line[line.index(after: index)..<end]
                    while let last = tag.last, last == "-" || last == "/" { tag = tag.dropLast() }
                    if tag.contains(where: { $0.isLetter }) { found.append(String(tag)) }
                    previous = end > index ? line[line.index(before: end)] : character
                    index = end
                    continue
                }
                previous = character
                index = line.index(after: index)
            }
        }
        return normalized(found)
    }

    static func isTagCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "/"
    }
}
