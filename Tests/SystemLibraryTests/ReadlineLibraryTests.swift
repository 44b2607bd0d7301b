@preconcurrency import CReadline
import Testing

/// GNU Readline reached through its C module.
@Suite struct ReadlineLibraryTests {
    @Test func reportsItsVersion() throws {
        let version = String(cString: try #require(rl_library_version))
        #expect(version.split(separator: ".").count >= 2)
        #expect(rl_readline_version >= 0x0800, "Parley needs readline 8 for its callback interface")
    }
}
