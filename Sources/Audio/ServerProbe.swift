import ParleyCore
import Foundation

/// What the audio server says about itself.
public struct AudioServerInfo: Sendable, Equatable, Codable {
    /// The server's name, e.g. `pulseaudio`, or `PulseAudio (on PipeWire …)`.
    public var serverName: String
    /// The server's version.
    public var version: String
    /// Name of the default playback device.
    public var defaultSink: String
    /// Name of the default capture device.
    public var defaultSource: String
}

/// The audio server could not be reached.
public struct AudioServerUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server address tried, or nil for the default.
    public var server: String?
    /// What libpulse said.
    public var reason: String

    public var description: String { described(offering: "--typed-only") }

    /// The sentence, ending with the command's option that does without the server
    /// (`--typed-only` for a conversation, `--mute` when its microphone is already off,
    /// `--file` for `listen`); nil for a command that cannot do without one.
    public func described(offering option: String?) -> String {
        "no PulseAudio server at \(server ?? "the default address") (\(reason)); "
            + "start one (pulseaudio --start) or pass --server" + (option.map { ", or use \($0)" } ?? "")
    }
}

/// A one-shot connection that asks the server who it is and disconnects.
///
/// Runs its own single-threaded libpulse mainloop on the calling thread, so it
/// is for `parley doctor` and start-up checks, not for the conversation.
public enum ServerProbe {
    /// Connects to `server` (nil: `$PULSE_SERVER` or the default), showing `cookie` when given,
    /// reads the server info, and disconnects; fails within `timeout` seconds.
    public static func probe(server: String? = nil, cookie: PulseCookie? = nil, timeout: Double = 3) throws -> AudioServerInfo {
        let connection = try OneShotConnection(server: server, name: "Parley doctor", timeout: timeout, cookie: cookie)
        guard let info = connection.answer({ context, answer in context.serverInfo(answer) }) ?? nil else {
            throw AudioServerUnavailable(server: server, reason: "the server did not describe itself")
        }
        return info
    }
}
