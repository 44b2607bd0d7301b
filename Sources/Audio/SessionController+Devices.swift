/// Listing the server's sinks and sources over the session's context.
extension SessionController {
    /// Every sink and source, defaults marked.
    func devices() async throws -> [AudioDevice] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[AudioDevice], any Error>) in
            mainloop.withLock {
                guard phase == .ready, let context else {
                    let error: AudioSessionError = phase == .lost ? .serverLost : .notOpen
                    return continuation.resume(throwing: error)
                }
                DeviceQuery(continuation).start(on: context)
            }
        }
    }
}
