import ParleyCore

/// An utterance's line in the room's transcript, written once its translations are known
/// (before they are spoken, so a crash while speaking loses none of it):
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
extension RoomUtterance {
    /// The utterance's transcript line, with its `translations`, the parties `away` (from 1) and,
    /// interpreted while spoken, its `clauses`.
    func jsonLine(_ translations: [RoomTranslation], away: [Int], clauses: [RoomClause]? = nil) -> String {
        var json = JSONLine()
        json.field("room", object: "true")
        json.field("utterance", number: Double(number))
        json.field("party", number: Double(party))
        json.field("locale", string: locale.description)
        json.field("input", string: input.rawValue)
        json.field("text", string: text)
        json.field("confidence", number: confidence)
        json.field("speech_start", number: speechStart)
        json.field("speech_end", number: speechEnd)
        json.field("recognized", number: recognized)
        json.field("translations", object: "[" + translations.map(\.jsonLine).joined(separator: ",") + "]")
        json.field("away", object: "[" + away.map(String.init).joined(separator: ",") + "]")
        if let clauses {
            json.field("simultaneous", object: "true")
            json.field("clauses", object: "[" + clauses.map(\.jsonLine).joined(separator: ",") + "]")
        }
        return json.finished
    }
}

extension RoomTranslation {
    /// The translation as an object of its utterance's or clause's line.
    var jsonLine: String {
        var json = JSONLine()
        json.field("parties", object: "[" + parties.map(String.init).joined(separator: ",") + "]")
        json.field("locale", string: locale.description)
        if let text { json.field("text", string: text) } else { json.field("text", object: "null") }
        json.field("pivots", strings: pivots)
        json.field("unknown_words", strings: unknownWords)
        if let failure { json.field("failure", string: failure) }
        json.field("translated", number: translated)
        return json.finished
    }
}

extension RoomClause {
    /// The clause as an object of its utterance's line.
    var jsonLine: String {
        var json = JSONLine()
        json.field("text", string: text)
        json.field("source_start", number: sourceStart)
        json.field("source_end", number: sourceEnd)
        json.field("committed", number: committed)
        json.field("tail", object: isTail ? "true" : "false")
        json.field("translations", object: "[" + translations.map(\.jsonLine).joined(separator: ",") + "]")
        return json.finished
    }
}
