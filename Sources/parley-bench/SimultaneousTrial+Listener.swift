import Foundation
import ProcessHarness

/// What the listener makes of the translation: the speaker's recording decoded in Spanish, once
/// as it sounds alone and once with the passage added where the microphone heard it, as a listener
/// in the room hears the translation under the speaker's voice (both at the level they were
/// played: the room of `levelUnderSpeech`). Each is decoded by `parley listen --locale es-ES`
/// and compared with what Parley said (`TranslationHeard`).
extension SimultaneousTrial {
    /// The two readings of the translation a listener hears.
    struct TranslationHeard {
        /// What Parley spoke: the clauses' translations in order (turn by turn: the turns').
        var said: String
        /// The speaker's recording alone, decoded in Spanish.
        var alone: String
        /// The speaker's recording with the passage over it, decoded in Spanish.
        var underSpeech: String
    }

    /// `speaker`, the speaker's recording from its time 0, with `passage` (the file's samples)
    /// added from sample `offset` on (negative: the passage's first samples fall before it).
    static func listenerMix(_ speaker: [Int16], passage: [Int16], offset: Int) -> [Int16] {
        var mixed = speaker
        let end = offset + passage.count
        if end > mixed.count { mixed += [Int16](repeating: 0, count: end - mixed.count) }
        for index in passage.indices where offset + index >= 0 {
            let sum = Int(mixed[offset + index]) + Int(passage[index])
            mixed[offset + index] = Int16(clamping: sum)
        }
        return mixed
    }

    /// `samples` decoded in Spanish by the `parley` built beside this benchmark, one line per
    /// utterance joined by spaces; `name` is the raw file written for it in `directory`.
    func spanishReading(_ samples: [Int16], name: String) throws -> String {
        let path = directory.appendingPathComponent("\(name).raw").path
        try samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let parley = DialogueProcess.builtParley
        let heard = try ProcessRunner.run([parley, "listen", "--locale", "es-ES", "--file", path], timeout: 300)
        guard heard.status == 0 else { throw BenchmarkFailure("parley listen could not read \(name): \(heard.stderr)") }
        return heard.stdout.split(separator: "\n").joined(separator: " ")
    }
}
