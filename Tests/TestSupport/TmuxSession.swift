import Foundation

/// A program running in a private tmux server: a real pseudo-terminal whose
/// screen the test reads back.
public final class TmuxSession {
    private let socket = "parley-test-\(UUID().uuidString.prefix(8))"
    private let configuration: URL

    /// Starts `command` (program and arguments, no shell) in a 100×24 terminal.
    public init(_ command: [String], environment: [String: String] = [:]) throws {
        configuration = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf")
        try "set -g remain-on-exit on\n".write(to: configuration, atomically: true, encoding: .utf8)
        let variables = environment.merging(["NO_COLOR": "1"]) { old, _ in old }.map { "\($0.key)=\($0.value)" }
        // The shell traps SIGINT so that a Ctrl-C, which reaches the whole foreground process
        // group, does not end it; a trap (unlike an ignored signal) is not inherited by the program.
        let wrapper = ["sh", "-c", "trap : INT; \"$@\"; echo \"\(Self.exitMarker)$?]\"", "sh"]
        try launch(["-f", configuration.path, "new-session", "-d", "-s", "main", "-x", "100", "-y", "24",
                    "env"] + variables + wrapper + command)
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: configuration)
    }

    /// The visible screen, one string per row, trailing blank rows removed.
    public func screen() throws -> [String] {
        let rows = try tmux(["capture-pane", "-p", "-t", "main"]).split(separator: "\n", omittingEmptySubsequences: false)
        return Array(rows.map(String.init).reversed().drop { $0.isEmpty }.reversed())
    }

    /// Types `text` literally.
    public func type(_ text: String) throws { try tmux(["send-keys", "-t", "main", "-l", text]) }

    /// Presses keys by tmux name: `Enter`, `C-c`, `C-d`, `Up`, `Tab`.
    public func press(_ keys: String...) throws { try tmux(["send-keys", "-t", "main"] + keys) }

    /// The program's exit status once it has exited, else nil. A small shell
    /// around the program prints it (tmux reaps its panes lazily, so its own
    /// record of the status can come late).
    public func exitStatus() throws -> Int32? {
        guard let row = try screen().last(where: { $0.hasPrefix(Self.exitMarker) }) else { return nil }
        return Int32(row.dropFirst(Self.exitMarker.count).prefix { $0 != "]" })
    }

    /// The process id of the program: the child of the small shell that runs it.
    public func programIdentifier() throws -> Int32 {
        let shell = try tmux(["display-message", "-p", "-t", "main", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        guard let first = children.split(separator: " ").first, let pid = Int32(first) else {
            throw ProcessRunner.Failure(message: "the program in the terminal has exited")
        }
        return pid
    }

    private static let exitMarker = "[exited with status "

    /// Waits until `condition` holds for the screen; fails after 20 seconds (a hang guard).
    @discardableResult
    public func waitFor(_ what: String, _ condition: ([String]) -> Bool) throws -> [String] {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let rows = try screen()
            if condition(rows) { return rows }
            guard Date() < deadline else {
                throw ProcessRunner.Failure(message: "never saw \(what); screen:\n\(rows.joined(separator: "\n"))")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Waits until the last row (the prompt line) is exactly `row`.
    @discardableResult
    public func waitForPromptLine(_ row: String) throws -> [String] {
        try waitFor("the prompt line '\(row)'") { $0.last == row }
    }

    /// Starts the tmux server with posix_spawn, closing every descriptor but the
    /// standard ones (pointed at /dev/null): the server outlives the call, and
    /// any pipe it inherited (Foundation's Process watches one per child) would
    /// stay open until it exits. The signal mask of the test's thread is not
    /// inherited either: tmux and the program under test need their signals.
    private func launch(_ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = (["tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let envp = ProcessRunner.childEnvironment().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, "tmux", &actions, &attributes, argv, envp) == 0 else {
            throw ProcessRunner.Failure(message: "tmux could not be started")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        try tmux(["has-session", "-t", "main"])
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let output = try ProcessRunner.run(["tmux", "-L", socket] + arguments)
        guard output.status == 0 else {
            throw ProcessRunner.Failure(message: "tmux \(arguments.first ?? "") failed: \(output.stderr)")
        }
        return output.stdout
    }
}
