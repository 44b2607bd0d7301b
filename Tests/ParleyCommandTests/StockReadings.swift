import Foundation
import Testing
import TestSupport

/// What the stock engines make of the human recordings, measured once: the tests allow
/// Parley at most one word error more than stock on each recording, against the
/// recordings' own transcripts (not against Parley's reading of the same file).
enum StockReadings {
    /// Stock faster-whisper's text of each recording (greedy, language en, no timestamps, no
    /// conditioning), measured once with
    /// `whisper-env/bin/python3 benchmarks/stock_whisper.py ~/.local/share/parley/models/whisper-base FILE.raw…`
    /// (the LibriVox clips converted with `sox CLIP.wav -r 16000 -c 1 -b 16 -e signed-integer -t raw FILE.raw`).
    /// Its one error in the 80 words: "a more amiable" for the reading's "a more a amiable".
    static let whisper: [String: String] = [
        "goforward.raw": "Go forward 10 meters.",
        "something.raw": "Go somewhere and do something.",
        "librivox/sense_and_sensibility_01_austen_64kb-0870.wav":
            "And Mr. John Dashwood had then leisure to consider how much there might be prudently in his power to do for them.",
        "librivox/sense_and_sensibility_01_austen_64kb-0880.wav": "He was not an ill-disposed young man.",
        "librivox/sense_and_sensibility_01_austen_64kb-0890.wav":
            "Unless to be rather cold-hearted and rather selfish is to be ill-disposed.",
        "librivox/sense_and_sensibility_01_austen_64kb-0920.wav":
            "Had he married a more amiable woman he might have been made still more respectable than he was?",
        "librivox/sense_and_sensibility_01_austen_64kb-0930.wav": "He might even have been made amiable himself.",
    ]

    /// Stock's word errors on the recording `name` against its transcript.
    static func whisperErrors(_ name: String) throws -> Int {
        let reference = try transcript(name)
        return SpokenWords.errors(try #require(whisper[name]), reference: reference)
    }

    /// `pocketsphinx_continuous` at its defaults (only the model files given), measured with
    /// `pocketsphinx_continuous -infile FILE -logfn /dev/null -hmm /usr/share/pocketsphinx/model/en-us/en-us
    /// -lm /usr/share/pocketsphinx/model/en-us/en-us.lm.bin -dict /usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict`:
    /// no error on either recording.
    static let pocketSphinx: [String: String] = [
        "goforward.raw": "go forward ten meters",
        "something.raw": "go somewhere and do something",
    ]

    /// Stock PocketSphinx's word errors on the recording `name` against its transcript.
    static func pocketSphinxErrors(_ name: String) throws -> Int {
        let reference = try transcript(name)
        return SpokenWords.errors(try #require(pocketSphinx[name]), reference: reference)
    }

    /// The transcript shipped with the recording `name` (a path under `Fixtures.recordings`).
    static func transcript(_ name: String) throws -> String {
        try #require(WhisperRecognitionTests.recordings.first { $0.0 == name }?.1, "no transcript for \(name)")
    }
}
