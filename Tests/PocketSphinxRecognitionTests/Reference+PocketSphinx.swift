import Foundation
import ParleyCore
@testable import PocketSphinxRecognition
import RecognitionTestSupport
import TestSupport

/// PocketSphinx's side of `Reference`: `pocketsphinx_continuous` on the same file, and the
/// packaged en-US model the recognizer loads.
extension Reference {
    /// One line per utterance from `pocketsphinx_continuous -infile` with `configuration`'s tuning.
    static func continuous(_ path: String, configuration: DecoderConfiguration) throws -> [String] {
        let output = try ProcessRunner.run(
            ["pocketsphinx_continuous", "-infile", path, "-logfn", "/dev/null"] + configuration.arguments)
        guard output.status == 0 else {
            throw ProcessRunner.Failure(message: "pocketsphinx_continuous failed on \(path): \(output.stderr)")
        }
        return output.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// One line per utterance from `pocketsphinx_continuous -infile` at the tool's own defaults:
    /// only the model files are given, so a change to Parley's tuning cannot move this side.
    static func continuousAtDefaults(_ path: String) throws -> [String] {
        let model = englishModel
        let output = try ProcessRunner.run(["pocketsphinx_continuous", "-infile", path, "-logfn", "/dev/null",
                                            "-hmm", model.acousticModel, "-lm", model.languageModel, "-dict", model.dictionary])
        guard output.status == 0 else {
            throw ProcessRunner.Failure(message: "pocketsphinx_continuous failed on \(path): \(output.stderr)")
        }
        return output.stdout.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// The decoder settings the recognizer uses by default (500 ms endpoint).
    static func defaultConfiguration() -> DecoderConfiguration {
        DecoderConfiguration(model: englishModel, postSpeechFrames: 50)
    }

    static var englishModel: SpeechModel {
        PocketSphinxModelRegistry(userDirectory: nil).model(for: english)!
    }
}
