public import ParleyCore
import CESpeakNG
import Foundation

/// eSpeak NG refused a request; the message says what to check.
public struct ESpeakTranscriptionError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public var message: String

    public var description: String { message }
}

/// eSpeak NG's pronunciation of text as phonemes, with espeak confined to one thread.
///
/// A stand-in for the Synthesis module's `ESpeakSynthesizer` in the
/// pronunciation tools and tests: espeak's state is global, so there is one
/// instance per process (`shared`) and every espeak call runs on its thread.
/// Text holding phoneme input (`[[t@m'A:toU]]`) is synthesized with a phoneme
/// trace, because `espeak_TextToPhonemes` does not read phoneme input.
public final class ESpeakPhonemeTranscriber: PhonemeTranscriber {
    /// The one transcriber of this process.
    public static let shared = ESpeakPhonemeTranscriber()

    private let thread = DedicatedThread(name: "espeak-ng phonemes")
    // Touched only on `thread`.
    nonisolated(unsafe) private var engine = ESpeakEngine()

    private init() {}

    public func phonemes(of text: String, voice: String, notation: PhonemeNotation,
                         separator: Character?) async throws -> String {
        try await thread.run { [self] in
            try engine.select(voice: voice)
            let mode = ESpeakEngine.phonemeMode(notation: notation, separator: separator)
            return text.contains("[[") ? try engine.traceSynthesis(of: text, mode: mode)
                                       : engine.textToPhonemes(text, mode: mode)
        }
    }
}

/// The espeak calls themselves; used only on the transcriber's thread.
struct ESpeakEngine {
    private var initialized = false
    private var currentVoice: String?

    /// Initializes espeak once (synchronous output) and selects `voice`, from
    /// `espeak_ng_Initialize` and `espeak_SetVoiceByName`.
    mutating func select(voice: String) throws {
        if !initialized {
            espeak_ng_InitializePath(nil)
            let status = espeak_ng_Initialize(nil)
            guard status == ENS_OK else {
                throw ESpeakTranscriptionError(message: "eSpeak NG could not start (status \(status.rawValue)); install espeak-ng-data")
            }
            _ = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
            espeak_SetSynthCallback { _, _, _ in 0 }
            initialized = true
        }
        guard currentVoice != voice else { return }
        guard espeak_SetVoiceByName(voice) == EE_OK || Self.selectByLanguage(voice) else {
            throw ESpeakTranscriptionError(message: "eSpeak NG has no voice '\(voice)'; `espeak-ng --voices` lists them")
        }
        currentVoice = voice
    }

    /// `espeak_SetVoiceByProperties` with `language` as the language: names like
    /// `en-gb` are languages of voices whose file is called otherwise (`gmw/en`).
    private static func selectByLanguage(_ language: String) -> Bool {
        language.withCString { name in
            var properties = espeak_VOICE()
            properties.languages = name
            return espeak_SetVoiceByProperties(&properties) == EE_OK
        }
    }

    /// The `phonememode` bits of `espeak_TextToPhonemes` and `espeak_SetPhonemeTrace`.
    static func phonemeMode(notation: PhonemeNotation, separator: Character?) -> Int32 {
        let separatorBits = separator?.unicodeScalars.first.map { Int32($0.value) << 8 } ?? 0
        return (notation == .ipa ? 0x02 : 0) | separatorBits
    }

    /// Plain text through `espeak_TextToPhonemes`, one clause per call, clauses joined by spaces.
    func textToPhonemes(_ text: String, mode: Int32) -> String {
        var clauses: [String] = []
        text.withCString { base in
            var cursor: UnsafeRawPointer? = UnsafeRawPointer(base)
            while cursor != nil {
                guard let result = espeak_TextToPhonemes(&cursor, espeakCHARS_UTF8, mode) else { break }
                clauses.append(String(cString: result))
            }
        }
        return clauses.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Synthesizes `text` with phoneme input on and records espeak's phoneme
    /// trace (`espeak_SetPhonemeTrace`), one line per clause.
    func traceSynthesis(of text: String, mode: Int32) throws -> String {
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else {
            throw ESpeakTranscriptionError(message: "no memory for eSpeak NG's phoneme trace")
        }
        // Trace mode: 1 = mnemonics, 2 = IPA, the separator in bits 8-23.
        espeak_SetPhonemeTrace((mode & 0x02 != 0 ? 2 : 1) | (mode & ~0xFF), stream)
        let flags = UInt32(espeakCHARS_UTF8) | UInt32(espeakPHONEMES)
        let status = espeak_Synth(text, text.utf8.count + 1, 0, POS_CHARACTER, 0, flags, nil, nil)
        espeak_SetPhonemeTrace(0, nil)
        fclose(stream)
        defer { free(buffer) }
        guard status == EE_OK, let buffer else {
            throw ESpeakTranscriptionError(message: "eSpeak NG could not synthesize '\(text)' (status \(status.rawValue))")
        }
        return String(cString: buffer).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
