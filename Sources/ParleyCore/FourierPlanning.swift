import Synchronization

/// FFTW's planner is not thread-safe: every module that makes an FFTW plan makes it inside
/// `FourierPlanning.serialized`, so two plans are never made at once.
public enum FourierPlanning {
    private static let lock = Mutex(())

    /// Runs `make` (which calls FFTW's planner) while no other plan is being made.
    public static func serialized<T>(_ make: () -> T) -> T {
        lock.withLock { _ in make() }
    }
}
