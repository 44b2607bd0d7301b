public import Logging
public import ParleyCore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A translator that keeps unknown-word marks and can be stopped: what the glossary wraps.
public protocol MarkedTranslator: Translator {
    /// Translates `text`, keeping the raw text, the marks and the clean-up applied.
    func translateMarked(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> MarkedTranslation
    /// The name of the direction that translates `source` into `target`; throws when none is installed.
    nonisolated func directionName(from source: LocaleTag, to target: LocaleTag) throws -> String
    /// Stops whatever the translator runs.
    func shutdown() async
}

extension ApertiumTranslator: MarkedTranslator {
    /// The installed Apertium direction's name, e.g. `eng-spa`.
    public nonisolated func directionName(from source: LocaleTag, to target: LocaleTag) throws -> String {
        try direction(from: source, to: target).name
    }
}

/// A translation and the glossary entries that decided part of it.
public struct GlossaryTranslation: Sendable, Hashable {
    /// The translation, with the glossary's terms in place (or the phrasebook's text).
    public var translation: MarkedTranslation
    /// The entries used, in the order they appear; one phrase entry when the phrasebook answered.
    public var applied: [GlossaryEntry]
}

/// Applies the person's glossaries around another translator: a sentence the
/// phrasebook holds gets its fixed translation without Apertium; otherwise the
/// glossary's terms are replaced by placeholders Apertium passes through
/// (`GlossaryProtection`), and the target terms are put in their place, in the
/// case the sentence gives them. Everything else stays Apertium's.
///
/// Each language pair's file is read when first needed and again whenever it
/// changes on disk, so an edit from the REPL or another process applies to
/// the next sentence.
///
/// ```swift
/// let translator = GlossaryTranslator(wrapping: apertium, store: GlossaryStore(directory: directories.user))
/// let result = try await translator.translateWithGlossary("Where is the train station?", from: enUS, to: esES)
/// // result.translation.result.text == "¿Dónde es el estación de tren?", result.applied == [train station → estación de tren]
/// ```
public actor GlossaryTranslator: MarkedTranslator {
    private let inner: any MarkedTranslator
    private let store: GlossaryStore?
    private let logger: Logger
    private var loaded: [String: (stamp: FileStamp?, matcher: GlossaryMatcher)] = [:]

    /// Wraps `inner`, reading the glossaries of `store` (none: every sentence goes to `inner` as it is).
    public init(wrapping inner: any MarkedTranslator, store: GlossaryStore?, logger: Logger = Logger(label: "parley.glossary")) {
        self.inner = inner
        self.store = store
        self.logger = logger
    }

    /// Whether the wrapped translator can translate from `source` to `target`.
    public func canTranslate(from source: LocaleTag, to target: LocaleTag) async -> Bool {
        await inner.canTranslate(from: source, to: target)
    }

    /// The translation with the glossary applied; `glossaryEntries` names the entries used.
    public func translate(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> TranslationResult {
        let translated = try await translateWithGlossary(text, from: source, to: target)
        var result = translated.translation.result
        result.glossaryEntries = translated.applied.map(\.description)
        return result
    }

    /// The marked translation with the glossary applied.
    public func translateMarked(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> MarkedTranslation {
        try await translateWithGlossary(text, from: source, to: target).translation
    }

    /// The direction of the wrapped translator.
    public nonisolated func directionName(from source: LocaleTag, to target: LocaleTag) throws -> String {
        try inner.directionName(from: source, to: target)
    }

    /// Stops the wrapped translator.
    public func shutdown() async {
        await inner.shutdown()
    }

    /// Translates `text` through the phrasebook, or through the wrapped translator with the terms protected.
    public func translateWithGlossary(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> GlossaryTranslation {
        let matcher = self.matcher(from: source.language, to: target.language)
        if let phrase = matcher.phrase(for: text) {
            let direction = try inner.directionName(from: source, to: target)
            let result = TranslationResult(source: text, text: phrase.target, glossaryEntries: [phrase.description])
            return GlossaryTranslation(translation: MarkedTranslation(result: result, rawText: phrase.target, markedText: nil,
                                                                      unknownWords: [], direction: direction),
                                       applied: [phrase])
        }
        let protection = GlossaryProtection(text: text, matches: matcher.terms(in: text))
        guard !protection.matches.isEmpty else {
            return GlossaryTranslation(translation: try await inner.translateMarked(text, from: source, to: target), applied: [])
        }
        let protected = try await inner.translateMarked(protection.protectedText, from: source, to: target)
        return restored(protected, protection, source: text)
    }

    /// The wrapped translator's answer with the placeholders replaced by the target terms.
    private func restored(_ protected: MarkedTranslation, _ protection: GlossaryProtection, source: String) -> GlossaryTranslation {
        var translation = protected
        let text = protection.restore(protected.result.text)
        translation.result.source = source
        translation.result.text = text.text
        translation.rawText = protection.restore(protected.rawText).text
        translation.markedText = protected.markedText.map { protection.restore($0).text }
        translation.unknownWords.removeAll { protection.isPlaceholder($0.word) }
        translation.result.unknownWords.removeAll { protection.isPlaceholder($0) }
        translation.result.glossaryEntries = text.applied.map(\.description)
        if text.applied.count < protection.matches.count {
            logger.warning("Apertium dropped \(protection.matches.count - text.applied.count) glossary term(s) of a sentence")
        }
        return GlossaryTranslation(translation: translation, applied: text.applied)
    }

    /// The pair's matcher, read again when its file changed; a file that cannot be
    /// read leaves the glossary empty (with a warning) and translation goes on.
    private func matcher(from source: String, to target: String) -> GlossaryMatcher {
        guard let store else { return GlossaryMatcher(entries: []) }
        let pair = "\(source)-\(target)"
        let stamp = FileStamp(path: store.path(from: source, to: target))
        if let cached = loaded[pair], cached.stamp == stamp { return cached.matcher }
        var matcher = GlossaryMatcher(entries: [])
        do {
            let document = try store.load(from: source, to: target)
            for problem in document.problems { logger.warning("\(problem)") }
            matcher = GlossaryMatcher(entries: document.entries)
        } catch {
            logger.warning("the \(pair) glossary is not used: \(error)")
        }
        loaded[pair] = (stamp, matcher)
        return matcher
    }
}

/// What identifies one version of a file cheaply: device, inode, size and modification time.
struct FileStamp: Equatable {
    let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

    /// The stamp of the file at `path` (following symlinks), or nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
