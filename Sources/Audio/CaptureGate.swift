/// Decides which captured samples reach the consumer.
///
/// Capture runs all the time (an open stream costs nothing and answers at
/// once); the gate only chooses what to keep. Nothing is kept while nobody
/// listens. A gate that `closesDuringPlayback` (a session without an echo
/// canceller: `AudioSessionOptions.gatesCaptureDuringPlayback`) keeps nothing while the machine speaks,
/// and after playback ends it also drops the playback's tail still travelling
/// through the device and the record buffer, measured in samples rather than
/// waited for; one that does not keeps listening, for barge-in.
struct CaptureGate {
    /// Whether the consumer wants audio.
    var isListening = false
    /// Whether playback is queued or playing.
    private(set) var isPlaybackActive = false
    /// Whether playback closes the gate.
    var closesDuringPlayback: Bool
    /// Captured samples still to drop because they carry the end of the playback.
    private(set) var tailToDrop = 0

    /// Creates a gate with no playback under way.
    init(closesDuringPlayback: Bool, listening: Bool = false) {
        self.closesDuringPlayback = closesDuringPlayback
        self.isListening = listening
    }

    /// Whether captured audio is being delivered now.
    var isOpen: Bool { isListening && !(closesDuringPlayback && isPlaybackActive) }

    /// Playback begins: the gate closes if it `closesDuringPlayback`.
    mutating func playbackStarted() {
        isPlaybackActive = true
    }

    /// The server reports playback drained or flushed; the next `tailSamples` captured
    /// samples still carry it.
    mutating func playbackEnded(tailSamples: Int) {
        guard isPlaybackActive else { return }
        isPlaybackActive = false
        if closesDuringPlayback { tailToDrop = max(tailToDrop, tailSamples) }
    }

    /// The part of a block of `count` captured samples to deliver, or nil for none.
    mutating func admit(_ count: Int) -> Range<Int>? {
        if closesDuringPlayback && isPlaybackActive { return nil }
        let skipped = min(tailToDrop, count)
        tailToDrop -= skipped
        guard isListening, skipped < count else { return nil }
        return skipped..<count
    }
}
