import Foundation

/// An audio server address written one way for every way of writing it, so that two
/// spellings of one server compare equal.
///
/// libpulse reads `unix:/run/pulse/native` and `/run/pulse/native` as one socket, and
/// `tcp:HOST:PORT`, `tcp4:HOST:PORT`, `tcp6:HOST:PORT` and `HOST:PORT` as one host and port,
/// 4713 when none is given. Left out, the server is `$PULSE_SERVER`, or else the session's
/// socket, `$XDG_RUNTIME_DIR/pulse/native`.
///
/// ```swift
/// ServerAddress("tcp4:localhost", environment: [:]) == ServerAddress("127.0.0.1:4713", environment: [:])  // true
/// ```
public struct ServerAddress: Hashable, Sendable, CustomStringConvertible {
    /// `unix:PATH` or `tcp:HOST:PORT` (IPv6 hosts in brackets), or `default` when neither the
    /// address nor the environment says where the server is; space-separated when the address
    /// lists several servers to try.
    public let canonical: String

    /// PulseAudio's TCP port when an address gives none (`PA_NATIVE_DEFAULT_PORT`).
    public static let defaultPort = 4713

    /// `address` (nil or empty: the default server, as the environment names it) in its one form.
    public init(_ address: String?, environment: [String: String]? = nil) {
        let environment = environment ?? ProcessInfo.processInfo.environment
        var written = address.flatMap { $0.isEmpty ? nil : $0 } ?? environment["PULSE_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
        if written == nil, let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            written = "unix:\(runtime)/pulse/native"
        }
        guard let written else {
            canonical = "default"
            return
        }
        canonical = written.split(whereSeparator: \.isWhitespace).map { Self.canonical(String($0)) }.joined(separator: " ")
    }

    public var description: String { canonical }

    /// One server of an address list in its one form.
    private static func canonical(_ address: String) -> String {
        var rest = Substring(address)
        // `{MACHINE-ID}ADDRESS`: the address, used only on that machine.
        if rest.hasPrefix("{"), let close = rest.firstIndex(of: "}") { rest = rest[rest.index(after: close)...] }
        if rest.hasPrefix("unix:") { rest = rest.dropFirst(5) }
        if rest.hasPrefix("/") { return "unix:" + (String(rest) as NSString).standardizingPath }
        for prefix in ["tcp4:", "tcp6:", "tcp:"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        let (host, port) = hostAndPort(rest)
        return "tcp:\(host):\(port)"
    }

    /// The host, lower-cased with the loopback's names made one, and the port of `HOST[:PORT]`
    /// or `[IPV6][:PORT]`.
    private static func hostAndPort(_ text: Substring) -> (String, Int) {
        var host = text
        var port = defaultPort
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":"), let given = Int(after.dropFirst()) { port = given }
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon, let given = Int(text[text.index(after: colon)...]) {
            host = text[..<colon]
            port = given
        }
        let name = host.lowercased()
        let loopback = ["localhost", "localhost.localdomain", "127.0.0.1", "::1", "0:0:0:0:0:0:0:1"]
        return (loopback.contains(name) ? "127.0.0.1" : name.contains(":") ? "[\(name)]" : name, port)
    }
}
