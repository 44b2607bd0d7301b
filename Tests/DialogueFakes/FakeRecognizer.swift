public import ParleyCore
import Foundation

/// A recognizer that plays back a script: each appended chunk returns the
/// next list of events. Failures are injected per call.
public final class FakeRecognizer: SpeechRecognizer, @unchecked Sendable {
    private let lock = NSLock()
    private let locales: [LocaleTag]
    private var script: [[RecognitionEvent]] = []
    private var failures: [String: any Error] = [:]
    private var finishResults: [RecognitionResult] = []
    private var made: [(LocaleTag, RecognitionOptions)] = []
    private var cancels = 0

    /// A recognizer with models for `locales`.
    public init(locales: [LocaleTag] = [LocaleTag("en-US")!]) {
        self.locales = locales
    }

    /// Queues the events the next appended chunks return, one list per chunk.
    public func script(_ events: [[RecognitionEvent]]) { locked { script += events } }

    /// Queues the result the next `finish()` returns (default: the last partial, final).
    public func finishWith(_ result: RecognitionResult) { locked { finishResults.append(result) } }

    /// Makes `call` (`makeRequest`, `append`, `finish`) throw `error` from now on; nil heals it.
    public func fail(_ call: String, with error: (any Error)?) { locked { failures[call] = error } }

    /// The locales and options of every request made.
    public var requests: [(locale: LocaleTag, options: RecognitionOptions)] { locked { made } }
    /// How many requests were cancelled.
    public var cancelCount: Int { locked { cancels } }

    public func supportedLocales() async -> [LocaleTag] { locales }

    public func makeRequest(locale: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest {
        try locked {
            if let error = failures["makeRequest"] { throw error }
            made.append((locale, options))
        }
        return Request(recognizer: self)
    }

    fileprivate func nextEvents() throws -> [RecognitionEvent] {
        try locked {
            if let error = failures["append"] { throw error }
            return script.isEmpty ? [] : script.removeFirst()
        }
    }

    fileprivate func finishResult(partial: String) throws -> RecognitionResult {
        try locked {
            if let error = failures["finish"] { throw error }
            return finishResults.isEmpty ? RecognitionResult(text: partial, confidence: 0.5, isFinal: true)
                : finishResults.removeFirst()
        }
    }

    fileprivate func countCancel() { locked { cancels += 1 } }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}

/// One scripted utterance.
private final class Request: RecognitionRequest, @unchecked Sendable {
    private let recognizer: FakeRecognizer
    private let lock = NSLock()
    private var partial = ""

    init(recognizer: FakeRecognizer) {
        self.recognizer = recognizer
    }

    func append(_ chunk: PCMChunk) async throws -> [RecognitionEvent] {
        let events = try recognizer.nextEvents()
        for case let .partial(text) in events {
            lock.withLock { partial = text }
        }
        return events
    }

    func finish() async throws -> RecognitionResult {
        try recognizer.finishResult(partial: lock.withLock { partial })
    }

    func cancel() async -> RecognitionResult {
        recognizer.countCancel()
        return RecognitionResult(text: lock.withLock { partial }, isFinal: false)
    }
}
