import Foundation
import ProcessHarness

/// One Markdown section of BENCHMARKS.md, written to `benchmarks/<area>.md`.
struct BenchmarkReport {
    /// The area's name, also the file name.
    var area: String
    /// The section title.
    var title: String
    /// The command that reproduces the figures.
    var command: String
    private var lines: [String] = []

    /// Starts a section.
    init(area: String, title: String, command: String) {
        self.area = area
        self.title = title
        self.command = command
    }

    /// Adds a paragraph or a line of Markdown.
    mutating func add(_ line: String) { lines.append(line) }

    /// Adds a table.
    mutating func addTable(header: [String], rows: [[String]]) {
        lines.append("| " + header.joined(separator: " | ") + " |")
        lines.append("|" + header.map { _ in " --- |" }.joined())
        for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
        lines.append("")
    }

    /// The section's Markdown.
    var markdown: String {
        let machine = "\(ProcessInfo.processInfo.activeProcessorCount) cores, "
            + "\(ProcessInfo.processInfo.physicalMemory / 1_073_741_824) GiB"
        return (["## \(title)", "", "Command: `\(command)` — measured \(Self.today()) on \(machine).", ""] + lines)
            .joined(separator: "\n") + "\n"
    }

    /// Writes the section to `benchmarks/<area>.md` under `directory` and echoes it to stdout.
    func write(to directory: String = "benchmarks") throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try markdown.write(toFile: "\(directory)/\(area).md", atomically: true, encoding: .utf8)
        print(markdown)
    }

    private static func today() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        return formatter.string(from: Date())
    }
}

/// A line on standard error while an area runs, after the area's name ("dialogue: turn 3, …").
func progress(_ area: String, _ line: String) {
    FileHandle.standardError.write(Data("\(area): \(line)\n".utf8))
}

/// Runs the bench area `area` again on a private pipewire-pulse server with `--this-server-only`
/// and `arguments`, and decodes the measurements it printed (its last line of JSON).
func measuredOnPipeWire<Measured: Decodable>(_ area: String, _ arguments: [String] = [], as type: Measured.Type,
                                             timeout: Double) throws -> Measured {
    let bench = Bundle.main.executableURL!.path
    let other = try ProcessRunner.run(["scripts/with-test-server.sh", "--pipewire", bench, area, "--this-server-only"] + arguments,
                                      timeout: timeout)
    guard other.status == 0 else { throw BenchmarkFailure("the pipewire-pulse run failed: \(other.stderr.suffix(2_000))") }
    guard let line = other.stdout.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
        throw BenchmarkFailure("the pipewire-pulse run printed no measurements")
    }
    return try JSONDecoder().decode(Measured.self, from: Data(line.utf8))
}
