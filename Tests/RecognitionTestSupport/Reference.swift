package import Foundation
package import ParleyCore
import TestSupport

/// What the tests compare against: `pocketsphinx_continuous` run on the same
/// file with the same settings, and the transcripts shipped with the recordings.
/// What is PocketSphinx's (`pocketsphinx_continuous`, the model) is an extension in
/// PocketSphinxRecognitionTests.
package enum Reference {
    /// The recordings with human speech the issue names.
    package static let recordings = ["goforward.raw", "numbers.raw", "something.raw"]
        + librivoxNames.map { "librivox/\($0).wav" }

    package static let librivoxNames = (870...930).filter { [870, 880, 890, 920, 930].contains($0) }
        .map { "sense_and_sensibility_01_austen_64kb-0\($0)" }

    package static let english = LocaleTag(language: "en", region: "US")

    /// The shipped transcript of a LibriVox clip or a cards recording, by file name.
    package static func transcript(of name: String, in listing: String) throws -> String {
        let text = try String(contentsOfFile: Fixtures.recording(listing), encoding: .utf8)
        for line in text.split(separator: "\n") where line.hasSuffix("(\(name))") {
            return line.replacingOccurrences(of: "(\(name))", with: "")
                .replacingOccurrences(of: "<s>", with: "").replacingOccurrences(of: "</s>", with: "")
                .split(separator: " ").joined(separator: " ")
        }
        throw ProcessRunner.Failure(message: "no transcript for \(name) in \(listing)")
    }

    /// The recordings with a known transcript: the LibriVox clips and two of the short ones.
    package static func transcripts() throws -> [(String, String)] {
        try [("goforward.raw", "go forward ten meters"), ("something.raw", "go somewhere and do something")]
            + librivoxNames.map { ("librivox/\($0).wav", try transcript(of: $0, in: "librivox/transcription")) }
    }

    /// Word edits (substitutions, insertions, deletions) from `reference` to `hypothesis`.
    package static func wordErrors(_ hypothesis: String, _ reference: String) -> Int {
        editDistance(reference.split(separator: " "), hypothesis.split(separator: " "))
    }

    /// Converts a recording with sox (`rate`, `channels`) into `directory`; raw input is 16 kHz mono s16le.
    package static func convert(_ path: String, rate: Int, channels: Int, into directory: URL) throws -> String {
        let output = directory.appendingPathComponent("\(UUID().uuidString.prefix(8))-\(rate)-\(channels).wav").path
        let input = path.hasSuffix(".raw") ? ["-t", "raw", "-r", "16000", "-c", "1", "-e", "signed", "-b", "16", path] : [path]
        let result = try ProcessRunner.run(["sox", "-D"] + input + ["-r", String(rate), "-c", String(channels), output])
        guard result.status == 0 else { throw ProcessRunner.Failure(message: "sox failed: \(result.stderr)") }
        return output
    }
}
