public import ParleyCore
import Foundation

/// A synthesizer that "speaks" a few chunks of tone per utterance and records
/// what it was asked to say.
public final class FakeSynthesizer: SpeechSynthesizer, @unchecked Sendable {
    private let lock = NSLock()
    private var spoken: [Utterance] = []
    private var failure: (any Error)?
    private var stops = 0

    /// The voices the fake offers.
    public static let voiceList = [
        Voice(identifier: "en-us", name: "English (America)", language: "en", locale: LocaleTag("en-US"), gender: .male),
        Voice(identifier: "es", name: "Spanish (Spain)", language: "es", locale: LocaleTag("es-ES"), gender: .male),
    ]

    /// Creates a fake synthesizer.
    public init() {}

    /// Every utterance asked for, in order.
    public var utterances: [Utterance] { lock.withLock { spoken } }
    /// How many times speech was stopped.
    public var stopCount: Int { lock.withLock { stops } }

    /// Makes every utterance fail with `error` from now on; nil heals it.
    public func fail(with error: (any Error)?) { lock.withLock { failure = error } }

    public func voices() async -> [Voice] { Self.voiceList }

    public func speak(_ utterance: Utterance) -> AsyncThrowingStream<SynthesisEvent, any Error> {
        let injected = lock.withLock { () -> (any Error)? in
            spoken.append(utterance)
            return self.failure
        }
        return AsyncThrowingStream { continuation in
            if let injected { return continuation.finish(throwing: injected) }
            continuation.yield(.started(Self.voiceList[0]))
            for _ in 0..<3 {
                continuation.yield(.audio(PCMChunk(format: .synthesis, samples: Array(repeating: 4000, count: 441))))
            }
            continuation.yield(.finished)
            continuation.finish()
        }
    }

    public func stopSpeaking() async { lock.withLock { stops += 1 } }
}
