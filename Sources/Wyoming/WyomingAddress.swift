/// Where a Wyoming server listens: `wyoming:tcp://HOST:PORT` (IPv6 hosts in brackets).
/// Parley only connects to the servers it is given; it listens on no port.
public struct WyomingAddress: Sendable, Hashable, CustomStringConvertible {
    public let host: String
    public let port: Int

    /// The prefix every Wyoming engine name starts with.
    public static let scheme = "wyoming:"

    /// Parses `text`; throws one sentence saying what a valid address looks like.
    public init(_ text: String) throws(WyomingAddressError) {
        guard text.hasPrefix(Self.scheme) else { throw WyomingAddressError(text: text, problem: "it does not start with wyoming:") }
        var rest = Substring(text.dropFirst(Self.scheme.count))
        guard rest.hasPrefix("tcp://") else {
            throw WyomingAddressError(text: text, problem: "only tcp:// servers are supported")
        }
        rest = rest.dropFirst("tcp://".count)
        if let slash = rest.firstIndex(of: "/") {
            guard rest[slash...].allSatisfy({ $0 == "/" }) else {
                throw WyomingAddressError(text: text, problem: "it has a path after the port")
            }
            rest = rest[..<slash]
        }
        let host: Substring
        let portText: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else {
                throw WyomingAddressError(text: text, problem: "an IPv6 host is written [ADDRESS]:PORT")
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            portText = rest[rest.index(close, offsetBy: 2)...]
        } else {
            guard let colon = rest.lastIndex(of: ":") else { throw WyomingAddressError(text: text, problem: "it has no port") }
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        }
        guard !host.isEmpty else { throw WyomingAddressError(text: text, problem: "it has no host") }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw WyomingAddressError(text: text, problem: "its port is not a number from 1 to 65535")
        }
        self.host = String(host)
        self.port = port
    }

    /// Whether `text` names a Wyoming server (it may still be malformed).
    public static func isWyoming(_ text: String) -> Bool { text.hasPrefix(scheme) }

    public var description: String {
        host.contains(":") ? "wyoming:tcp://[\(host)]:\(port)" : "wyoming:tcp://\(host):\(port)"
    }
}

/// A malformed Wyoming address.
public struct WyomingAddressError: Error, Sendable, CustomStringConvertible {
    public var text: String
    public var problem: String
    public var description: String {
        "'\(text)' is not a Wyoming server address: \(problem); write wyoming:tcp://HOST:PORT, e.g. wyoming:tcp://127.0.0.1:10300"
    }
}
