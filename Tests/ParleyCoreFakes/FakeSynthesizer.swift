public import ParleyCore
import Synchronization

/// A synthesizer that "speaks" a few chunks of tone per utterance and records
/// what it was asked to say. Every sample of an utterance's chunks is the
/// utterance's number (1 for the first), so tests can tell whose audio played.
public final class FakeSynthesizer: SpeechSynthesizer {
    private let chunksPerUtterance: Int
    private let state = Mutex(State())

    private struct State {
        var spoken: [Utterance] = []
        var failure: (any Error)?
        var stops = 0
    }

    /// The voices the fake offers.
    public static let voiceList = [
        Voice(identifier: "en-us", name: "English (America)", language: "en", locale: LocaleTag("en-US"), gender: .male),
        Voice(identifier: "es", name: "Spanish (Spain)", language: "es", locale: LocaleTag("es-ES"), gender: .male),
    ]

    /// Creates a fake synthesizer that makes `chunksPerUtterance` chunks of 20 ms for each utterance.
    public init(chunksPerUtterance: Int = 3) {
        self.chunksPerUtterance = chunksPerUtterance
    }

    /// Every utterance asked for, in order.
    public var utterances: [Utterance] { state.withLock { $0.spoken } }
    /// How many times speech was stopped.
    public var stopCount: Int { state.withLock { $0.stops } }

    /// Makes every utterance fail with `error` from now on; nil heals it.
    public func fail(with error: (any Error)?) { state.withLock { $0.failure = error } }

    public func voices() async -> [Voice] { Self.voiceList }

    public func speak(_ utterance: Utterance) -> AsyncThrowingStream<SynthesisEvent, any Error> {
        let (number, injected) = state.withLock { state in
            state.spoken.append(utterance)
            return (state.spoken.count, state.failure)
        }
        let chunks = chunksPerUtterance
        return AsyncThrowingStream { continuation in
            if let injected { return continuation.finish(throwing: injected) }
            continuation.yield(.started(Self.voiceList[0]))
            for _ in 0..<chunks {
                continuation.yield(.audio(PCMChunk(format: .synthesis, samples: Array(repeating: Int16(number), count: 441))))
            }
            continuation.yield(.finished)
            continuation.finish()
        }
    }

    public func stopSpeaking() async { state.withLock { $0.stops += 1 } }
}
