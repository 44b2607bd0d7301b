public import Foundation

/// Frames of a `u32` little-endian length followed by that many bytes: how a framed
/// child answers (see `FramedChild`).
public enum LengthFrames {
    /// `body` with its length in front.
    public static func frame(_ body: Data) -> Data {
        var data = Data(capacity: 4 + body.count)
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { data.append(contentsOf: $0) }
        data.append(body)
        return data
    }

    /// Takes the first whole frame's body off the front of `buffer`: nil while the frame is
    /// incomplete. Throws the announced length when it passes `limit`.
    static func take(from buffer: inout [UInt8], limit: Int) throws(Oversized) -> Data? {
        guard buffer.count >= 4 else { return nil }
        let length = buffer.prefix(4).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        guard length <= limit else { throw Oversized(length: length) }
        guard buffer.count >= 4 + length else { return nil }
        defer { buffer.removeFirst(4 + length) }
        return Data(buffer[4..<(4 + length)])
    }

    /// A frame announced as longer than the limit: the stream is out of step.
    struct Oversized: Error {
        var length: Int
    }
}
