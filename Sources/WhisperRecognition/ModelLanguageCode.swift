public import ParleyCore

/// The language code a recognition model uses for a BCP 47 language where the
/// two differ: Whisper knows Norwegian as `no` (BCP 47 `nb`, `nn`), Javanese as
/// `jw` (`jv`) and Chinese as `zh` (`cmn`, the Mandarin eSpeak NG speaks).
public enum ModelLanguageCode {
    /// BCP 47 language → the code Whisper's vocabulary has.
    static let whisper: [String: String] = ["nb": "no", "nn": "no", "jv": "jw", "cmn": "zh"]

    /// The code Whisper uses for `language`; `language` itself where they agree.
    public static func whisper(_ language: String) -> String {
        whisper[language.lowercased()] ?? language.lowercased()
    }

    /// Whether a Whisper model whose vocabulary has `languages` (Whisper's codes, as the
    /// worker lists them) hears `locale`: the one answer for every caller (the dialogue's
    /// sides, hands-free turns, `listen`, `languages`, `doctor`), so nb-NO is heard as `no`.
    public static func whisperServes(_ locale: LocaleTag, languages: some Sequence<String>) -> Bool {
        let code = whisper(locale.language)
        return languages.contains { $0.lowercased() == code }
    }

    /// The BCP 47 language for a Whisper code: `jw` → `jv`; other codes are BCP 47 already.
    public static func language(fromWhisper code: String) -> String {
        code == "jw" ? "jv" : code
    }
}
