import Audio
import Foundation
import ParleyCore

/// The checks `parley dialog` and `parley room` make of each person's devices before anything
/// is opened: their cookies, and that no two people hear one microphone.
enum DeviceChecks {
    /// The cookie of `owner` ("party 2", "side B") in `path` (`~` expanded), for `server`;
    /// anything but a readable regular file of a cookie's size is refused in one sentence,
    /// and the file is only read.
    static func cookie(_ path: String, of owner: String, server: String?) throws(DeviceRefusal) -> PulseCookie {
        do {
            return try PulseCookie(readingFile: (path as NSString).expandingTildeInPath)
        } catch {
            throw DeviceRefusal("\(owner)'s cookie \(path) \(error.problem): give the \(PulseCookie.size)-byte file that \(server ?? "the default server") authenticates its clients with")
        }
    }

    /// Refuses a `$PULSE_COOKIE` that is not a cookie, for people who show their server the cookie it names.
    static func environmentCookie() throws(DeviceRefusal) {
        guard case .failure(let error)? = PulseCookie.fromEnvironment() else { return }
        throw DeviceRefusal("PULSE_COOKIE names \(error.path), which \(error.problem): give the server's \(PulseCookie.size)-byte cookie file, or unset PULSE_COOKIE")
    }

    /// The first two of `microphones` that are one device, and that device in words; nil
    /// when each is its own. Servers compare as `ServerAddress`es; a microphone left to its
    /// server's default (nil, or `@DEFAULT_SOURCE@`) is the source that server names as its
    /// default, asked within `timeout` seconds; a server that does not answer leaves the
    /// names compared as they are written (opening it will fail anyway).
    static func sharedMicrophone(_ microphones: [Microphone], timeout: Double = 2) -> (first: Int, second: Int, microphone: String)? {
        let addresses = microphones.map { ServerAddress($0.server) }
        var defaults: [ServerAddress: AudioServerInfo?] = [:]
        let info = { (index: Int) -> AudioServerInfo? in
            if let known = defaults[addresses[index]] { return known }
            let asked = try? ServerProbe.probe(server: microphones[index].server, cookie: microphones[index].cookie, timeout: timeout)
            defaults[addresses[index]] = asked
            return asked
        }
        for second in microphones.indices {
            for first in 0..<second where addresses[first] == addresses[second] {
                let (a, b) = (microphones[first], microphones[second])
                if a.writtenSource == b.writtenSource {
                    return (first, second, "\(a.writtenSource ?? "the default source") of \(a.server ?? "the default server")")
                }
                guard a.writtenSource == nil || b.writtenSource == nil, let server = info(first) else { continue }
                if a.source(on: server) == b.source(on: server) {
                    return (first, second, "\(a.source(on: server)), the default source of \(a.server ?? "the default server")")
                }
            }
        }
        return nil
    }
}

/// Which microphone a side or a party hears: a source of a server, nil for its defaults, and
/// the cookie that server wants.
struct Microphone {
    var server: String?
    var source: String?
    var cookie: PulseCookie?

    /// The microphone of a session with `options`.
    init(_ options: AudioSessionOptions) {
        (server, source, cookie) = (options.server, options.source, options.cookie)
    }

    /// The source as written, nil for the server's default however it is written.
    var writtenSource: String? { source == "@DEFAULT_SOURCE@" ? nil : source }

    /// The source's name on a server that describes itself as `server`.
    func source(on server: AudioServerInfo) -> String {
        writtenSource ?? server.defaultSource
    }
}

/// A person's devices that cannot be used, in one sentence.
struct DeviceRefusal: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
