import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One TCP connection to a Wyoming server, read and written in whole events.
///
/// Every operation has a deadline: a server that does not accept, read or answer in time
/// fails the operation with `WyomingServerError`, naming the server. The blocking socket calls run
/// on a dispatch queue of the connection's own, never on the tasks' threads.
final class WyomingConnection: @unchecked Sendable {
    // @unchecked: `buffer` is read and written only on `queue`, one operation at a time; the
    // descriptor is immutable, shut down from any thread (a thread-safe call) and closed once.
    let address: WyomingAddress
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private let queue: DispatchQueue
    private let closed = Mutex(false)

    private init(address: WyomingAddress, descriptor: Int32) {
        self.address = address
        self.descriptor = descriptor
        queue = DispatchQueue(label: "parley.wyoming.\(address.host):\(address.port)")
    }

    deinit { if !closed.withLock({ $0 }) { Glibc.close(descriptor) } }

    /// Connects to `address` within `timeout` seconds.
    static func open(_ address: WyomingAddress, timeout: Double) async throws -> WyomingConnection {
        let descriptor = try await offThread(DispatchQueue.global()) { try connect(address, timeout: timeout) }
        return WyomingConnection(address: address, descriptor: descriptor)
    }

    /// Writes `event`, within `timeout` seconds.
    func send(_ event: WyomingEvent, timeout: Double) async throws {
        try await offThread(queue) {
            try self.ensureOpen()
            try self.write(event.encoded(), deadline: Self.deadline(timeout))
        }
    }

    /// Reads the next event, waiting at most `timeout` seconds for it.
    func receive(timeout: Double) async throws -> WyomingEvent {
        try await offThread(queue) {
            try self.ensureOpen()
            return try self.readEvent(deadline: Self.deadline(timeout))
        }
    }

    /// Throws once `close` was called: the descriptor may be closed by now, and its number
    /// another file's. Runs on `queue`, where the descriptor is closed, so a block that passes
    /// it runs before the close.
    private func ensureOpen() throws {
        if closed.withLock({ $0 }) { throw failure("the connection was closed") }
    }

    /// Closes the connection; any operation under way fails at once.
    func close() {
        guard !closed.withLock({ was in defer { was = true }; return was }) else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
        let descriptor = self.descriptor
        queue.async { Glibc.close(descriptor) }
    }

    // MARK: Blocking parts, on `queue`

    /// When an operation must be done by, and the bound it was given.
    private struct Deadline {
        var at: Double
        var seconds: Double
    }

    private static func deadline(_ timeout: Double) -> Deadline { Deadline(at: now() + timeout, seconds: timeout) }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func failure(_ what: String) -> WyomingServerError { WyomingServerError(address: address, problem: what) }

    /// Waits until the socket is ready for `events` or the deadline passes.
    private func wait(for events: Int16, deadline: Deadline, doing what: String) throws {
        while true {
            let left = deadline.at - Self.now()
            guard left > 0 else { throw failure("it did not \(what) within \(formatted(deadline.seconds)) s") }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left, 3600) * 1000) + 1)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw failure("the connection failed (\(String(cString: strerror(errno))))") }
        }
    }

    private func write(_ bytes: [UInt8], deadline: Deadline) throws {
        var sent = 0
        while sent < bytes.count {
            try wait(for: Int16(POLLOUT), deadline: deadline, doing: "take Parley's audio")
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw failure("the connection was lost while Parley wrote to it (\(String(cString: strerror(errno))))")
            }
            sent += count
        }
    }

    /// Reads at least one more byte into `buffer`.
    private func fill(deadline: Deadline, doing what: String) throws {
        try wait(for: Int16(POLLIN), deadline: deadline, doing: what)
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            throw failure("the connection was lost (\(String(cString: strerror(errno))))")
        }
        guard count > 0 else { throw failure("it closed the connection") }
        buffer += chunk[..<count]
    }

    private func readEvent(deadline: Deadline) throws -> WyomingEvent {
        var newline = buffer.firstIndex(of: UInt8(ascii: "\n"))
        while newline == nil {
            guard buffer.count <= WyomingHeader.largestData else {
                throw failure("it sent a line of more than \(WyomingHeader.largestData) bytes, not a Wyoming event")
            }
            try fill(deadline: deadline, doing: "answer")
            newline = buffer.firstIndex(of: UInt8(ascii: "\n"))
        }
        let line = Array(buffer[..<newline!])
        buffer.removeFirst(newline! + 1)
        let header: WyomingHeader
        do { header = try WyomingHeader(line: line) } catch { throw failure("it does not speak Wyoming: \(error)") }
        while buffer.count < header.dataLength + header.payloadLength {
            try fill(deadline: deadline, doing: "send the rest of its \(header.type) event")
        }
        let data = Array(buffer[..<header.dataLength])
        let payload = Array(buffer[header.dataLength..<(header.dataLength + header.payloadLength)])
        buffer.removeFirst(header.dataLength + header.payloadLength)
        do { return try header.event(data: data, payload: payload) } catch { throw failure("it does not speak Wyoming: \(error)") }
    }

    /// A connected, non-blocking socket to `address`.
    private static func connect(_ address: WyomingAddress, timeout: Double) throws -> Int32 {
        let deadline = deadline(timeout)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(address.host, String(address.port), &hints, &found)
        guard status == 0, let first = found else {
            throw WyomingServerError(address: address, problem: "its host cannot be found (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(first) }
        var problem = "it cannot be reached"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry?.pointee {
            entry = info.ai_next
            let descriptor = socket(info.ai_family, info.ai_socktype | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                                    info.ai_protocol)
            guard descriptor >= 0 else { continue }
            if Glibc.connect(descriptor, info.ai_addr, info.ai_addrlen) == 0 { return descriptor }
            guard errno == EINPROGRESS else {
                problem = errno == ECONNREFUSED ? "it refused the connection (is the server running?)"
                    : "it cannot be reached (\(String(cString: strerror(errno))))"
                Glibc.close(descriptor)
                continue
            }
            var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let left = max(0, deadline.at - now())
            if poll(&ready, 1, Int32(left * 1000)) == 1 {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 {
                    var on: Int32 = 1
                    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                    return descriptor
                }
                problem = error == ECONNREFUSED ? "it refused the connection (is the server running?)"
                    : "it cannot be reached (\(String(cString: strerror(error))))"
            } else {
                problem = "it did not accept the connection within \(formatted(timeout)) s"
            }
            Glibc.close(descriptor)
        }
        throw WyomingServerError(address: address, problem: problem)
    }
}

/// Runs `body` on `queue` and returns what it returns.
private func offThread<T: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        queue.async { continuation.resume(with: Result { try body() }) }
    }
}

func formatted(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(format: "%.1f", seconds)
}

/// A Wyoming server that failed Parley: refused, silent past a bound, gone, or not speaking Wyoming.
public struct WyomingServerError: Error, Sendable, CustomStringConvertible {
    public var address: WyomingAddress
    public var problem: String
    public var description: String { "the Wyoming server \(address) failed: \(problem)" }
}
