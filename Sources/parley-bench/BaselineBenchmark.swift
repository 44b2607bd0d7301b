import ArgumentParser
import Foundation
import ProcessHarness

/// `parley-bench baseline`: the turn latency of a dialogue and of a room with this build,
/// beside a build of another revision, measured side by side in one run.
///
/// The other revision's `parley` is built by `scripts/build-revision.sh` in a worktree of its
/// own. Each conversation runs in four processes of half the turns each, in the order this
/// build, the other, the other, this build, so that the shared machine's load weighs on both
/// alike. The dialogue is `parley dialog en-US es-ES --recognizer whisper` with its defaults
/// (the dialogue benchmark's turn); the room is the room benchmark's three parties.
struct BaselineBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Dialogue and room latency of this build beside another revision's, side by side in one run.")

    /// The last revision with a dialogue and a room of their own: one conversation model keeps
    /// both latencies within `bound` of it.
    static let defaultRevision = "4b0601a"
    /// How much slower than the other revision this build may be.
    static let bound = 0.05

    @Option(help: "The revision to compare with, built by scripts/build-revision.sh.")
    var revision = Self.defaultRevision

    @Option(help: "Measured utterances per build and conversation (even: two processes of half each).")
    var turns = 12

    /// The conversations compared.
    enum Conversation: String, ExpressibleByArgument, CaseIterable { case dialogue, room }

    @Option(parsing: .upToNextOption,
            help: "The conversations to compare: dialogue (needs the other build to have an echo canceller), room, or both.")
    var conversations: [Conversation] = Conversation.allCases

    func validate() throws {
        guard turns >= 2, turns % 2 == 0 else { throw ValidationError("--turns must be an even number of at least 2") }
    }

    /// One build's latencies: the dialogue's, and each room listener's by name.
    struct Measured {
        var dialogue: [Double] = []
        var room: [String: [Double]] = [:]
    }

    func run() async throws {
        guard ProcessInfo.processInfo.environment["PULSE_SERVER"] != nil else {
            throw ValidationError("run it with scripts/with-test-server.sh: it needs the private PulseAudio server")
        }
        let script = FileManager.default.currentDirectoryPath + "/scripts/build-revision.sh"
        guard FileManager.default.isExecutableFile(atPath: script) else {
            throw ValidationError("run it from the repository's folder (scripts/bench.sh baseline): it builds the other revision there")
        }
        progress("baseline", "building parley at \(revision) (scripts/build-revision.sh)")
        let built = try ProcessRunner.run([script, revision], timeout: 3_600)
        guard built.status == 0, let other = built.stdout.split(separator: "\n").last.map(String.init) else {
            throw BenchmarkFailure("parley at \(revision) could not be built: \(built.stderr.suffix(2_000))")
        }
        let otherName = try Self.describe(revision)
        let thisName = try Self.describe("HEAD") + (try Self.changedSources() ? " and the uncommitted changes" : "")

        var this = Measured(), before = Measured()
        let order: [String?] = [nil, other, other, nil]
        if conversations.contains(.dialogue) { try await measureDialogues(order, this: &this, before: &before) }
        if conversations.contains(.room) { try await measureRooms(order, this: &this, before: &before) }
        try report(this: this, before: before, thisName: thisName, otherName: otherName)
    }

    private func measureDialogues(_ order: [String?], this: inout Measured, before: inout Measured) async throws {
        let half = turns / 2
        let devices = try await Devices.make()
        do {
            let dialogue = try DialogueBenchmark.parse(["--turns", String(half)])
            for build in order {
                // This build's translation waits for the yield silence where a request listens on, a
                // behaviour the other build lacks: it is set to the endpoint here, to compare the rest.
                let run = try await dialogue.spokenTurns(half, ending: .endpoint, echoCancel: true, devices: devices,
                                                         recognizer: "whisper", parley: build,
                                                         options: build == nil ? Self.thisBuildOptions : [])
                if build == nil { this.dialogue += run.latencies.samples } else { before.dialogue += run.latencies.samples }
            }
        } catch {
            await devices.close()
            throw error
        }
        await devices.close()
    }

    /// The dialogue's options for this build: the yield silence at the endpoint (500 ms).
    static let thisBuildOptions = ["--yield-ms", "500"]

    private func measureRooms(_ order: [String?], this: inout Measured, before: inout Measured) async throws {
        for build in order {
            let room = try await RoomBenchmark.measure(turns: turns / 2, parley: build)
            for listener in room.listeners {
                if build == nil { this.room[listener.name, default: []] += listener.latencies } else {
                    before.room[listener.name, default: []] += listener.latencies
                }
            }
        }
    }

    private func report(this: Measured, before: Measured, thisName: String, otherName: String) throws {
        var options: [String] = []
        if revision != Self.defaultRevision { options += ["--revision", revision] }
        if turns != 12 { options += ["--turns", String(turns)] }
        if conversations != Conversation.allCases { options += ["--conversations"] + conversations.map(\.rawValue) }
        var report = BenchmarkReport(area: "baseline", title: "Baseline: a dialogue's and a room's latency beside an earlier build",
                                     command: "scripts/with-test-server.sh scripts/bench.sh baseline"
                                         + (options.isEmpty ? "" : " -- " + options.joined(separator: " ")))
        report.add("""
            This build (\(thisName)) beside `parley` built at \(otherName) by `scripts/build-revision.sh`, in one run. \
            Latency as in the dialogue and room benchmarks: the last sample of the LibriVox recording played into \
            the English microphone → the first audible sample of the translation on the listener's speaker. The \
            dialogue: `parley dialog en-US es-ES --recognizer whisper` with its defaults (the canceller on), listener \
            es-ES, this build with `\(Self.thisBuildOptions.joined(separator: " "))` (its translation waits for the \
            yield silence where a request listens on, which the other build does not: set to the endpoint, the two \
            compare the rest); the room: the room benchmark's three parties, listeners fr-FR and es-ES (measured here: \
            \(conversations.map(\.rawValue).joined(separator: " and "))). Each conversation ran in \
            four processes of \(turns / 2) utterances after one that warms up, this build, the other, the other, \
            this build: \(turns) per build. Bound: this build's median at most \(Int(Self.bound * 100)) % above \
            the other's.
            """)
        report.add("")
        var rows: [[String]] = []
        var samples: [String] = []
        let pairs = [("dialogue, listener es-ES", this.dialogue, before.dialogue)]
            + this.room.keys.sorted().map { ("room, listener \($0)", this.room[$0] ?? [], before.room[$0] ?? []) }
        for (name, mine, theirs) in pairs where !mine.isEmpty && !theirs.isEmpty {
            let (a, b) = (Timings(mine), Timings(theirs))
            let ratio = a.median / b.median
            rows.append([name, ms(a.median), ms(a.p90), ms(b.median), ms(b.p90), String(format: "%.2f×", ratio),
                         ratio <= 1 + Self.bound ? "yes" : "no"])
            samples.append("\(name): this build \(mine.map(Timings.format).joined(separator: ", ")); "
                           + "the other \(theirs.map(Timings.format).joined(separator: ", "))")
        }
        report.addTable(header: ["", "this build: median", "p90", "\(otherName): median", "p90", "this / other",
                                 "within \(Int(Self.bound * 100)) %"], rows: rows)
        report.add("All samples (ms): " + samples.joined(separator: "; ") + ".")
        try report.write()
    }

    /// `revision` as its short commit and the day it was made.
    private static func describe(_ revision: String) throws -> String {
        let line = try ProcessRunner.run(["git", "log", "-1", "--format=%h %cs", revision]).stdout
        let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
        return parts.count == 2 ? "`\(parts[0])` (\(parts[1]))" : "`\(revision)`"
    }

    /// Whether the sources `parley` is built from differ from HEAD: the build measured is then
    /// not HEAD's alone.
    private static func changedSources() throws -> Bool {
        !(try ProcessRunner.run(["git", "status", "--porcelain", "--", "Sources", ":!Sources/parley-bench"]).stdout.isEmpty)
    }

    private func ms(_ value: Double) -> String { "\(Timings.format(value)) ms" }
}
