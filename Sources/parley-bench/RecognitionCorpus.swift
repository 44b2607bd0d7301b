import Foundation
import ParleyCore
import PocketSphinxRecognition
import ProcessHarness
import Recognition

/// The recordings of the recognition benchmark, their transcripts, and the naive tool.
struct RecognitionCorpus {
    struct Clip {
        var name: String
        var path: String
        var audio: PCMChunk
        /// What follows the clip in a live run (its background); nil for silence.
        var tail: [Int16]? = nil
        var seconds: Double { audio.duration }
    }

    static let directory = "/usr/share/pocketsphinx/test/data"
    static let names = ["goforward.raw", "numbers.raw", "something.raw"]
        + [870, 880, 890, 920, 930].map { "librivox/sense_and_sensibility_01_austen_64kb-0\($0).wav" }
    /// Parley's decoder settings, for pocketsphinx_continuous.
    static let sameSettings = PocketSphinxRecognizer.commandLineTuning()

    let locale = LocaleTag(language: "en", region: "US")
    var clips: [Clip]
    /// Known transcripts by clip name.
    var references: [String: String]

    static func load() throws -> RecognitionCorpus {
        let clips = try names.map { name in
            Clip(name: name, path: "\(directory)/\(name)", audio: try AudioFileReader.read("\(directory)/\(name)"))
        }
        var references = ["goforward.raw": "go forward ten meters", "something.raw": "go somewhere and do something"]
        let listing = try String(contentsOfFile: "\(directory)/librivox/transcription", encoding: .utf8)
        for line in listing.split(separator: "\n") {
            guard let open = line.lastIndex(of: "(") else { continue }
            let id = line[line.index(after: open)...].dropLast()
            let words = line[..<open].split(separator: " ").filter { $0 != "<s>" && $0 != "</s>" }
            references["librivox/\(id).wav"] = words.joined(separator: " ")
        }
        return RecognitionCorpus(clips: clips, references: references)
    }

    var totalSeconds: Double { clips.map(\.seconds).reduce(0, +) }

    var referenceWordCount: Int { references.values.map { $0.split(separator: " ").count }.reduce(0, +) }

    /// `errors / words (percent)` of `transcripts` over the clips with a reference; `normalize`
    /// compares spoken words (lower case, no punctuation, small numbers spelled), as Whisper writes text.
    func wordErrorRate(_ transcripts: [String: String], normalize: Bool = false) -> String {
        var errors = 0
        for (name, reference) in references {
            let hypothesis = transcripts[name] ?? ""
            errors += normalize ? Self.wordErrors(Self.spokenWords(hypothesis), reference) : Self.wordErrors(hypothesis, reference)
        }
        return String(format: "%.1f %% (%d / %d)", 100 * Double(errors) / Double(referenceWordCount),
                      errors, referenceWordCount)
    }

    /// Spawns `pocketsphinx_continuous` per file: real-time factors per file and whole-set totals (ms).
    func spawnContinuous(arguments: [String], repetitions: Int) throws -> (rtf: [Double], totals: [Double]) {
        var rtf: [Double] = [], totals: [Double] = []
        for _ in 0..<repetitions {
            var total = 0.0
            for clip in clips {
                let milliseconds = try measureMilliseconds { _ = try Self.continuous(clip.path, arguments) }
                rtf.append(milliseconds / 1000 / clip.seconds)
                total += milliseconds
            }
            totals.append(total)
        }
        return (rtf, totals)
    }

    /// The transcript of each clip by `pocketsphinx_continuous` with `arguments`.
    func naiveTranscripts(arguments: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for clip in clips { result[clip.name] = (try? Self.continuous(clip.path, arguments)) ?? "" }
        return result
    }

    /// Runs `pocketsphinx_continuous -infile path` (no shell); its utterances joined by spaces.
    static func continuous(_ path: String, _ arguments: [String]) throws -> String {
        let output = try ProcessRunner.run(["/usr/bin/pocketsphinx_continuous", "-infile", path, "-logfn", "/dev/null"] + arguments)
        return output.stdout.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// Word-level edit distance.
    /// `text` as the transcripts write it: lower case, no punctuation, numbers up to twelve and
    /// "Mr." spelled out, hyphenated words apart.
    static func spokenWords(_ text: String) -> String {
        let numbers = ["0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
                       "7": "seven", "8": "eight", "9": "nine", "10": "ten", "11": "eleven", "12": "twelve",
                       "mr": "mister", "mrs": "missus"]
        let cleaned = String(text.lowercased().map { $0.isLetter || $0.isNumber || $0 == "'" ? $0 : " " })
        return cleaned.split(separator: " ").map { numbers[String($0)] ?? String($0) }.joined(separator: " ")
    }

    static func wordErrors(_ hypothesis: String, _ reference: String) -> Int {
        editDistance(reference.split(separator: " "), hypothesis.split(separator: " "))
    }

    /// How many of `reference`'s words `hypothesis` does not have, in order: the reference's
    /// words less their longest common subsequence (a word left out or read as another).
    static func wordsMissing(_ hypothesis: String, _ reference: String) -> Int {
        let (said, heard) = (reference.split(separator: " "), hypothesis.split(separator: " "))
        var previous = Array(repeating: 0, count: heard.count + 1)
        for word in said {
            var current = [0]
            for (index, other) in heard.enumerated() {
                current.append(word == other ? previous[index] + 1 : max(previous[index + 1], current[index]))
            }
            previous = current
        }
        return said.count - (previous.last ?? 0)
    }
}
