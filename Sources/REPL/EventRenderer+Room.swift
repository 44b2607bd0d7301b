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
        case let .heard(utterance):
            partials[utterance.party] = nil
            return showingPartials + [utteranceLine("\(utterance.party) \(utterance.locale)", utterance.text,
                                                    utterance.input, utterance.confidence)]
        case let .translated(_, translation):
            let listeners = translation.parties.map(String.init).joined(separator: ", ") + " \(translation.locale)"
            guard let text = translation.text else {
                return [line("→ \(listeners): not translated: \(translation.failure ?? "unknown")", .red)]
            }
            let pivots = translation.pivots.isEmpty ? [] : ["through \(translation.pivots.joined(separator: ", "))"]
            return [translationLine(listeners, text, notes: pivots + Self.unknownNote(translation.unknownWords))]
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
