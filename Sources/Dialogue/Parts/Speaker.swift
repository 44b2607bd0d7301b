import ParleyCore

/// One speaker of a conversation: what plays on it now and since when, and the hold a person
/// speaking over it puts on it. A dialogue's side and a room's party hear translations on one.
///
/// It speaks one utterance at a time (`say`); the coordinator decides what and when (a turn's
/// translation, a clause, a queued translation), and acts on how it ended. It belongs to one
/// coordinator and runs on its actor: the closures it is given run there.
final class Speaker {
    /// What plays now.
    struct Playing {
        /// Its text (an utterance that repeats it is its echo, not a person).
        var text: String
        /// The room's utterance it translates; nil in a dialogue.
        var number: Int?
        /// When its first audio went to the speaker; nil until then.
        var start: Double?
    }

    /// The device.
    let sink: any AudioSink
    /// What plays now; nil between utterances.
    private(set) var playing: Playing?
    /// Since when a person speaking over `playing` holds it; nil while it plays.
    private(set) var heldSince: Double?
    /// Counts utterances: one that was cut stops being fed.
    private var generation = 0

    init(_ sink: any AudioSink) { self.sink = sink }

    /// Speaks `utterance` with `synthesizer`, while `isCurrent` holds and nothing cut it; tells
    /// `started` when its first audio went to the speaker. Returns when it was played out, or
    /// abandoned, or failed.
    func say(_ utterance: Utterance, number: Int? = nil, with synthesizer: any SpeechSynthesizer, clock: SessionClock,
             isolation: isolated (any Actor)? = #isolation,
             while isCurrent: () -> Bool = { true }, started: (Double) -> Void = { _ in }) async -> SpeechOutcome {
        generation += 1
        let token = generation
        playing = Playing(text: utterance.text, number: number)
        defer { if generation == token { playing = nil } }
        return await synthesizer.say(utterance, on: sink, clock: clock, while: { generation == token && isCurrent() }) { start in
            playing?.start = start
            started(start)
        }
    }

    /// A person began to speak over what plays, at `time`: it is paused until `resume` or `cut`
    /// (an utterance that ends meanwhile, or begins, leaves the speaker held). False when it is
    /// held already.
    nonisolated(nonsending) func hold(at time: Double) async -> Bool {
        guard heldSince == nil else { return false }
        heldSince = time
        await sink.pausePlayback()
        return true
    }

    /// What was held plays on where it stopped.
    nonisolated(nonsending) func resume() async {
        heldSince = nil
        await sink.resumePlayback()
    }

    /// Stops what plays, for good: returns it, with the seconds of it heard before the hold
    /// (or before now, `time`, when it was not held).
    nonisolated(nonsending) func cut(at time: Double) async -> (playing: Playing, played: Double)? {
        guard let playing else { return nil }
        let until = heldSince ?? time
        await stop()
        return (playing, max(0, until - (playing.start ?? until)))
    }

    /// Stops what plays and drops what the device has queued; nothing is held any more.
    nonisolated(nonsending) func stop() async {
        generation += 1
        playing = nil
        heldSince = nil
        await sink.cancelPlayback()
    }
}
