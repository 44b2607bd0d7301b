import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on 127.0.0.1 that serves nothing real: for the tests of a client facing a
/// server that accepts and never answers, or answers with bytes that are not its protocol.
public final class ScriptedSocketServer: Sendable {
    public enum Behaviour: Sendable {
        /// Accepts connections and reads them, and never writes a byte.
        case silent
        /// Writes `reply` as soon as it has read anything, and closes the connection.
        case replying(String)
    }

    public let port: Int
    private let listener: Int32
    private let behaviour: Behaviour
    private let connections = Mutex<[Int32]>([])

    public init(_ behaviour: Behaviour) throws {
        self.behaviour = behaviour
        let (listener, port) = try LoopbackSocket.bound(listening: 8)
        self.listener = listener
        self.port = port
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Stops listening and drops every connection.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in connections.withLock({ $0 }) { shutdown(connection, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                close(listener)
                return
            }
            connections.withLock { $0.append(connection) }
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while recv(connection, &buffer, buffer.count, 0) > 0 {
            guard case let .replying(reply) = behaviour else { continue }
            _ = Array(reply.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            break
        }
        close(connection)
    }
}
