import Foundation
import Testing
import TestSupport

/// `parley listen --file` on compressed audio libsndfile reads: the words are those of the same recording as WAV.
@Suite(.serialized)
struct CompressedAudioTests {
    @Test("FLAC and Ogg Vorbis made from a human recording give the WAV's words")
    func flacAndOggGiveTheWAVsWords() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let joined = directory.appendingPathComponent("two.raw")
        try (Data(contentsOf: URL(fileURLWithPath: Fixtures.recording("goforward.raw")))
            + Data(contentsOf: URL(fileURLWithPath: Fixtures.recording("something.raw")))).write(to: joined)
        let wav = directory.appendingPathComponent("two.wav").path
        let raw = ["-t", "raw", "-r", "16000", "-c", "1", "-e", "signed", "-b", "16", joined.path]
        try #require(try ProcessRunner.run(["sox"] + raw + [wav]).status == 0)
        let reference = try ProcessRunner.run([ProcessRunner.parleyBinary, "listen", "--recognizer", "pocketsphinx", "--file", wav])
        #expect(reference.status == 0 && reference.stdout == "go forward ten meters\ngo somewhere and do something\n",
                "\(reference.stdout)\(reference.stderr)")
        for (name, quality) in [("two.flac", [String]()), ("two.ogg", ["-C", "8"])] {
            let path = directory.appendingPathComponent(name).path
            let made = try ProcessRunner.run(["sox", wav] + quality + [path])
            try #require(made.status == 0, "\(made.stderr)")
            let output = try ProcessRunner.run([ProcessRunner.parleyBinary, "listen", "--recognizer", "pocketsphinx", "--file", path])
            #expect(output.status == 0, "\(name): \(output.stderr)")
            #expect(output.stderr.isEmpty, "\(name): \(output.stderr)")
            #expect(output.stdout == reference.stdout, "\(name)")
        }
    }
}
