public import ParleyCore
import Foundation

/// A translator that marks text with its target locale — `[es-ES] hello` —
/// so tests can tell a translation from its source. Words listed as unknown
/// are reported as such; failures and holds are injected.
public final class FakeTranslator: Translator, @unchecked Sendable {
    private let lock = NSLock()
    private var failure: (any Error)?
    private var holding = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var calls: [String] = []
    private let unknown: Set<String>
    private let missingDirections: Set<String>

    /// A translator that knows every direction except `missing` (`en-US>fr-FR`) and
    /// reports the words in `unknown`.
    public init(unknown: Set<String> = [], missing: Set<String> = []) {
        self.unknown = unknown
        missingDirections = missing
    }

    /// Makes every call throw `error` from now on; nil heals it.
    public func fail(with error: (any Error)?) { locked { failure = error } }

    /// While holding, translations wait until `release()`.
    public func hold() { locked { holding = true } }

    /// Lets waiting translations go on.
    public func release() {
        let waiting = locked { () -> [CheckedContinuation<Void, Never>] in
            holding = false
            defer { waiters = [] }
            return waiters
        }
        waiting.forEach { $0.resume() }
    }

    /// Every text asked for, in order.
    public var translated: [String] { locked { calls } }

    /// What the fake makes of `text`.
    public static func translation(of text: String, to target: LocaleTag) -> String { "[\(target)] \(text)" }

    public func canTranslate(from source: LocaleTag, to target: LocaleTag) async -> Bool {
        !missingDirections.contains("\(source)>\(target)")
    }

    public func translate(_ text: String, from source: LocaleTag, to target: LocaleTag) async throws -> TranslationResult {
        locked { calls.append(text) }
        if locked({ holding }) {
            await withCheckedContinuation { continuation in
                let wait = locked { () -> Bool in
                    if holding { waiters.append(continuation) }
                    return holding
                }
                if !wait { continuation.resume() }
            }
        }
        if let failure = locked({ failure }) { throw failure }
        let words = text.split(separator: " ").map(String.init).filter { unknown.contains($0) }
        return TranslationResult(source: text, text: Self.translation(of: text, to: target), unknownWords: words)
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
