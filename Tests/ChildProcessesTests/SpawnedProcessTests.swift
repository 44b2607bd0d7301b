import ChildProcesses
import Foundation
import Testing

/// `SpawnedProcess`: its standard streams, its signals, how it ends (`Teardown`).
@Suite struct SpawnedProcessTests {
    /// The first line `process` prints, read from its output pipe (blocking).
    static func firstLine(of process: SpawnedProcess) -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(process.output, &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }

    /// A shell running `script` that prints `ready` once its traps are set, then waits for ever.
    static func waiting(_ script: String) throws -> SpawnedProcess {
        let process = try SpawnedProcess(["/bin/sh", "-c", "\(script); echo ready; while :; do sleep 0.05; done"],
                                          name: "the shell", standardInput: .discarded, standardError: .discarded)
        #expect(firstLine(of: process) == "ready")
        return process
    }

    @Test("/dev/null and a descriptor of the caller's as standard streams: no parent end is made")
    func streams() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parley-spawned-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        let process = try SpawnedProcess(["/bin/sh", "-c", "cat; echo \"read $(wc -c) more\"; echo lost >&2"], name: "the shell",
                                         standardInput: .discarded, standardOutput: .descriptor(descriptor),
                                         standardError: .discarded)
        close(descriptor)
        #expect(process.input == -1 && process.output == -1 && process.errors == -1)
        #expect(process.tearDown(.closingInput(grace: 30)) == .exited(0))
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "read 0 more\n")
    }

    @Test("the child has every signal's default disposition and none blocked, whatever Parley ignores")
    func signalDispositions() throws {
        // SpawnedProcess has Parley ignore SIGPIPE: the child must not inherit that. `posix_spawn`
        // returns once the child runs `sleep`, which changes no disposition of its own.
        let process = try SpawnedProcess(["sleep", "30"], name: "sleep")
        defer { process.tearDown(.kill) }
        let status = try String(contentsOfFile: "/proc/\(process.pid)/status", encoding: .utf8).split(separator: "\n")
        for field in ["SigIgn:", "SigBlk:"] {
            let mask = status.first { $0.hasPrefix(field) }.flatMap { UInt64($0.dropFirst(field.count).trimmingCharacters(in: .whitespaces), radix: 16) }
            // Signals 1 to 31; glibc keeps the real-time ones it uses itself (32, 33) for its own.
            #expect(mask.map { $0 & 0x7fff_ffff } == 0, "\(field) \(mask.map { String($0, radix: 16) } ?? "missing")")
        }
    }

    @Test("terminate then kill: a child that cleans up on SIGTERM exits with its own status; one that ignores it is killed")
    func terminateThenKill() throws {
        let polite = try Self.waiting("trap 'exit 3' TERM")
        #expect(polite.tearDown(.terminate(grace: 30)) == .exited(3))
        let deaf = try Self.waiting("trap '' TERM")
        #expect(deaf.tearDown(.terminate(grace: 0.3)) == .signalled(SIGKILL))
        #expect(!deaf.isRunning && deaf.termination?.status == 128 + SIGKILL)
    }

    @Test("a signal to the child alone leaves what it started; one to the group ends them all")
    func childOrGroup() async throws {
        let alone = try SpawnedProcess(["/bin/sh", "-c", "sleep 1000 & echo $!; wait"], name: "the shell")
        let leftRunning = try #require(Int32(Self.firstLine(of: alone)))
        #expect(alone.send(SIGKILL))
        alone.waitForExit()
        #expect(alone.termination == .signalled(SIGKILL))
        #expect(!alone.send(SIGTERM), "a reaped child is never signalled")
        #expect(Children.isRunning(leftRunning))
        kill(leftRunning, SIGKILL)

        let group = try SpawnedProcess(["/bin/sh", "-c", "sleep 1000 & echo $!; wait"], name: "the shell")
        let member = try #require(Int32(Self.firstLine(of: group)))
        #expect(group.send(SIGKILL, toGroup: true))
        #expect(group.tearDown(.kill) == .signalled(SIGKILL))
        #expect(try await Children.eventually { !Children.isRunning(member) }, "the group's sleep outlived SIGKILL")
    }

    @Test("a teardown of a child that ended already sends nothing and gives how it ended, every time")
    func teardownOfAnEndedChild() throws {
        let process = try SpawnedProcess(["/bin/sh", "-c", "exit 5"], name: "the shell")
        process.waitForExit()
        #expect(process.tearDown(.kill) == .exited(5))
        #expect(process.tearDown(.terminate(grace: 1)) == .exited(5))
        let cat = try SpawnedProcess(["cat"], name: "cat")
        #expect(cat.isRunning)
        #expect(cat.tearDown(.closingInput(grace: 30)) == .exited(0))
    }
}
