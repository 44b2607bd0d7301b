public import ParleyCore
import Synchronization

/// A recognizer that plays back a script: each appended chunk returns the
/// next list of events. Failures are injected per call. Two-language requests
/// (`makePairRequest`) play the same script; their finals carry the hypotheses the script gives.
public final class FakeRecognizer: SpeechRecognizer, LanguagePairRecognizer {
    private let locales: [LocaleTag]
    private let state = Mutex(State())

    private struct State {
        var script: [[RecognitionEvent]] = []
        var failures: [String: any Error] = [:]
        var finishResults: [RecognitionResult] = []
        var made: [(LocaleTag, RecognitionOptions)] = []
        var pairs: [(LocaleTag, LocaleTag)] = []
        var cancels = 0
        var appends = 0
    }

    /// A recognizer with models for `locales`.
    public init(locales: [LocaleTag] = [LocaleTag("en-US")!]) {
        self.locales = locales
    }

    /// Queues the events the next appended chunks return, one list per chunk.
    public func script(_ events: [[RecognitionEvent]]) { state.withLock { $0.script += events } }

    /// Queues the result the next `finish()` returns (default: the last partial, final).
    public func finishWith(_ result: RecognitionResult) { state.withLock { $0.finishResults.append(result) } }

    /// Makes `call` (`makeRequest`, `append`, `finish`) throw `error` from now on; nil heals it.
    public func fail(_ call: String, with error: (any Error)?) { state.withLock { $0.failures[call] = error } }

    /// The locales and options of every request made.
    public var requests: [(locale: LocaleTag, options: RecognitionOptions)] {
        state.withLock { $0.made.map { (locale: $0.0, options: $0.1) } }
    }
    /// The two locales of every two-language request made, in the order asked.
    public var pairRequests: [(first: LocaleTag, second: LocaleTag)] {
        state.withLock { $0.pairs.map { (first: $0.0, second: $0.1) } }
    }
    /// How many requests were cancelled.
    public var cancelCount: Int { state.withLock { $0.cancels } }
    /// How many chunks were appended to requests, failed appends included.
    public var appendCount: Int { state.withLock { $0.appends } }

    public func supportedLocales() async -> [LocaleTag] { locales }

    public func makeRequest(locale: LocaleTag, options: RecognitionOptions) async throws -> any RecognitionRequest {
        try state.withLock { state in
            if let error = state.failures["makeRequest"] { throw error }
            state.made.append((locale, options))
        }
        return Request(recognizer: self)
    }

    public func makePairRequest(first: LocaleTag, second: LocaleTag,
                                options: RecognitionOptions) async throws -> any RecognitionRequest {
        try state.withLock { state in
            if let error = state.failures["makePairRequest"] { throw error }
            state.pairs.append((first, second))
        }
        return Request(recognizer: self)
    }

    /// The failure scripted as "pairUnavailability", told before any request.
    public func pairUnavailability(first: LocaleTag, second: LocaleTag) async -> (any Error)? {
        state.withLock { $0.failures["pairUnavailability"] }
    }

    fileprivate func nextEvents() throws -> [RecognitionEvent] {
        try state.withLock { state in
            state.appends += 1
            if let error = state.failures["append"] { throw error }
            return state.script.isEmpty ? [] : state.script.removeFirst()
        }
    }

    fileprivate func finishResult(partial: String) throws -> RecognitionResult {
        try state.withLock { state in
            if let error = state.failures["finish"] { throw error }
            return state.finishResults.isEmpty ? RecognitionResult(text: partial, confidence: 0.5, isFinal: true)
                : state.finishResults.removeFirst()
        }
    }

    fileprivate func countCancel() { state.withLock { $0.cancels += 1 } }
}

/// One scripted utterance.
private final class Request: RecognitionRequest {
    private let recognizer: FakeRecognizer
    private let partial = Mutex("")

    init(recognizer: FakeRecognizer) {
        self.recognizer = recognizer
    }

    private let endedWith = Mutex<RecognitionResult?>(nil)

    func append(_ chunk: PCMChunk) async throws -> [RecognitionEvent] {
        let events = try recognizer.nextEvents()
        for case let .partial(text) in events {
            partial.withLock { $0 = text }
        }
        for case let .final(result) in events { endedWith.withLock { $0 = result } }
        return events
    }

    /// The final `append` gave, as the protocol promises; else the scripted one.
    func finish() async throws -> RecognitionResult {
        if let result = endedWith.withLock({ $0 }) { return result }
        return try recognizer.finishResult(partial: partial.withLock { $0 })
    }

    func cancel() async -> RecognitionResult {
        recognizer.countCancel()
        return RecognitionResult(text: partial.withLock { $0 }, isFinal: false)
    }
}
