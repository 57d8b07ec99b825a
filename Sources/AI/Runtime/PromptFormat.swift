// Turns instructions and a prompt into the model's text: its own chat template when the GGUF has
// one that llama.cpp knows, else a plain documented format.
import CLlama

enum PromptFormat {
    /// Used when the model has no chat template (or one llama.cpp cannot apply):
    ///
    ///     ### Instructions
    ///     <instructions>
    ///
    ///     ### Prompt
    ///     <prompt>
    ///
    ///     ### Response
    ///
    static func plain(system: String?, user: String) -> String {
        var text = ""
        if let system, !system.isEmpty { text += "### Instructions\n\(system)\n\n" }
        return text + "### Prompt\n\(user)\n\n### Response\n"
    }

    static func render(model: LoadedModel, system: String?, user: String) -> String {
        guard let template = model.chatTemplate else { return plain(system: system, user: user) }
        var messages: [(role: String, content: String)] = []
        if let system, !system.isEmpty { messages.append(("system", system)) }
        messages.append(("user", user))
        return apply(template, to: messages, model: model) ?? plain(system: system, user: user)
    }

    /// llama.cpp's rendering of the messages through `template`, ending with the assistant's
    /// turn opened; nil when llama.cpp cannot apply it.
    static func apply(_ template: String, to messages: [(role: String, content: String)], model: LoadedModel) -> String? {
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { owned.forEach { $0.deallocate() } }
        func copy(_ text: String) -> UnsafePointer<CChar> {
            let bytes = Array(text.utf8CString)
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            pointer.initialize(from: bytes, count: bytes.count)
            owned.append(pointer)
            return UnsafePointer(pointer)
        }
        let chat = messages.map { llama_chat_message(role: copy($0.role), content: copy($0.content)) }
        var buffer = [CChar](repeating: 0, count: messages.reduce(512) { $0 + 2 * $1.content.utf8.count + 64 })
        var length = model.api.llama_chat_apply_template(template, chat, chat.count, true, &buffer, Int32(buffer.count))
        if length > Int32(buffer.count) {
            buffer = [CChar](repeating: 0, count: Int(length) + 1)
            length = model.api.llama_chat_apply_template(template, chat, chat.count, true, &buffer, Int32(buffer.count))
        }
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A short name for a template, for `notes model`.
    static func templateName(_ template: String) -> String {
        if template.contains("<|im_start|>") { return "ChatML (from the model)" }
        if template.contains("<start_of_turn>") { return "Gemma (from the model)" }
        if template.contains("[INST]") { return "Llama 2 / Mistral (from the model)" }
        if template.contains("<|start_header_id|>") { return "Llama 3 (from the model)" }
        return "custom (from the model)"
    }
}
