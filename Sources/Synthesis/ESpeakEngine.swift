import CESpeakNG
import Foundation

/// A voice as eSpeak NG lists it, before Parley adds locale and gender.
struct ListedVoice: Sendable, Hashable {
    /// Display name, e.g. `Spanish (Spain)`.
    var name: String
    /// Language names, the voice's own first, e.g. `["es-419", "es-mx", "es"]`.
    var languages: [String]
    /// File identifier under `espeak-ng-data/voices` or `lang`, e.g. `roa/es`.
    var file: String
    /// espeak's gender: 0 none, 1 male, 2 female.
    var gender: Int
    /// espeak's priority for each of `languages` (lower is better; `es-419` speaks `es` at 6).
    var priorities: [Int] = []
}

/// Something espeak reports alongside audio, positions in code points of the text it was given.
enum EngineEvent: Sendable, Equatable {
    /// A word starts at the 1-based code point `position` and is `length` code points long.
    case word(position: Int, length: Int)
    /// A sentence starts.
    case sentence
    /// A clause or sentence ended.
    case end
}

/// Receives what one synthesis call produces, on the engine thread.
protocol SynthesisReceiver: AnyObject {
    /// Audio and the events that go with it; returns true to stop synthesis now.
    func receive(samples: UnsafeBufferPointer<Int16>, events: [EngineEvent]) -> Bool
}

/// The wrapper around eSpeak NG's global state: the only place its C functions are called.
///
/// Owned by the `ESpeakHost` actor and, not being `Sendable`, never leaves it: every
/// call runs on the host's thread. Each method names the C function it wraps.
final class ESpeakEngine {
    /// The voice name last selected successfully, to skip reloading it.
    private(set) var currentVoice: String?
    /// Whether the last synthesis had `espeakPHONEMES` set: `espeak_TextToPhonemes`
    /// follows that global setting when it meets `[[…]]`.
    private var phonemeInputEnabled = false

    /// `espeak_ng_InitializePath`, `espeak_ng_Initialize`, `espeak_ng_InitializeOutput` (synchronous).
    init() throws {
        espeak_ng_InitializePath(nil)
        var context: espeak_ng_ERROR_CONTEXT?
        let status = espeak_ng_Initialize(&context)
        espeak_ng_ClearErrorContext(&context)
        guard status == ENS_OK else { throw SynthesisError.engineUnavailable(Self.message(for: status)) }
        let output = espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil)
        guard output == ENS_OK else { throw SynthesisError.engineUnavailable(Self.message(for: output)) }
        espeak_SetSynthCallback(synthesisCallback)
    }

    /// `espeak_Info`: the version and the data directory.
    func info() -> (version: String, dataPath: String) {
        var path: UnsafePointer<CChar>?
        let version = espeak_Info(&path).map { String(cString: $0) } ?? "unknown"
        return (version, path.map { String(cString: $0) } ?? "")
    }

    /// `espeak_ListVoices(NULL)`: every installed language voice (variants excluded).
    func listVoices() -> [ListedVoice] {
        guard var cursor = espeak_ListVoices(nil) else { return [] }
        var voices: [ListedVoice] = []
        while let entry = cursor.pointee {
            voices.append(Self.listed(entry.pointee))
            cursor += 1
        }
        return voices
    }

    /// `espeak_ListVoices` with language `variant`: the variants' names (`f3`, `m3`, `klatt`),
    /// which espeak would otherwise ignore silently when misspelled after a `+`.
    func listVariants() -> [String] {
        var spec = espeak_VOICE()
        return "variant".withCString { language in
            spec.languages = language
            guard var cursor = espeak_ListVoices(&spec) else { return [] }
            var names: [String] = []
            while let entry = cursor.pointee {
                if let file = entry.pointee.identifier.map({ String(cString: $0) }) {
                    names.append(String(file.split(separator: "/").last ?? ""))
                }
                cursor += 1
            }
            return names
        }
    }

    /// `espeak_ng_SetVoiceByName`; skipped when `name` is already selected.
    func selectVoice(_ name: String) throws {
        guard name != currentVoice else { return }
        let status = espeak_ng_SetVoiceByName(name)
        guard status == ENS_OK else {
            throw SynthesisError.voiceNotLoaded(name, reason: Self.message(for: status))
        }
        currentVoice = name
    }

    /// `espeak_ng_SetParameter` for rate (words per minute), pitch (0…100) and volume (0…200).
    func setProsody(wordsPerMinute: Int, pitch: Int, volume: Int) {
        _ = espeak_ng_SetParameter(espeakRATE, Int32(wordsPerMinute), 0)
        _ = espeak_ng_SetParameter(espeakPITCH, Int32(pitch), 0)
        _ = espeak_ng_SetParameter(espeakVOLUME, Int32(volume), 0)
    }

    /// `espeak_ng_Synthesize` of UTF-8 `text`, delivering audio and events to `receiver`.
    /// Returns false when the receiver stopped it.
    func synthesize(_ text: String, phonemeInput: Bool, endPause: Bool,
                    receiver: any SynthesisReceiver) throws -> Bool {
        var flags = UInt32(espeakCHARS_UTF8)
        if phonemeInput { flags |= UInt32(espeakPHONEMES) }
        if endPause { flags |= UInt32(espeakENDPAUSE) }
        phonemeInputEnabled = phonemeInput
        let context = Unmanaged.passUnretained(receiver as AnyObject).toOpaque()
        let status = withExtendedLifetime(receiver) {
            text.withCString { pointer in
                espeak_ng_Synthesize(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0, flags, nil, context)
            }
        }
        if status == ENS_SPEECH_STOPPED { return false }
        guard status == ENS_OK else { throw SynthesisError.engineFailed(Self.message(for: status)) }
        return true
    }

    /// `espeak_TextToPhonemes`, called once per clause until the text is consumed.
    /// `mode` is espeak's phoneme mode (bit 1 IPA, bits 8–23 the separator).
    func textToPhonemes(_ text: String, mode: Int32, phonemeInput: Bool) throws -> [String] {
        try setPhonemeInput(phonemeInput)
        var clauses: [String] = []
        text.withCString { start in
            var cursor: UnsafeRawPointer? = UnsafeRawPointer(start)
            while let current = cursor, UnsafePointer<CChar>(current.assumingMemoryBound(to: CChar.self)).pointee != 0 {
                guard let output = espeak_TextToPhonemes(&cursor, espeakCHARS_UTF8, mode) else { break }
                clauses.append(String(cString: output))
            }
        }
        return clauses
    }

    /// espeak reads `[[…]]` as phonemes only while the global option set by the last
    /// synthesis says so; an empty synthesis sets it without making a sound.
    private func setPhonemeInput(_ enabled: Bool) throws {
        guard enabled != phonemeInputEnabled else { return }
        let flags = UInt32(espeakCHARS_UTF8) | (enabled ? UInt32(espeakPHONEMES) : 0)
        let status = espeak_ng_Synthesize("", 1, 0, POS_CHARACTER, 0, flags, nil, nil)
        guard status == ENS_OK else { throw SynthesisError.engineFailed(Self.message(for: status)) }
        phonemeInputEnabled = enabled
    }

    /// `espeak_ng_GetStatusCodeMessage`: espeak's own words for a status.
    static func message(for status: espeak_ng_STATUS) -> String {
        var buffer = [CChar](repeating: 0, count: 512)
        espeak_ng_GetStatusCodeMessage(status, &buffer, buffer.count)
        let text = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return text.isEmpty ? "status \(status.rawValue)" : text
    }

    /// Reads espeak's voice entry; `languages` is packed as priority byte, name, NUL, …, NUL.
    private static func listed(_ entry: espeak_VOICE) -> ListedVoice {
        var languages: [String] = []
        var priorities: [Int] = []
        if var cursor = entry.languages {
            while cursor.pointee != 0 {
                let name = String(cString: cursor + 1)
                languages.append(name)
                priorities.append(Int(UInt8(bitPattern: cursor.pointee)))
                cursor += name.utf8.count + 2
            }
        }
        return ListedVoice(name: entry.name.map { String(cString: $0) } ?? "",
                           languages: languages,
                           file: entry.identifier.map { String(cString: $0) } ?? "",
                           gender: Int(entry.gender), priorities: priorities)
    }
}

/// espeak's synthesis callback: a plain C function that finds its receiver in `user_data`.
/// Returning 1 makes espeak stop with `ENS_SPEECH_STOPPED`.
private func synthesisCallback(_ wav: UnsafeMutablePointer<Int16>?, _ count: Int32,
                               _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let context = events.pointee.user_data else { return 0 }
    let receiver = Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue() as! any SynthesisReceiver
    let samples = UnsafeBufferPointer(start: wav, count: wav == nil ? 0 : Int(count))
    return receiver.receive(samples: samples, events: engineEvents(events)) ? 1 : 0
}

/// The events of one callback, up to `espeakEVENT_LIST_TERMINATED`.
private func engineEvents(_ events: UnsafeMutablePointer<espeak_EVENT>) -> [EngineEvent] {
    var list: [EngineEvent] = []
    var cursor = events
    while cursor.pointee.type != espeakEVENT_LIST_TERMINATED {
        switch cursor.pointee.type {
        case espeakEVENT_WORD:
            list.append(.word(position: Int(cursor.pointee.text_position), length: Int(cursor.pointee.length)))
        case espeakEVENT_SENTENCE: list.append(.sentence)
        case espeakEVENT_END: list.append(.end)
        default: break
        }
        cursor += 1
    }
    return list
}
