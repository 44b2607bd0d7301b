import Foundation

/// One Wyoming event: a type, a JSON object of data and a binary payload (audio).
///
/// On the wire it is one JSON header line (`type`, `version`, and `data_length` /
/// `payload_length` when there is data or a payload), then `data_length` bytes of JSON, then
/// `payload_length` bytes of payload. A reader also takes data written inline in the header
/// (`"data": {…}`), merged under the data that follows it.
struct WyomingEvent: Sendable, Equatable {
    var type: String
    /// The event's data, a JSON object (`{}` when it has none).
    var data: Data
    var payload: [UInt8]

    /// The protocol version written in headers.
    static let version = "1.10.2"

    init(type: String, data: Data = Data("{}".utf8), payload: [UInt8] = []) {
        self.type = type
        self.data = data
        self.payload = payload
    }

    /// An event whose data is `fields`, encoded as JSON.
    init(type: String, fields: [String: any Sendable], payload: [UInt8] = []) {
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8)
        self.init(type: type, data: data, payload: payload)
    }

    /// The bytes to send.
    func encoded() -> [UInt8] {
        var header: [String: Any] = ["type": type, "version": Self.version]
        let hasData = data.count > 2
        if hasData { header["data_length"] = data.count }
        if !payload.isEmpty { header["payload_length"] = payload.count }
        var bytes = [UInt8]((try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])) ?? Data())
        bytes.append(UInt8(ascii: "\n"))
        if hasData { bytes += data }
        bytes += payload
        return bytes
    }

    /// The data decoded as `T`; throws `WyomingProtocolError` naming the event when it does not fit.
    func decode<T: Decodable>(_: T.Type) throws(WyomingProtocolError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw WyomingProtocolError("its \(type) event's data cannot be read (\(error))")
        }
    }
}

/// What the header line of an event says.
struct WyomingHeader {
    var type: String
    var inlineData: [String: Any]
    var dataLength: Int
    var payloadLength: Int

    /// The largest data and payload Parley takes from a server.
    static let largestData = 1 << 20
    static let largestPayload = 16 << 20

    /// Parses one header line; throws when it is not a Wyoming header.
    init(line: [UInt8]) throws(WyomingProtocolError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)), let header = object as? [String: Any] else {
            throw WyomingProtocolError("it sent a line that is not a JSON event header ('\(Self.excerpt(line))')")
        }
        guard let type = header["type"] as? String, !type.isEmpty else {
            throw WyomingProtocolError("it sent an event header without a type ('\(Self.excerpt(line))')")
        }
        self.type = type
        inlineData = header["data"] as? [String: Any] ?? [:]
        dataLength = (header["data_length"] as? NSNumber)?.intValue ?? 0
        payloadLength = (header["payload_length"] as? NSNumber)?.intValue ?? 0
        guard (0...Self.largestData).contains(dataLength), (0...Self.largestPayload).contains(payloadLength) else {
            throw WyomingProtocolError("its \(type) event announces \(dataLength) bytes of data and \(payloadLength) of payload, more than Parley takes")
        }
    }

    /// The event, with `data` (the bytes after the header) merged over the inline data.
    func event(data: [UInt8], payload: [UInt8]) throws(WyomingProtocolError) -> WyomingEvent {
        var fields = inlineData
        if !data.isEmpty {
            guard let object = try? JSONSerialization.jsonObject(with: Data(data)), let more = object as? [String: Any] else {
                throw WyomingProtocolError("its \(type) event's data is not a JSON object")
            }
            fields.merge(more) { _, new in new }
        }
        let merged = (try? JSONSerialization.data(withJSONObject: fields)) ?? Data("{}".utf8)
        return WyomingEvent(type: type, data: merged, payload: payload)
    }

    /// The start of `line`, for a message.
    static func excerpt(_ line: [UInt8]) -> String {
        let text = String(decoding: line.prefix(40), as: UTF8.self)
        return line.count > 40 ? text + "…" : text
    }
}

/// A server that does not speak Wyoming as Parley expects it.
struct WyomingProtocolError: Error, Sendable, CustomStringConvertible {
    var problem: String
    init(_ problem: String) { self.problem = problem }
    var description: String { problem }
}
