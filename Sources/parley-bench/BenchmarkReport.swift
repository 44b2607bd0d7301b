import Foundation

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
