import Logging
import ParleyCore

/// The pipelines of one direction: the clean one, and the marked one when
/// unknown words are reported. Both translate each sentence at the same time.
final class DirectionSession: Sendable {
    /// A short sentence that loads every dictionary of the pipeline.
    static let warmUpSentence = "Hello."

    let direction: ApertiumDirection
    private let clean: ApertiumPipeline
    private let marked: ApertiumPipeline?
    private let logger: Logger

    init(direction: ApertiumDirection, configuration: ApertiumTranslator.Configuration, logger: Logger) {
        self.direction = direction
        self.logger = logger
        clean = ApertiumPipeline(direction: direction, form: .clean, limits: configuration.limits, logger: logger)
        marked = configuration.reportsUnknownWords
            ? ApertiumPipeline(direction: direction, form: .marked, limits: configuration.limits, logger: logger) : nil
    }

    /// Translates through both pipelines. A marked pipeline that fails costs only the unknown words.
    func translate(_ text: String) async throws -> MarkedTranslation {
        async let markedText = markedTranslation(of: text)
        let cleanText = try await clean.translate(text)
        let marks = await markedText
        let unknown = marks.map { UnknownWordScanner.unknownWords(marked: $0, clean: cleanText) } ?? []
        return MarkedTranslation(result: TranslationResult(source: text, text: cleanText, unknownWords: unknown.map(\.word)),
                                 rawText: cleanText, markedText: marks, unknownWords: unknown, direction: direction.name)
    }

    func prepare() async throws {
        async let markedReady: Void? = marked?.start(warmingUpWith: Self.warmUpSentence)
        try await clean.start(warmingUpWith: Self.warmUpSentence)
        _ = try await markedReady
    }

    func stop() async {
        async let cleanStopped: Void = clean.stop()
        await marked?.stop()
        await cleanStopped
    }

    func processGroups() async -> [Int32] {
        await clean.processGroups + (await marked?.processGroups ?? [])
    }

    /// How the drifted taggers of both pipelines were replaced.
    func taggerReplacements() async -> TaggerReplacements {
        await clean.taggerReplacements + (await marked?.taggerReplacements ?? TaggerReplacements())
    }

    private func markedTranslation(of text: String) async -> String? {
        guard let marked else { return nil }
        do {
            return try await marked.translate(text)
        } catch {
            logger.warning("unknown words not available for this sentence: \(error)")
            return nil
        }
    }
}
