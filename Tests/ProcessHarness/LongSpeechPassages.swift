public import Foundation

/// Continuous speech longer than one utterance of the recordings: human clips of
/// pocketsphinx-testdata with their silent edges trimmed, joined by 0.25 s pauses
/// (shorter than any endpoint, so each passage is one utterance), built with sox.
/// Shared by the tests and `parley-bench whisper-long`.
public enum LongSpeechPassages {
    /// One passage: its name, its clips in order, and what was said.
    public struct Passage: Sendable {
        public var name: String
        public var clips: [String]
        public var reference: String
    }

    /// Where the recordings are.
    public static let recordings = "/usr/share/pocketsphinx/test/data"

    static let austen = "librivox/sense_and_sensibility_01_austen_64kb-0"
    static let four = ["870", "880", "920", "930"].map { "\(austen)\($0).wav" }

    /// (a) four LibriVox sentences as one utterance (17.8 s); (b) the same four said twice in a
    /// row (35.9 s); (c) 45.1 s of five LibriVox sentences, two short commands, three card
    /// orders and two of the sentences again.
    public static let all: [Passage] = [
        Passage(name: "four sentences (17.8 s)", clips: four, reference: ""),
        Passage(name: "the four said twice (35.9 s)", clips: four + four, reference: ""),
        Passage(name: "twelve clips (45.1 s)",
                clips: ["870", "880", "890", "920", "930"].map { "\(austen)\($0).wav" }
                    + ["goforward.raw", "something.raw", "cards/005.wav", "cards/002.wav", "cards/003.wav",
                       "\(austen)890.wav", "\(austen)870.wav"],
                reference: ""),
    ].map { passage in
        var passage = passage
        passage.reference = passage.clips.map { transcripts[$0] ?? "" }.joined(separator: " ")
        return passage
    }

    /// Three LibriVox sentences of one reader (0870, 0880, 0890: 11.3 s of speech), for one
    /// person going on across natural pauses (`build(_:pauses:in:)`).
    public static let threeSentences: Passage = {
        let clips = ["870", "880", "890"].map { "\(austen)\($0).wav" }
        return Passage(name: "three sentences", clips: clips, reference: clips.map { transcripts[$0] ?? "" }.joined(separator: " "))
    }()

    /// What each clip says, from the transcripts shipped with the recordings.
    static let transcripts: [String: String] = {
        var known = ["goforward.raw": "go forward ten meters", "something.raw": "go somewhere and do something"]
        for (listing, prefix) in [("librivox/transcription", "librivox/"), ("cards/cards.transcription", "cards/")] {
            let text = (try? String(contentsOfFile: "\(recordings)/\(listing)", encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                guard let open = line.lastIndex(of: "(") else { continue }
                let id = line[line.index(after: open)...].dropLast()
                let words = line[..<open].split(separator: " ").filter { $0 != "<s>" && $0 != "</s>" }
                known["\(prefix)\(id).wav"] = words.joined(separator: " ")
            }
        }
        return known
    }()

    /// Writes `passage` as a 16 kHz mono 16-bit WAV file in `directory` and returns its path:
    /// each clip trimmed where its level first and last passes 1 % for 20 ms, `pauses` seconds
    /// of silence between clips, in turn (0.25 s between all of them unless given: one utterance).
    public static func build(_ passage: Passage, pauses: [Double] = [0.25], in directory: URL) throws -> String {
        var parts: [String] = []
        for (index, clip) in passage.clips.enumerated() {
            let pause = directory.appendingPathComponent("pause-\(index).wav").path
            try sox(["-n", "-r", "16000", "-c", "1", "-b", "16", pause, "trim", "0", String(pauses[index % pauses.count])])
            let source = "\(recordings)/\(clip)"
            let input = clip.hasSuffix(".raw") ? ["-t", "raw", "-r", "16000", "-c", "1", "-e", "signed", "-b", "16", source] : [source]
            let trimmed = directory.appendingPathComponent("clip-\(index).wav").path
            try sox(input + ["-r", "16000", "-c", "1", "-b", "16", trimmed,
                             "silence", "1", "0.02", "1%", "reverse", "silence", "1", "0.02", "1%", "reverse"])
            parts += (index == 0 ? [] : [pause]) + [trimmed]
        }
        let output = directory.appendingPathComponent("passage-\(UUID().uuidString.prefix(8)).wav").path
        try sox(parts + [output])
        return output
    }

    private static func sox(_ arguments: [String]) throws {
        let result = try ProcessRunner.run(["sox", "-D"] + arguments)
        guard result.status == 0 else { throw ProcessRunner.Failure(message: "sox failed: \(result.stderr)") }
    }
}
