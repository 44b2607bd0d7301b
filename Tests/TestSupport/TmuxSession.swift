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

    /// Starts the tmux server: its client is spawned with /dev/null for its standard streams
    /// and no other descriptor of the test runner's (the server outlives the call, and would
    /// hold open any pipe it inherited until it exits), and waited for, at most 30 s.
    private func launch(_ arguments: [String]) throws {
        let client = try ProcessRunner.start(["tmux", "-L", socket] + arguments)
        guard ProcessRunner.waitForExit(client, seconds: 30) else {
            throw ProcessRunner.Failure(message: "tmux did not start its server within 30 s")
        }
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
