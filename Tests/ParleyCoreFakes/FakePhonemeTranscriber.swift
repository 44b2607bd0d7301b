public import ParleyCore
import Synchronization

/// A phoneme transcriber that answers from a table instead of asking espeak:
/// tests of the logic built on transcriptions run without the engine.
///
/// The table maps a text to its phonemes per notation; a text that is not in
/// it is an error naming it, so a test learns exactly what was asked.
public final class FakePhonemeTranscriber: PhonemeTranscriber {
    private let table: [PhonemeNotation: [String: String]]
    private let asked = Mutex<[String]>([])

    /// A transcriber that knows `ipa` and `mnemonic` transcriptions of some texts.
    public init(ipa: [String: String] = [:], mnemonic: [String: String] = [:]) {
        table = [.ipa: ipa, .mnemonic: mnemonic]
    }

    /// Every text asked for, in order.
    public var requests: [String] { asked.withLock { $0 } }

    /// The table's transcription of `text`, as written in the table (a test that passes
    /// a separator writes it into the transcriptions it expects to be split).
    public func phonemes(of text: String, voice: String, notation: PhonemeNotation,
                         separator: Character?) async throws -> String {
        asked.withLock { $0.append(text) }
        guard let phonemes = table[notation]?[text] else {
            throw FakeFailure("no \(notation) transcription of '\(text)' for \(voice)")
        }
        return phonemes
    }
}
