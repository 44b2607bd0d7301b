import ParleyCore

/// How a conversation's stages are let go at its end, a dialogue's and a room's alike: every
/// wait has a bound, and a wait given up is handed to `waitGivenUp`, named.
extension ConversationStages {
    /// Seconds the speakers are given to acknowledge that playback was cancelled.
    public static let playbackStopBound = 0.5
    /// Seconds the stages are given to shut down: sessions closed, canceller unloaded, workers ended.
    public static let shutdownBound = 1.5

    /// Runs `operation` for at most `seconds`; past that it is left behind and named to
    /// `waitGivenUp`.
    func bounded(_ seconds: Double, _ what: String, _ operation: @escaping @Sendable () async -> Void) async {
        if let abandoned = await waitAtMost(seconds, what, operation) { waitGivenUp(abandoned) }
    }

    /// Stops the synthesizer and every speaker, waiting for the speakers' answer at most
    /// `playbackStopBound`.
    func stopPlaybackWithinBound() async {
        await bounded(Self.playbackStopBound, "the audio server did not acknowledge that playback stopped") { [self] in
            await synthesizer?.stopSpeaking()
            for sink in speakers { await sink.cancelPlayback() }
        }
    }

    /// Closes every microphone's gate and cancels `request`, the recognition in progress.
    func closeMicrophones(cancelling request: (any RecognitionRequest)?) async {
        for (_, source) in microphones { await source.stopListening() }
        if let request { _ = await request.cancel() }
    }
}
