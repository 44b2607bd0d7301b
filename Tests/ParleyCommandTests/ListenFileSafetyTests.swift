import Foundation
import Testing
import TestSupport

/// `parley listen --file` on files that lie about themselves or are long.
@Suite(.serialized)
struct ListenFileSafetyTests {
    /// `/usr/bin/time -f %M`: the peak resident memory, in KB, of `parley listen` on `path`.
    static func peakMemory(listeningTo path: String) throws -> (kilobytes: Int, output: ProcessRunner.Output) {
        let output = try ProcessRunner.run(["/usr/bin/time", "-f", "peak %M", ProcessRunner.parleyBinary, "listen",
                                            "--recognizer", "pocketsphinx", "--file", path])
        let line = try #require(output.stderr.split(separator: "\n").last { $0.hasPrefix("peak ") })
        return (try #require(Int(line.dropFirst(5))), output)
    }

    @Test("a WAV header claiming 1 Hz fails at once with one sentence, exit 1")
    func oneHertzHeader() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var header = Data("RIFF".utf8)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        append(UInt32(36 + 200_000)); header += Data("WAVEfmt ".utf8)
        append(UInt32(16)); append(UInt16(1)); append(UInt16(1)); append(UInt32(1)); append(UInt32(2)); append(UInt16(2)); append(UInt16(16))
        header += Data("data".utf8); append(UInt32(200_000))
        let path = directory.appendingPathComponent("one-hertz.wav").path
        try (header + Data(count: 200_000)).write(to: URL(fileURLWithPath: path))
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "listen", "--recognizer", "pocketsphinx", "--file", path])
        #expect(output.status == 1)
        #expect(output.stderr == "parley: cannot read audio from \(path): its header claims a sample rate of 1 Hz; Parley reads 4000 to 384000 Hz\n")
        #expect(output.stdout.isEmpty)
    }

    @Test("an empty file, a text file and a truncated WAV file fail with one sentence each, exit 1")
    func notAudio() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = directory.appendingPathComponent("notes.wav").path
        try Data("These are notes, not audio.\n".utf8).write(to: URL(fileURLWithPath: text))
        let truncated = directory.appendingPathComponent("truncated.wav").path
        try Data("RIFF\u{10}\0\0\0WAVEfmt ".utf8).write(to: URL(fileURLWithPath: truncated))
        let empty = directory.appendingPathComponent("empty.wav").path
        try Data().write(to: URL(fileURLWithPath: empty))
        let expected = [
            empty: "the file is empty",
            text: "it is not in an audio format libsndfile reads (WAV, FLAC, Ogg, AIFF and others; "
                + "headerless 16 kHz 16-bit mono audio needs the .raw extension)",
            truncated: "libsndfile refused it (",
        ]
        for (path, reason) in expected {
            let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "listen", "--recognizer", "pocketsphinx", "--file", path])
            #expect(output.status == 1)
            #expect(output.stderr.hasPrefix("parley: cannot read audio from \(path): \(reason)"), "\(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1 && !output.stderr.dropLast().contains(". "), "\(output.stderr)")
            #expect(output.stdout.isEmpty)
        }
    }

    @Test("ten minutes of stereo audio are read as they are recognized, not held whole")
    func longFileIsStreamed() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let long = directory.appendingPathComponent("long.wav").path
        // 10 minutes of 16 kHz stereo: 77 MB as floats, 134 MB with the mono and 16-bit copies.
        let made = try ProcessRunner.run(["sox", "-n", "-r", "16000", "-c", "2", "-b", "16", long, "trim", "0", "600"])
        #expect(made.status == 0, "\(made.stderr)")
        let short = try Self.peakMemory(listeningTo: Fixtures.recording("goforward.raw"))
        #expect(short.output.stdout == "go forward ten meters\n")
        let longRun = try Self.peakMemory(listeningTo: long)
        #expect(longRun.output.stderr.hasPrefix("parley: no speech was recognized"))
        #expect(longRun.kilobytes - short.kilobytes < 30_000, "peak \(longRun.kilobytes) KB against \(short.kilobytes) KB")
    }

    @Test("--grammar with a file that is not JSGF fails with one sentence and prints nothing of it")
    func grammarNotJSGF() throws {
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "listen", "--recognizer", "pocketsphinx",
                                            "--file", Fixtures.recording("goforward.raw"), "--grammar", "/etc/passwd"])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == "parley: /etc/passwd is not a JSGF grammar: a grammar starts with a #JSGF header, e.g. #JSGF V1.0;\n")
    }

    @Test("--grammar with a JSGF header and other text after a rule fails with one sentence and prints nothing of it")
    func grammarWithHeaderAndStrayText() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("mixed.gram").path
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        try ("#JSGF V1.0;\ngrammar g;\npublic <a> = go forward ten meters;\n" + passwd).write(toFile: path, atomically: true, encoding: .utf8)
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "listen", "--recognizer", "pocketsphinx",
                                            "--file", Fixtures.recording("goforward.raw"), "--grammar", path])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty, "\(output.stdout)")
        let first = String(passwd.prefix(40)).split(whereSeparator: \.isNewline).joined(separator: " ")
        #expect(output.stderr == "parley: the grammar cannot be used: '\(first)' is not a JSGF statement; "
            + "check its JSGF syntax and that every word is in the model's dictionary\n")
    }

    @Test("a phrases file with a line over 4096 bytes is refused with one sentence naming the line")
    func overlongPhrase() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("phrases.txt").path
        try ("Zaragoza\n" + String(repeating: "x", count: 10_000) + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "listen", "--phrases", path,
                                            "--file", Fixtures.recording("goforward.raw")])
        #expect(output.status == 64)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("Error: line 2 of the phrases file \(path) is 10000 bytes long; a phrase holds at most 4096 bytes\n"),
                "\(output.stderr)")
    }
}
