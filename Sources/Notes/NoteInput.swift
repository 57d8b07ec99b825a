// Turning what a user typed into a note, with the checks every entry point shares.

public enum NoteInputError: Error, Equatable, CustomStringConvertible {
    case empty
    case nulByte(offset: Int)
    case invalidUTF8(offset: Int)
    case tooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .empty: "the note is empty; nothing was saved"
        case let .nulByte(offset): "the text has a NUL byte at offset \(offset); notes are text, nothing was saved"
        case let .invalidUTF8(offset): "the text is not valid UTF-8 (at byte offset \(offset)); nothing was saved"
        case let .tooLarge(bytes, limit): "the note is \(bytes) bytes, over the \(limit)-byte limit; nothing was saved"
        }
    }
}

public enum NoteInput {
    /// Large enough for any note a person writes (a 10 MB paste is accepted), small enough that
    /// a mistaken `notes add < disk.img` fails fast.
    public static let maximumBytes = 64 * 1024 * 1024

    /// Decodes raw bytes strictly: invalid UTF-8 and NUL bytes are refused rather than mangled.
    public static func decode(_ bytes: [UInt8]) throws(NoteInputError) -> String {
        guard bytes.count <= maximumBytes else { throw .tooLarge(bytes: bytes.count, limit: maximumBytes) }
        if let nul = bytes.firstIndex(of: 0) { throw .nulByte(offset: nul) }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        throw .invalidUTF8(offset: invalidUTF8Offset(bytes))
    }

    /// The offset of the first byte that does not decode as UTF-8 (the slow path, for messages
    /// only: the JSON parser's as well).
    static func invalidUTF8Offset(_ bytes: some Collection<UInt8>) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case let .scalarValue(scalar) = decoder.decode(&iterator) { offset += UTF8.width(scalar) }
        return offset
    }

    /// The stored form of a body: line endings kept, trailing blank space dropped (files always
    /// end with exactly one newline, so the body itself ends without one).
    public static func normalizedBody(_ text: String) -> String {
        var body = Substring(text)
        while let last = body.unicodeScalars.last, last.properties.isWhitespace { body = body.dropLast() }
        return String(body)
    }

    /// A new note from typed text (`NoteRules`): tags are the `#tags` in the text plus `extraTags`.
    public static func makeNote(text: String, title: String?, extraTags: [String], at time: Timestamp,
                                id: NoteID? = nil) throws(NoteInputError) -> Note {
        try NoteRules.note(id: id ?? NoteID(milliseconds: time.milliseconds), body: text, title: title, tags: extraTags,
                           created: time, updated: time, fallbackTime: time, origin: .typed)
    }
}
