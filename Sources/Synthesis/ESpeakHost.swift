import Foundation

/// The one eSpeak NG of this process: its dedicated thread and its engine.
///
/// espeak's state is global, so there is exactly one host per process, shared by
/// every synthesizer, the phoneme transcriber and the inventory probe. Jobs run
/// one at a time, in the order submitted; the engine is created by the first job.
final class ESpeakHost: @unchecked Sendable {
    /// The process's host.
    static let shared = ESpeakHost()

    private let thread = EngineThread(name: "parley.espeak")
    // Touched only on `thread`: created there by the first job.
    private var engine: Result<ESpeakEngine, any Error>?

    private init() {}

    /// Runs `body` with the engine on the engine thread, for a task that awaits the result.
    func run<T: Sendable>(_ body: @escaping @Sendable (ESpeakEngine) throws -> T) async throws -> T {
        try await thread.perform { try body(self.engineOnThread()) }
    }

    /// Runs `body` with the engine on the engine thread, blocking the caller (start-up code only).
    func runAndWait<T: Sendable>(_ body: @escaping @Sendable (ESpeakEngine) throws -> T) throws -> T {
        try thread.performAndWait { try body(self.engineOnThread()) }
    }

    /// Queues `body` without waiting; errors starting the engine are passed to it.
    func submit(_ body: @escaping @Sendable (Result<ESpeakEngine, any Error>) -> Void) {
        thread.submit { body(Result { try self.engineOnThread() }) }
    }

    private func engineOnThread() throws -> ESpeakEngine {
        if engine == nil { engine = Result { try ESpeakEngine() } }
        return try engine!.get()
    }
}
