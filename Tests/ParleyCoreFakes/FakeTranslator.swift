public import ParleyCore
import Synchronization

/// A translator that marks text with its target locale — `[es-ES] hello` —
/// so tests can tell a translation from its source. Words listed as unknown
/// are reported as such; failures and holds are injected.
public final class FakeTranslator: Translator {
    private let unknown: Set<String>
    private let missingDirections: Set<String>
    private let state = Mutex(State())
    private let translationHold = CallHold()

    private struct State {
        var failure: (any Error)?
        var calls: [String] = []
    }

    /// A translator that knows every direction except `missing` (`en-US>fr-FR`) and
    /// reports the words in `unknown`.
    public init(unknown: Set<String> = [], missing: Set<String> = []) {
        self.unknown = unknown
        missingDirections = missing
    }

    /// Makes every call throw `error` from now on; nil heals it.
    public func fail(with error: (any Error)?) { state.withLock { $0.failure = error } }

    /// While holding, translations wait until `release()`.
    public func hold() { translationHold.set(true) }

    /// Lets waiting translations go on.
    public func release() { translationHold.release() }

    /// Every text asked for, in order.
    public var translated: [String] { state.withLock { $0.calls } }

    /// What the fake makes of `text`.
    public static func translation(of text: String, to target: LocaleTag) -> String { "[\(target)] \(text)" }

    public func canTranslate(from source: LocaleTag, to target: LocaleTag) async -> Bool {
        !missingDirections.contains("\(source)>\(target)")
    }

    public func translate(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> TranslationResult {
        state.withLock { $0.calls.append(text) }
        await translationHold.pass()
        if let failure = state.withLock({ $0.failure }) { throw failure }
        let words = text.split(separator: " ").map(String.init).filter { unknown.contains($0) }
        return TranslationResult(source: text, text: Self.translation(of: text, to: target), unknownWords: words)
    }
}
