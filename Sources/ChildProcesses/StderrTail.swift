/// The last bytes a child wrote on stderr, bounded: a child that writes without end
/// never grows Parley's memory.
public struct StderrTail: Sendable, Equatable {
    /// The most bytes kept; older ones are dropped first.
    public let limit: Int
    /// The bytes kept, oldest first.
    public private(set) var bytes: [UInt8] = []

    /// An empty tail that keeps at most `limit` bytes.
    public init(limit: Int) {
        self.limit = limit
    }

    /// Appends `chunk`, dropping the oldest bytes past `limit`.
    public mutating func append(_ chunk: some Collection<UInt8>) {
        bytes.append(contentsOf: chunk.suffix(limit))
        if bytes.count > limit { bytes.removeFirst(bytes.count - limit) }
    }

    /// The tail as text (invalid UTF-8 replaced).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The last line that is not blank, without surrounding white space; empty when there is none.
    public var lastLine: String {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhiteSpace() }
        return lines.last { !$0.isEmpty } ?? ""
    }

    /// The tail's text, emptying the tail.
    public mutating func take() -> String {
        defer { bytes = [] }
        return text
    }
}

extension Substring {
    /// The substring without white space at either end.
    func trimmingWhiteSpace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
