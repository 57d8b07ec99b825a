// A whole conversation as the model's text: the chat template applied to every message, with
// each message's content kept apart so that it is tokenized as plain text.

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
    /// template loses a message.
    static func conversation(model: LoadedModel, messages: [ChatMessage]) -> [Piece]? {
        guard let template = model.chatTemplate else { return plainConversation(messages) }
        // Each content is replaced by a marker that no note holds, found again after rendering.
        let markers = messages.indices.map { "\u{1}notes-content-\($0)\u{1}" }
        let chat = messages.enumerated().map { index, message in
            (role: message.role.rawValue, content: message.role == .system ? message.content : markers[index])
        }
        guard let rendered = apply(template, to: chat, model: model) else { return plainConversation(messages) }
        var rest = rendered.utf8[...]
        var pieces: [Piece] = []
        for (index, message) in messages.enumerated() where message.role != .system {
            guard let range = rest.firstRange(of: markers[index].utf8) else { return nil }
            pieces.append(Piece(text: String(decoding: rest[..<range.lowerBound], as: UTF8.self), isContent: false))
            pieces.append(Piece(text: message.content, isContent: true))
            rest = rest[range.upperBound...]
        }
        pieces.append(Piece(text: String(decoding: rest, as: UTF8.self), isContent: false))
        return pieces
    }
}
