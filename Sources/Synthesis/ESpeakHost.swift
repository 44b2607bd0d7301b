import ParleyCore

/// The one eSpeak NG of this process: an actor on its own thread that owns the engine.
///
/// espeak's state is global, so there is exactly one host per process, shared by
/// every synthesizer, the phoneme transcriber and the inventory probe. All its code
/// runs on one dedicated thread (a synthesis blocks for as long as it takes, so not
/// on Swift's cooperative pool), one job at a time in the order the jobs arrive; the
/// engine is created by the first job and never leaves the actor.
actor ESpeakHost {
    /// The process's host.
    static let shared = ESpeakHost()

    private let executor = DedicatedThreadExecutor(name: "parley.espeak")
    private var engine: Result<ESpeakEngine, any Error>?

    private init() {}

    /// Every job of the host runs on its dedicated thread.
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `body` with the engine on the engine thread and returns its result.
    func run<T: Sendable>(_ body: @Sendable (ESpeakEngine) throws -> T) throws -> T {
        try body(startedEngine())
    }

    /// Queues `body` without waiting, behind every job queued before it; an error starting
    /// the engine is passed to it.
    nonisolated func submit(_ body: @escaping @Sendable (Result<ESpeakEngine, any Error>) -> Void) {
        // Runs up to the hop onto the host at once, so the job is queued before this returns.
        Task.immediate { await self.perform(body) }
    }

    private func perform(_ body: @Sendable (Result<ESpeakEngine, any Error>) -> Void) {
        body(Result { try startedEngine() })
    }

    private func startedEngine() throws -> ESpeakEngine {
        if engine == nil { engine = Result { try ESpeakEngine() } }
        return try engine!.get()
    }
}
