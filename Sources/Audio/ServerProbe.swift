import ParleyCore
import CPulseAudio
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

    public var description: String {
        "no PulseAudio server at \(server ?? "the default address") (\(reason)); "
            + "start one (pulseaudio --start) or pass --server, or use --typed-only"
    }
}

/// A one-shot connection that asks the server who it is and disconnects.
///
/// Runs its own single-threaded libpulse mainloop on the calling thread, so it
/// is for `parley doctor` and start-up checks, not for the conversation.
public enum ServerProbe {
    /// Connects to `server` (nil: `$PULSE_SERVER` or the default), reads the server info,
    /// and disconnects; fails within `timeout` seconds.
    public static func probe(server: String? = nil, timeout: Double = 3) throws -> AudioServerInfo {
        guard let mainloop = pa_mainloop_new() else {
            throw AudioServerUnavailable(server: server, reason: "libpulse could not create a mainloop")
        }
        defer { pa_mainloop_free(mainloop) }
        guard let context = pa_context_new(pa_mainloop_get_api(mainloop), "Parley doctor") else {
            throw AudioServerUnavailable(server: server, reason: "libpulse could not create a context")
        }
        defer { pa_context_unref(context) }
        let deadline = Date().addingTimeInterval(timeout)
        func iterate(until done: () -> Bool) -> Bool {
            while !done() {
                guard Date() < deadline else { return false }
                pa_mainloop_prepare(mainloop, 50_000)
                pa_mainloop_poll(mainloop)
                pa_mainloop_dispatch(mainloop)
            }
            return true
        }
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw AudioServerUnavailable(server: server, reason: String(cString: pa_strerror(pa_context_errno(context))))
        }
        defer { pa_context_disconnect(context) }
        let settled = iterate {
            let state = pa_context_get_state(context)
            return state == PA_CONTEXT_READY || state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED
        }
        guard settled, pa_context_get_state(context) == PA_CONTEXT_READY else {
            let reason = settled ? String(cString: pa_strerror(pa_context_errno(context))) : "timed out"
            throw AudioServerUnavailable(server: server, reason: reason)
        }
        let box = InfoBox()
        let operation = pa_context_get_server_info(context, { _, info, userData in
            let box = Unmanaged<InfoBox>.fromOpaque(userData!).takeUnretainedValue()
            if let info = info?.pointee {
                box.info = AudioServerInfo(serverName: string(info.server_name), version: string(info.server_version),
                                           defaultSink: string(info.default_sink_name),
                                           defaultSource: string(info.default_source_name))
            }
            box.done = true
        }, Unmanaged.passUnretained(box).toOpaque())
        defer { if let operation { pa_operation_unref(operation) } }
        guard iterate(until: { box.done }), let info = box.info else {
            throw AudioServerUnavailable(server: server, reason: "the server did not describe itself")
        }
        return info
    }

    private final class InfoBox {
        var info: AudioServerInfo?
        var done = false
    }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}
