import ArgumentParser
import Foundation
import Locales
import Logging
import ParleyCore
import PocketSphinxRecognition
import Pronunciation
import Recognition
import WhisperRecognition

/// `--recognizer`'s values.
enum RecognizerName: String, ExpressibleByArgument, CaseIterable {
    case whisper, pocketsphinx

    var kind: RecognizerKind { RecognizerKind(rawValue: rawValue)! }
}

/// Options of the commands that recognize speech (`listen`, `dialog`).
struct RecognitionChoiceOptions: ParsableArguments {
    @Option(name: .customLong("recognizer"), help: ArgumentHelp("Recognizer for every locale: whisper or pocketsphinx (default: the best installed, from recognizers.tsv).",
                               valueName: "name"))
    var recognizerName: RecognizerName?

    /// The engine asked for, if any.
    var recognizer: RecognizerKind? { recognizerName?.kind }

    @Option(help: ArgumentHelp("File of names, places and terms you expect to say, one per line; Whisper favours them.",
                               valueName: "file"))
    var phrases: String?

    func validate() throws {
        if phrases != nil, recognizer == .pocketsphinx {
            throw ValidationError("--phrases guide Whisper, which --recognizer pocketsphinx leaves out; give one or the other")
        }
        _ = try loadPhrases()
    }

    /// The phrases of `--phrases`, or none; throws naming a file that cannot be read.
    func loadPhrases() throws -> [String] {
        guard let phrases else { return [] }
        guard let text = try? String(contentsOfFile: phrases, encoding: .utf8) else {
            throw ValidationError("cannot read the phrases file \(phrases); give a UTF-8 text file with one phrase per line")
        }
        if let (line, bytes) = LineLengthLimit.firstOverlongLine(in: text) {
            throw ValidationError("line \(line) of the phrases file \(phrases) is \(bytes) bytes long; "
                                  + "a phrase holds at most \(LineLengthLimit.maximumBytes) bytes")
        }
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }
}

/// The Whisper parts found from `directories`.
func whisperInstallation(_ directories: DataDirectories) -> WhisperInstallation {
    WhisperInstallation.discover(shipped: directories.shipped, models: directories.models, dataHome: DataDirectories.personalData())
}

/// Both recognizers behind one router. Whisper is left out when it is not installed, unless
/// `--recognizer whisper` asks for it, which then fails saying how to install it.
func makeRecognizerRouter(_ choice: RecognitionChoiceOptions, directories: DataDirectories,
                          priorities: PriorityTable, partialResults: Bool = true) throws -> RecognizerRouter {
    let preferences = try RecognizerPreferences.load(from: directories.layered)
    var whisper: WhisperRecognizer?
    if choice.recognizer != .pocketsphinx {
        do {
            var tuning = WhisperRecognizer.Tuning()
            tuning.partialResults = partialResults
            tuning.phrases = try choice.loadPhrases()
            let installation = whisperInstallation(directories)
            for model in installation.unusable { printError("the Whisper model \(model.folder.name) is not used: \(model.problem)") }
            let launch = try installation.launch()
            whisper = WhisperRecognizer(worker: WhisperWorker(launch: launch), detector: SphinxSpeechDetector.make,
                                        tuning: tuning)
        } catch let error as RecognitionError where choice.recognizer == nil {
            Logger(label: "parley.recognition").debug("Whisper is not used: \(error)")
        }
    }
    let pocketsphinx = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: directories.models), priorities: priorities)
    return RecognizerRouter(whisper: whisper, pocketsphinx: pocketsphinx, preferences: preferences,
                            forced: choice.recognizer)
}

/// The engines `makeRecognizerRouter` put behind the router, as their own types: the router
/// holds them only as `RoutedRecognizer`s, since the Recognition module imports neither engine.
extension RecognizerRouter {
    /// Whisper, when the router has it.
    var whisper: WhisperRecognizer? { whisperEngine as? WhisperRecognizer }
    /// PocketSphinx, when the router has it.
    var pocketsphinx: PocketSphinxRecognizer? { pocketsphinxEngine as? PocketSphinxRecognizer }
}
