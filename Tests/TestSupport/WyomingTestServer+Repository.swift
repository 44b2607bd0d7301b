import ProcessHarness

extension WyomingTestServer {
    /// Starts a server with the repository's `scripts/wyoming-server.sh`.
    public convenience init(voice: Bool = false, threads: Int = 1, seconds: Double = 120) throws {
        try self.init(script: Fixtures.repository.appendingPathComponent("scripts/wyoming-server.sh").path,
                      voice: voice, threads: threads, seconds: seconds)
    }
}
