import ArgumentParser
import Foundation
import Locales
import Logging
import ParleyCore
import PocketSphinxRecognition
import Pronunciation
import Recognition
import WhisperRecognition
import Wyoming

/// Options of the commands that recognize speech (`listen`, `dialog`, `room`).
struct RecognitionChoiceOptions: ParsableArguments {
    @Option(name: .customLong("recognizer"), help: ArgumentHelp(
        "Recognizer for every locale: whisper, pocketsphinx, or a Wyoming server, wyoming:tcp://HOST:PORT (default: the best installed, from recognizers.tsv).",
        discussion: "A Wyoming server (wyoming-faster-whisper, on this machine or another) hears every utterance Parley's own detector finds; nothing else leaves the machine. See docs/remote-engines.md.",
        valueName: "name"))
    var recognizerName: String?

    /// The engine asked for, if any (`wyoming` for a Wyoming server).
    var recognizer: RecognizerKind? {
        guard let recognizerName else { return nil }
        return WyomingAddress.isWyoming(recognizerName) ? .wyoming : RecognizerKind(rawValue: recognizerName)
    }

    /// The Wyoming server asked for, if any.
    var wyomingServer: WyomingAddress? { recognizerName.flatMap { try? WyomingAddress($0) } }

    @Option(help: ArgumentHelp("File of names, places and terms you expect to say, one per line; Whisper favours them.",
                               valueName: "file"))
    var phrases: String?

    func validate() throws {
        if let recognizerName {
            if WyomingAddress.isWyoming(recognizerName) {
                do { _ = try WyomingAddress(recognizerName) } catch { throw ValidationError(error.description) }
            } else if RecognizerKind(rawValue: recognizerName) == nil {
                throw ValidationError("unknown recognizer '\(recognizerName)'; give whisper, pocketsphinx or a Wyoming server, wyoming:tcp://HOST:PORT")
            }
        }
        if phrases != nil, recognizer == .wyoming {
            throw ValidationError("--phrases guide the Whisper on this machine, which a Wyoming server is not; give one or the other")
        }
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
    if choice.recognizer != .pocketsphinx, choice.recognizer != .wyoming {
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
    let wyoming = choice.wyomingServer.map { WyomingRecognizer(address: $0, detector: SphinxSpeechDetector.make) }
    return RecognizerRouter(whisper: whisper, pocketsphinx: pocketsphinx, wyoming: wyoming, preferences: preferences,
                            forced: choice.recognizer)
}

/// The engines `makeRecognizerRouter` put behind the router, as their own types: the router
/// holds them only as `RoutedRecognizer`s, since the Recognition module imports neither engine.
extension RecognizerRouter {
    /// Whisper, when the router has it.
    var whisper: WhisperRecognizer? { whisperEngine as? WhisperRecognizer }
    /// PocketSphinx, when the router has it.
    var pocketsphinx: PocketSphinxRecognizer? { pocketsphinxEngine as? PocketSphinxRecognizer }
    /// The Wyoming server, when one was given.
    var wyoming: WyomingRecognizer? { wyomingEngine as? WyomingRecognizer }
}
