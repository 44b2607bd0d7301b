public import ParleyCore

/// Why the audio session could not do what was asked, in words a person can act on.
///
/// No server at all is `AudioServerUnavailable` instead, so callers can fall
/// back to typed-only mode on that one type.
public enum AudioSessionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A named device does not exist on the server (`kind` is `sink` or `source`).
    case deviceNotFound(kind: String, name: String)
    /// The server refused to create a stream.
    case streamFailed(kind: String, reason: String)
    /// A chunk for playback is not in the session's playback format.
    case unsupportedPlaybackFormat(AudioFormat)
    /// The server went away; the session is reconnecting.
    case serverLost
    /// The session was used before `open()` or after `close()`.
    case notOpen

    public var description: String {
        switch self {
        case let .deviceNotFound(kind, name):
            return "there is no \(kind) named \(name) on the audio server; see `parley devices` for the names"
        case let .streamFailed(kind, reason):
            return "the audio server refused the \(kind) stream (\(reason)); check the device with `parley devices`"
        case let .unsupportedPlaybackFormat(format):
            return "cannot play \(format) audio: the session plays \(AudioFormat.synthesis) only; convert it first"
        case .serverLost:
            return "the audio server went away; Parley reconnects when it is back"
        case .notOpen:
            return "the audio session is not open; call open() first"
        }
    }
}
