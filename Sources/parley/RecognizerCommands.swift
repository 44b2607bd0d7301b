import Dialogue
import Foundation
import ParleyCore
import Recognition
import WhisperRecognition

/// `:recognizer`: which recognizer hears each side, or a choice for one side.
func recognizerCommand(_ router: RecognizerRouter?, sides: [DialogueSide: LocaleTag],
                       side: DialogueSide?, name: String?) async -> String {
    guard let router else { return "speech recognition is off in this conversation" }
    if let side, let name, let kind = RecognizerKind(rawValue: name), let locale = sides[side] {
        guard await router.canServe(kind, locale) else {
            return "error: \(name) cannot recognize \(locale) here"
                + (kind == .whisper && router.whisper == nil
                    ? (router.whisperLeftOut ? " (--recognizer pocketsphinx left Whisper out of this conversation)"
                                             : " (Whisper is not installed: run make models)")
                    : "")
        }
        router.choose(kind, for: locale)
        return "side \(side) (\(locale)) is now recognized by \(name)"
    }
    var lines: [String] = []
    for side in [DialogueSide.a, .b] {
        guard let locale = sides[side] else { continue }
        let engine = await router.engine(for: locale).map(\.rawValue) ?? "none (typed only)"
        lines.append("side \(side) (\(locale)): \(engine)")
    }
    return lines.joined(separator: "\n")
}

/// `:phrases`: shows, sets (comma-separated) or clears the phrases Whisper favours.
func phrasesCommand(_ router: RecognizerRouter?, _ text: String?) async -> String {
    guard let whisper = router?.whisper else { return "phrases guide Whisper, which is not in use in this conversation" }
    guard let text else {
        let phrases = whisper.phrases
        return phrases.isEmpty ? "no phrases; :phrases Dashwood, Barton Park sets some" : "phrases: " + phrases.joined(separator: ", ")
    }
    if text.lowercased() == "clear" {
        whisper.setPhrases([])
        return "phrases cleared"
    }
    let phrases = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    whisper.setPhrases(phrases)
    return "phrases: " + phrases.joined(separator: ", ")
}
