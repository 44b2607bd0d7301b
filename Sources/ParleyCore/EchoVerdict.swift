/// What a source's echo guard made of captured audio while the machine's own
/// speech could reach the microphone.
///
/// A source that cannot tell (a fake, a file, a session whose capture is gated
/// during playback) marks every chunk `.noPlayback`.
public enum EchoVerdict: Sendable, Equatable {
    /// Nothing the machine played could reach the microphone in this chunk.
    case noPlayback
    /// Playback could reach the microphone, and the chunk is no louder than its echo can be.
    case echo
    /// Playback could reach the microphone, and the chunk has been louder than its echo by the
    /// guard's margin for long enough to be a person speaking over it.
    case person
}
