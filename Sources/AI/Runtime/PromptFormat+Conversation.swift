// A whole conversation as the model's text: the chat template applied to every message, with
// each message's content kept apart so that it is tokenized as plain text.
import CLlama

extension PromptFormat {
    /// A piece of the rendered conversation: the template's own text (which may spell control
    /// tokens) or a message's content (which never does, whatever it contains).
    struct Piece: Equatable {
        var text: String
        var isContent: Bool
    }

    /// The plain format's conversation, when the model has no chat template: the instructions,
    /// then `### Prompt`, `### Response` and `### Tool output` sections in order, ending with an
    /// open `### Response`.
    static func plainConversation(_ messages: [ChatMessage]) -> [Piece] {
        var pieces: [Piece] = []
        for message in messages {
            switch message.role {
            case .system: pieces.append(Piece(text: "### Instructions\n\(message.content)\n\n", isContent: false))
            case .user: pieces.append(Piece(text: "### Prompt\n", isContent: false))
            case .assistant: pieces.append(Piece(text: "### Response\n", isContent: false))
            case .tool: pieces.append(Piece(text: "### Tool output\n", isContent: false))
            }
            if message.role != .system {
                pieces.append(Piece(text: message.content, isContent: true))
                pieces.append(Piece(text: "\n\n", isContent: false))
            }
        }
        pieces.append(Piece(text: "### Response\n", isContent: false))
        return pieces
    }

    /// The conversation through the model's chat template (its system message as template
    /// text, the session's own), ending where the assistant's next message begins. Nil when the
    /// template cannot be applied or loses a message.
    static func conversation(model: LoadedModel, messages: [ChatMessage]) -> [Piece]? {
        guard let template = model.chatTemplate else { return plainConversation(messages) }
        // Each content is replaced by a marker that no note holds, found again after rendering.
        let markers = messages.indices.map { "\u{1}notes-content-\($0)\u{1}" }
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { owned.forEach { $0.deallocate() } }
        func copy(_ text: String) -> UnsafePointer<CChar> {
            let bytes = Array(text.utf8CString)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            owned.append(pointer)
            return UnsafePointer(pointer)
        }
        let chat = messages.enumerated().map { index, message in
            llama_chat_message(role: copy(message.role.rawValue), content: copy(message.role == .system ? message.content : markers[index]))
        }
        let size = messages.reduce(512) { $0 + 2 * $1.content.utf8.count + 64 }
        var buffer = [CChar](repeating: 0, count: size)
        var length = model.api.llama_chat_apply_template(template, chat, chat.count, true, &buffer, Int32(buffer.count))
        if length > Int32(buffer.count) {
            buffer = [CChar](repeating: 0, count: Int(length) + 1)
            length = model.api.llama_chat_apply_template(template, chat, chat.count, true, &buffer, Int32(buffer.count))
        }
        guard length > 0 else { return plainConversation(messages) }
        let rendered = buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }
        var rest = rendered[...]
        var pieces: [Piece] = []
        for (index, message) in messages.enumerated() where message.role != .system {
            guard let range = rest.firstRange(of: Array(markers[index].utf8)) else { return nil }
            pieces.append(Piece(text: String(decoding: rest[..<range.lowerBound], as: UTF8.self), isContent: false))
            pieces.append(Piece(text: message.content, isContent: true))
            rest = rest[range.upperBound...]
        }
        pieces.append(Piece(text: String(decoding: rest, as: UTF8.self), isContent: false))
        return pieces
    }
}
