import Foundation
import Testing
import TestSupport

/// `:dict` and `:glossary` run inside the conversation's own process, as command values:
/// they work even when the binary the conversation started from is gone.
@Suite("In-process REPL commands")
struct InProcessCommandTests {
    @Test(":dict and :glossary still work after the conversation's binary was deleted: nothing re-runs it")
    func commandsOutliveTheBinary() throws {
        let directory = try Fixtures.temporaryDirectory("parley-inprocess")
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = directory.appendingPathComponent("parley").path
        try FileManager.default.copyItem(atPath: ProcessRunner.parleyBinary, toPath: binary)
        var environment = try TestAudioServer.environment()
        environment.merge(["NO_COLOR": "1", "PARLEY_DATA_DIR": Fixtures.dataDirectory, "XDG_STATE_HOME": directory.path,
                           "XDG_DATA_HOME": directory.path]) { _, new in new }
        let dictionaries = directory.appendingPathComponent("dict").path
        let child = try ChildProcess([binary, "dialog", "en-US", "es-ES", "--typed-only", "--mute", "--no-history",
                                      "--no-transcript", "--dictionaries", dictionaries], environment: environment)
        #expect(child.waitFor(seconds: 60) { stdout, _ in stdout.contains("your turn") }, "\(child.stdout)\n\(child.stderr)")
        try FileManager.default.removeItem(atPath: binary)
        child.send(":dict add en zorblax ˈzɔːblæks")
        child.send(":dict lookup en zorblax")
        child.send(":glossary add en es zorblax zorbláx")
        child.send(":glossary list en es")
        child.closeInput()
        #expect(child.wait(seconds: 60) == 0, "\(child.stderr)")
        let lines = child.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("zorblax\t") && $0.contains("ˈzɔːblæks") }, "\(lines)")
        #expect(lines.contains { $0.contains("zorblax") && $0.contains("zorbláx") && !$0.hasPrefix(":") }, "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("error:") }, "\(lines)")
        let saved = try String(contentsOfFile: "\(dictionaries)/en.dict", encoding: .utf8)
        #expect(saved.contains("zorblax"), "the entry was saved where --dictionaries says")
    }
}
