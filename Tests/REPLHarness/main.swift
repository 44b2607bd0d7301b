// A test driver for the REPL: the real REPL module and coordinator on fake
// stages, so terminal tests (tmux) and pipe tests can script speech.
//
//   parley-repl-harness [--history FILE] [--transcript FILE] [--manual] [--correct] [--hold-playback]
//
// With --hold-playback, speech never finishes playing: a turn stays being spoken.
//
// With PARLEY_HARNESS_CONTROL set to a FIFO, each line written to it makes the
// fake microphone "hear" something: `speech`, `partial TEXT`, `final TEXT`.
// This program is built for the tests only and is not part of the product.
import Dialogue
import ParleyCoreFakes
import Foundation
import ParleyCore
import REPL

let arguments = CommandLine.arguments
func value(after flag: String) -> String? {
    arguments.firstIndex(of: flag).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}

let audio = FakeAudio()
if arguments.contains("--hold-playback") { audio.holdPlayback(true) }
let recognizer = FakeRecognizer(locales: [LocaleTag("en-US")!, LocaleTag("es-ES")!])
let stages = ConversationStages(source: audio, sink: audio, recognizer: recognizer,
                              translator: FakeTranslator(), synthesizer: FakeSynthesizer())
let configuration = DialogueConfiguration(
    sideA: SideSettings(locale: LocaleTag("en-US")!), sideB: SideSettings(locale: LocaleTag("es-ES")!),
    mode: arguments.contains("--manual") ? .manual : .automatic, correction: arguments.contains("--correct"))
let transcript = try value(after: "--transcript").map { try TranscriptWriter(path: $0) }
let coordinator = TurnCoordinator(configuration: configuration, stages: stages, transcript: transcript)

/// Applies one control line to the fake microphone.
func control(_ line: Substring) {
    let words = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard let verb = words.first else { return }
    let text = words.count > 1 ? words[1] : ""
    switch verb {
    case "speech": recognizer.script([[.speechStarted(at: 0)]])
    case "partial": recognizer.script([[.partial(text)]])
    case "final": recognizer.script([[.final(RecognitionResult(text: text, confidence: 0.9, isFinal: true))]])
    default: return
    }
    audio.feed()
}

if let path = ProcessInfo.processInfo.environment["PARLEY_HARNESS_CONTROL"] {
    // Opened for reading and writing, the FIFO never reports end of file, so
    // it is opened once: reopening after each writer would lose a line written
    // between the end of file and the reopening.
    let descriptor = open(path, O_RDWR)
    guard descriptor >= 0 else { fatalError("cannot open the control FIFO \(path)") }
    Thread {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { if count < 0 && errno == EINTR { continue } else { return } }
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                control(Substring(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)))
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
    }.start()
}

let services = ReplServices(
    languages: { "en-US  English\nes-ES  Spanish" },
    dictionary: { "dict: " + $0.joined(separator: " ") },
    completion: CompletionSource(locales: ["en-US", "es-ES", "fr-FR"], voices: ["en-us", "es"],
                                 dictionaryWords: { ["tomatillo", "tomato"] }))
var options = ReplOptions.detect(historyFile: value(after: "--history"))
options.bracketedPaste = false
try await Repl(coordinator: coordinator, services: services, options: options).run()
