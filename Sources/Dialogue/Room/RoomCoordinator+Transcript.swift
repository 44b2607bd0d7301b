import ParleyCore

/// The room's transcript: one JSON line per utterance, written once its translations are
/// known (before they are spoken, so a crash while speaking loses none of it):
///
/// ```json
/// {"room":true,"utterance":1,"party":1,"locale":"en-US","input":"speech","text":"Where is the station?",
///  "confidence":0.91,"speech_start":3.2,"speech_end":4.9,"recognized":5.6,
///  "translations":[{"parties":[2],"locale":"fr-FR","text":"Où est la gare ?","pivots":[],"unknown_words":[],
///  "translated":5.7}],"away":[]}
/// ```
///
/// Times are seconds on the room's clock. `away` names the parties who were away when it
/// was said: they did not hear it. An utterance interpreted while spoken adds
/// `"simultaneous":true` and its `clauses`, each with its text, `source_start`, `source_end`,
/// `committed`, `tail` and its own `translations`; the utterance's translations are theirs joined.
extension RoomCoordinator {
    func writeTranscript(_ utterance: RoomUtterance, _ translations: [RoomTranslation], clauses: [RoomClause]? = nil) {
        var json = JSONLine()
        json.field("room", object: "true")
        json.field("utterance", number: Double(utterance.number))
        json.field("party", number: Double(utterance.party))
        json.field("locale", string: utterance.locale.description)
        json.field("input", string: utterance.input.rawValue)
        json.field("text", string: utterance.text)
        json.field("confidence", number: utterance.confidence)
        json.field("speech_start", number: utterance.speechStart)
        json.field("speech_end", number: utterance.speechEnd)
        json.field("recognized", number: utterance.recognized)
        json.field("translations", object: "[" + translations.map(Self.line).joined(separator: ",") + "]")
        let away = parties.indices.filter { parties[$0].away }.map { String($0 + 1) }
        json.field("away", object: "[" + away.joined(separator: ",") + "]")
        if let clauses {
            json.field("simultaneous", object: "true")
            json.field("clauses", object: "[" + clauses.map(Self.line).joined(separator: ",") + "]")
        }
        if let report = transcript.report(transcript.append(json.finished)) { emit(report.event()) }
    }

    private static func line(_ translation: RoomTranslation) -> String {
        var json = JSONLine()
        json.field("parties", object: "[" + translation.parties.map(String.init).joined(separator: ",") + "]")
        json.field("locale", string: translation.locale.description)
        if let text = translation.text { json.field("text", string: text) } else { json.field("text", object: "null") }
        json.field("pivots", strings: translation.pivots)
        json.field("unknown_words", strings: translation.unknownWords)
        if let failure = translation.failure { json.field("failure", string: failure) }
        json.field("translated", number: translation.translated)
        return json.finished
    }

    private static func line(_ clause: RoomClause) -> String {
        var json = JSONLine()
        json.field("text", string: clause.text)
        json.field("source_start", number: clause.sourceStart)
        json.field("source_end", number: clause.sourceEnd)
        json.field("committed", number: clause.committed)
        json.field("tail", object: clause.isTail ? "true" : "false")
        json.field("translations", object: "[" + clause.translations.map(Self.line).joined(separator: ",") + "]")
        return json.finished
    }
}
