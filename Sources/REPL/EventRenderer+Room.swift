public import Dialogue
import ParleyCore

extension EventRenderer {
    /// The actions for a room's `event`: one line per utterance, translation, party away or
    /// back; on a terminal, what the parties are saying goes to the status line.
    public mutating func render(_ event: RoomEvent) -> [EditorAction] {
        switch event {
        case let .joined(party, locale, place, reason):
            locales[String(party)] = locale
            return [line("party \(party): \(locale) on \(place)\(Self.typedOnly(reason))", .dim)]
        case .ready:
            type(as: typingAs)
            let hint = "speak, or type @N TEXT for party N (1–\(locales.count)); :as N types as N; :parties; :quit"
            return [line("the room is open: \(hint)", .dim), .prompt(prompt)]
        case .speechStarted, .speaking:
            return []
        case let .partial(party, text):
            guard interactive else { return [] }
            partials[party] = text
            return [.status(partialsLine)]
        case let .clause(_, party, text, translations):
            partials[party] = nil
            return showingPartials + [line("\(party) \(locales[String(party)].map { "\($0) " } ?? "")… \(text)", .dim)]
                + translations.map { translationLine(for: $0, clause: true) }
        case let .bargeIn(party):
            return [line("party \(party) speaks over the translation: holding it…", .yellow)]
        case let .bargeInDismissed(party, reason):
            return [line("not an interruption by party \(party) (\(reason)); the translation plays on", .dim)]
        case let .interrupted(number, party, played):
            return [line("party \(party) interrupted utterance \(number) after \((played * 10).rounded() / 10) s", .yellow)]
        case let .heard(utterance):
            partials[utterance.party] = nil
            return showingPartials + [utteranceLine("\(utterance.party) \(utterance.locale)", utterance.text,
                                                    utterance.input, utterance.confidence)]
        case let .translated(_, translation):
            return [translationLine(for: translation)]
        case let .notSpoken(number, party, reason):
            return [line("utterance \(number) was not spoken to party \(party): \(reason)", .dim)]
        case let .away(party, reason):
            return [line("party \(party) is away: \(reason); the room goes on", .yellow)]
        case let .back(party):
            return [line("party \(party) is back", .yellow)]
        case let .notice(text):
            return [line(text, .dim)]
        case let .error(text):
            return [error(text)]
        case .ended:
            return showingPartials
        }
    }

    /// `→ 2, 3 es-ES: …` with its notes, or why there is no translation; a clause's
    /// (`→ 2, 3 es-ES … …`) tells itself from the utterance's whole translation.
    private func translationLine(for translation: RoomTranslation, clause: Bool = false) -> EditorAction {
        let listeners = translation.parties.map(String.init).joined(separator: ", ") + " \(translation.locale)"
        guard let text = translation.text else {
            return line("→ \(listeners)\(clause ? " …" : ""): not translated: \(translation.failure ?? "unknown")", .red)
        }
        let pivots = translation.pivots.isEmpty ? [] : ["through \(translation.pivots.joined(separator: ", "))"]
        return translationLine(listeners, text, notes: pivots + Self.unknownNote(translation.unknownWords), separator: clause ? " …" : ":")
    }

    /// What each party is saying, in the order of their numbers; nil when none is.
    private var partialsLine: String? {
        let lines = partials.sorted { $0.key < $1.key }.map { "\($0.key) … \($0.value)" }
        return lines.isEmpty ? nil : lines.joined(separator: "   ")
    }

    /// On a terminal, the status line with what the parties are still saying.
    private var showingPartials: [EditorAction] {
        interactive ? [.status(partialsLine)] : []
    }
}
