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
        "Recognizer for every locale: whisper, pocketsphinx, or a Wyoming server, wyoming:tcp://HOST:PORT, repeated for several (default: the best installed, from recognizers.tsv).",
        discussion: "A Wyoming server (wyoming-faster-whisper, on this machine or another) hears every utterance Parley's own detector finds; nothing else leaves the machine. Several servers share the utterances, each to the one with the fewest in flight; one that fails is left out for a while, and its utterance goes to another, or to the Whisper worker on this machine. See docs/remote-engines.md.",
        valueName: "name"))
    var recognizerNames: [String] = []

    /// The one `--recognizer` given (the first Wyoming server of several).
    var recognizerName: String? { recognizerNames.first }

    /// The engine asked for, if any (`wyoming` for a Wyoming server).
    var recognizer: RecognizerKind? {
        guard let recognizerName else { return nil }
        return WyomingAddress.isWyoming(recognizerName) ? .wyoming : RecognizerKind(rawValue: recognizerName)
    }

    /// The Wyoming servers asked for, in their order; none for a local engine.
    var wyomingServers: [WyomingAddress] { recognizerNames.compactMap { try? WyomingAddress($0) } }

    /// Checks one engine name: whisper, pocketsphinx, or a Wyoming server's address.
    static func check(_ name: String) throws(ValidationError) {
        if WyomingAddress.isWyoming(name) {
            do { _ = try WyomingAddress(name) } catch { throw ValidationError(error.description) }
        } else if RecognizerKind(rawValue: name) == nil || name == RecognizerKind.wyoming.rawValue {
            throw ValidationError("unknown recognizer '\(name)'; give whisper, pocketsphinx or a Wyoming server, wyoming:tcp://HOST:PORT")
        }
    }

    /// The first Wyoming server asked for, if any.
    var wyomingServer: WyomingAddress? { wyomingServers.first }

    @Option(help: ArgumentHelp("File of names, places and terms you expect to say, one per line; Whisper favours them.",
                               valueName: "file"))
    var phrases: String?

    func validate() throws {
        if recognizerNames.count > 1, !recognizerNames.allSatisfy(WyomingAddress.isWyoming) {
            throw ValidationError("--recognizer is given \(recognizerNames.count) times; give one engine, or several Wyoming servers (wyoming:tcp://HOST:PORT each)")
        }
        if Set(recognizerNames).count < recognizerNames.count {
            throw ValidationError("a Wyoming server is given twice with --recognizer; give each once")
        }
        for recognizerName in recognizerNames { try Self.check(recognizerName) }
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
                          priorities: PriorityTable, partialResults: Bool = true,
                          partyServers: [WyomingAddress] = []) throws -> RecognizerRouter {
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
    var wyoming: WyomingRecognizer?
    let servers = choice.wyomingServers + partyServers.filter { !choice.wyomingServers.contains($0) }
    if !servers.isEmpty {
        // The Whisper worker on this machine decodes what no server is left to: started only then.
        let fallback = whisper == nil ? (try? whisperInstallation(directories).launch()).map {
            WhisperRecognizer(worker: WhisperWorker(launch: $0), detector: SphinxSpeechDetector.make)
        } : nil
        wyoming = WyomingRecognizer(addresses: servers, detector: SphinxSpeechDetector.make, fallback: whisper ?? fallback,
                                    notice: { printError("note: \($0)") })
    }
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
    /// The Wyoming servers, when given.
    var wyoming: WyomingRecognizer? { wyomingEngine as? WyomingRecognizer }
}
