// What `notes model` shows, in human form (`description`) and as JSON (`jsonString`, and `json`
// for the CLI's output).
import Notes

public struct ModelInfo: Sendable, Hashable, CustomStringConvertible {
    var availability: LanguageModel.Availability
    var path: String
    /// The file's size, nil when it does not exist.
    var sizeBytes: Int?
    public var parameters: Int?
    /// The context each session gets.
    var contextSize: Int
    /// The context the model was trained with.
    var trainedContextSize: Int?
    /// The GGUF's chat template; nil means the built-in plain format (see `PromptFormat`).
    var chatTemplate: String?
    /// llama.cpp's one-line description (architecture, size, quantisation).
    var modelType: String?
    public var vocabularySize: Int?

    init(availability: LanguageModel.Availability, path: String, sizeBytes: Int?, parameters: Int?, contextSize: Int,
                trainedContextSize: Int?, chatTemplate: String?, modelType: String?, vocabularySize: Int?) {
        self.availability = availability
        self.path = path
        self.sizeBytes = sizeBytes
        self.parameters = parameters
        self.contextSize = contextSize
        self.trainedContextSize = trainedContextSize
        self.chatTemplate = chatTemplate
        self.modelType = modelType
        self.vocabularySize = vocabularySize
    }

    /// The file's own name, through a link (`reader-model.gguf` is one to the model set-up chose).
    public var name: String {
        String(FileSystem.realPath(path).split(separator: "/").last ?? Substring(path))
    }

    public var description: String {
        var lines = ["Name:         \(name)", "Model:        \(availability)", "Path:         \(path)"]
        if let sizeBytes { lines.append("Size:         \(Self.megabytes(sizeBytes)) (\(sizeBytes) bytes)") }
        if let parameters { lines.append("Parameters:   \(Self.millions(parameters))") }
        if let modelType, !modelType.isEmpty { lines.append("Type:         \(modelType)") }
        if let vocabularySize { lines.append("Vocabulary:   \(vocabularySize) tokens") }
        var context = "Context:      \(contextSize) tokens"
        if let trainedContextSize { context += " (trained with \(trainedContextSize))" }
        lines.append(context)
        if availability.isAvailable {
            lines.append("Chat format:  \(chatTemplate.map { PromptFormat.templateName($0) } ?? "plain (no template in the model)")")
        }
        return lines.joined(separator: "\n")
    }

    /// One JSON object; absent values are null. The template is included in full.
    public var jsonString: String {
        func number(_ value: Int?) -> GeneratedContent { value.map { GeneratedContent(kind: .number(String($0))) } ?? GeneratedContent(kind: .null) }
        func string(_ value: String?) -> GeneratedContent { value.map { GeneratedContent(kind: .string($0)) } ?? GeneratedContent(kind: .null) }
        let reason: String? = if case .unavailable(let reason) = availability { reason } else { nil }
        let pairs: [(String, GeneratedContent)] = [
            ("available", GeneratedContent(kind: .bool(availability.isAvailable))),
            ("unavailableReason", string(reason)),
            ("path", string(path)),
            ("sizeBytes", number(sizeBytes)),
            ("parameters", number(parameters)),
            ("contextSize", number(contextSize)),
            ("trainedContextSize", number(trainedContextSize)),
            ("vocabularySize", number(vocabularySize)),
            ("type", string(modelType)),
            ("chatTemplate", string(chatTemplate)),
        ]
        return GeneratedContent(kind: .structure(properties: Dictionary(uniqueKeysWithValues: pairs), orderedKeys: pairs.map(\.0))).jsonString
    }

    /// `jsonString`'s keys, the file's name first.
    public var json: JSON {
        let reason: String? = if case .unavailable(let reason) = availability { reason } else { nil }
        return .object([
            ("name", .string(name)),
            ("available", .bool(availability.isAvailable)),
            ("unavailableReason", .optional(reason)),
            ("path", .string(path)),
            ("sizeBytes", sizeBytes.map(JSON.int) ?? .null),
            ("parameters", parameters.map(JSON.int) ?? .null),
            ("contextSize", .int(contextSize)),
            ("trainedContextSize", trainedContextSize.map(JSON.int) ?? .null),
            ("vocabularySize", vocabularySize.map(JSON.int) ?? .null),
            ("type", .optional(modelType)),
            ("chatTemplate", .optional(chatTemplate)),
        ])
    }

    public static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10) MB"
    }

    static func millions(_ count: Int) -> String {
        let tenths = (count + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) M"
    }
}
