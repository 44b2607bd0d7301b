import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP server on 127.0.0.1, on a port the kernel chose, that hands each connection to
/// `serve` on a thread of its own; the connection is closed when `serve` returns.
public final class LoopbackServer: Sendable {
    public let port: Int
    private let listener: Int32
    private let open = Mutex<[Int32]>([])
    private let serve: @Sendable (Int32) -> Void

    public init(serve: @escaping @Sendable (_ connection: Int32) -> Void) throws {
        self.serve = serve
        (listener, port) = try LoopbackSocket.bound(listening: 8)
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Stops listening and drops every open connection. Descriptors are closed by the threads
    /// that use them, never here: a number closed here could be another test's socket by the
    /// time that thread touches it.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        open.withLock { for descriptor in $0 { shutdown(descriptor, Int32(SHUT_RDWR)) } }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                close(listener)
                return
            }
            open.withLock { $0.append(connection) }
            Thread { [self] in
                serve(connection)
                open.withLock { descriptors in
                    descriptors.removeAll { $0 == connection }
                    close(connection)
                }
            }.start()
        }
    }
}

/// A TCP server on 127.0.0.1 that serves nothing real: for the tests of a client facing a
/// server that accepts and never answers, or answers with bytes that are not its protocol.
public final class ScriptedSocketServer: Sendable {
    public enum Behaviour: Sendable {
        /// Accepts connections and reads them, and never writes a byte.
        case silent
        /// Writes `reply` as soon as it has read anything, and closes the connection.
        case replying(String)
    }

    private let server: LoopbackServer
    public var port: Int { server.port }

    public init(_ behaviour: Behaviour) throws {
        server = try LoopbackServer { connection in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while recv(connection, &buffer, buffer.count, 0) > 0 {
                guard case let .replying(reply) = behaviour else { continue }
                _ = Array(reply.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                return
            }
        }
    }

    /// Stops listening and drops every connection.
    public func stop() { server.stop() }
}
