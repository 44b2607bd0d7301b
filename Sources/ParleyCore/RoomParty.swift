/// One party of a room (`parley room PARTY PARTY…`): a person with a language, and the
/// microphone, speaker and audio server they are reached on.
///
/// Written `LOCALE[,source=NAME][,sink=NAME][,server=ADDRESS][,cookie=PATH][,voice=VOICE][,recognizer=NAME]`, the address as
/// PulseAudio writes it (`tcp:host:port`, `tcp6:[::1]:4713`, `unix:/path`, or a host name) and
/// the cookie the file that server authenticates its clients with. What is left out is the
/// default server, its default devices and libpulse's own cookie.
public struct RoomParty: Sendable, Hashable, CustomStringConvertible {
    public var locale: LocaleTag
    public var source: String?
    public var sink: String?
    public var server: String?
    public var cookie: String?
    /// The voice this party hears translations in: a synthesizer's voice identifier, or a
    /// Wyoming server's voice (`wyoming:tcp://HOST:PORT#NAME`).
    public var voice: String?
    /// The recognizer that hears this party: whisper, pocketsphinx, or a Wyoming server
    /// (`wyoming:tcp://HOST:PORT`); nil for the conversation's.
    public var recognizer: String?

    public init(locale: LocaleTag, source: String? = nil, sink: String? = nil, server: String? = nil,
                cookie: String? = nil) {
        (self.locale, self.source, self.sink, self.server, self.cookie) = (locale, source, sink, server, cookie)
    }

    /// Reads one PARTY argument; the error says, in one sentence, what is wrong with it.
    public init(parsing text: String) throws(RoomPartyError) {
        var fields = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let head = fields.removeFirst().trimmingCharacters(in: .whitespaces)
        guard !head.isEmpty else { throw .init(text, "it starts with no locale (write it first, as in es-ES,sink=NAME)") }
        guard let locale = LocaleTag(head) else { throw .init(text, "'\(head)' is not a locale (es-ES, fr, pt-BR…)") }
        self.init(locale: locale)
        var seen: Set<String> = []
        for field in fields {
            guard let equals = field.firstIndex(of: "=") else {
                throw .init(text, "'\(field)' is not KEY=VALUE (keys: source, sink, server, cookie, voice, recognizer)")
            }
            let key = String(field[..<equals]).trimmingCharacters(in: .whitespaces)
            let value = String(field[field.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            guard Self.keys.contains(key) else { throw .init(text, "'\(key)' is not a key (keys: source, sink, server, cookie, voice, recognizer)") }
            guard seen.insert(key).inserted else { throw .init(text, "\(key) is given twice") }
            guard !value.isEmpty else { throw .init(text, "\(key) is empty") }
            switch key {
            case "source": source = value
            case "sink": sink = value
            case "cookie": cookie = value
            case "voice": voice = value
            case "recognizer": recognizer = value
            default:
                guard Self.isServerAddress(value) else {
                    throw .init(text, "'\(value)' is not a server address (tcp:HOST:PORT, unix:/PATH or a host name)")
                }
                server = value
            }
        }
    }

    static let keys: Set<String> = ["source", "sink", "server", "cookie", "voice", "recognizer"]

    /// Whether `address` is written as PulseAudio writes a server: `unix:` with an absolute
    /// path, `tcp:`/`tcp4:`/`tcp6:` with a host and an optional port, or a bare host name.
    public static func isServerAddress(_ address: String) -> Bool {
        if address.hasPrefix("unix:") { return address.dropFirst(5).hasPrefix("/") }
        var rest = Substring(address)
        for prefix in ["tcp4:", "tcp6:", "tcp:"] where rest.hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        guard !rest.isEmpty, !rest.contains(where: { $0.isWhitespace || $0 == "/" }) else { return false }
        if rest.hasPrefix("[") {
            // [IPv6]:port
            guard let close = rest.firstIndex(of: "]") else { return false }
            let after = rest[rest.index(after: close)...]
            return after.isEmpty || (after.hasPrefix(":") && Self.isPort(after.dropFirst()))
        }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return false }
        return parts.count == 1 || Self.isPort(parts[1])
    }

    private static func isPort(_ text: Substring) -> Bool {
        guard let port = Int(text) else { return false }
        return (1...65_535).contains(port)
    }

    public var description: String {
        var text = locale.description
        if let source { text += ",source=\(source)" }
        if let sink { text += ",sink=\(sink)" }
        if let server { text += ",server=\(server)" }
        if let cookie { text += ",cookie=\(cookie)" }
        if let voice { text += ",voice=\(voice)" }
        if let recognizer { text += ",recognizer=\(recognizer)" }
        return text
    }
}

/// A PARTY argument that cannot be read, with why.
public struct RoomPartyError: Error, Sendable, Equatable, CustomStringConvertible {
    public var argument: String
    public var reason: String

    init(_ argument: String, _ reason: String) {
        (self.argument, self.reason) = (argument, reason)
    }

    public var description: String { "party '\(argument)': \(reason)" }
}
