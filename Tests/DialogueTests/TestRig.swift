import Dialogue
import DialogueTestSupport
import ParleyCoreFakes
import Foundation
import ParleyCore
import Synchronization

/// A coordinator wired to fake stages, with helpers to drive it.
struct TestRig {
    let audio = FakeAudio()
    let recognizer: FakeRecognizer
    let translator: FakeTranslator
    let synthesizer = FakeSynthesizer()
    let coordinator: TurnCoordinator
    let recorder: EventRecorder

    static let english = LocaleTag("en-US")!
    static let spanish = LocaleTag("es-ES")!

    /// Both locales recognizable unless `recognizes` says otherwise.
    init(recognizes: [LocaleTag] = [english, spanish], configure: (inout DialogueConfiguration) -> Void = { _ in },
         audioEvents: AsyncStream<AudioEvent>? = nil, transcript: TranscriptWriter? = nil,
         clock: SessionClock = .startingNow(), unknownWords: Set<String> = [], missingDirections: Set<String> = [],
         stages select: (inout ConversationStages) -> Void = { _ in }) {
        recognizer = FakeRecognizer(locales: recognizes)
        translator = FakeTranslator(unknown: unknownWords, missing: missingDirections)
        var configuration = DialogueConfiguration(sideA: SideSettings(locale: Self.english),
                                                  sideB: SideSettings(locale: Self.spanish))
        configure(&configuration)
        var stages = ConversationStages(source: audio, sink: audio, audioEvents: audioEvents, recognizer: recognizer,
                                      translator: translator, synthesizer: synthesizer)
        select(&stages)
        coordinator = TurnCoordinator(configuration: configuration, stages: stages, transcript: transcript, clock: clock)
        recorder = EventRecorder(coordinator.events)
    }

    /// Starts the conversation and waits until side A has the turn.
    func start() async throws {
        await coordinator.start()
        await coordinator.waitUntilReady()
    }

    /// Feeds one chunk per scripted event list and waits until each is consumed.
    func speak(_ script: [[RecognitionEvent]]) async throws {
        recognizer.script(script)
        for _ in script {
            try await waitUntil("the gate is open") { audio.isListening }
            audio.feed()
        }
    }

    /// Waits for `count` finished turns and returns them.
    @discardableResult
    func turns(_ count: Int) async throws -> [TranscriptEntry] {
        try await recorder.waitFor("\(count) finished turns") { _ in recorder.finishedTurns.count >= count }
        return recorder.finishedTurns
    }

    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        try await recorder.waitFor(what) { _ in condition() }
    }

    /// A final result.
    static func final(_ text: String, confidence: Double = 0.8, alternatives: [String] = []) -> RecognitionEvent {
        .final(RecognitionResult(text: text, confidence: confidence, alternatives: alternatives, isFinal: true))
    }
}

/// A clock that moves a quarter second on every reading: transcript times are exact.
func tickingClock() -> SessionClock {
    let ticks = Ticks()
    return SessionClock { ticks.next() }
}

private final class Ticks: Sendable {
    private let value = Mutex(0.0)
    func next() -> Double { value.withLock { $0 += 0.25; return $0 } }
}
