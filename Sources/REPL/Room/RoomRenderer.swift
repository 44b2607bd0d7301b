public import Dialogue
import ParleyCore

/// Turns a room's events into screen actions: one line per utterance, translation, party
/// away or back; on a terminal, what a party is saying goes to the status line.
public struct RoomRenderer: Sendable {
    /// Whether the output is a terminal with a prompt and a status line.
    public let interactive: Bool
    /// Colours, or none.
    public let style: ConsoleStyle
    /// The party typed lines go to, shown in the prompt.
    public var typingAs = 1
    private var locales: [Int: LocaleTag] = [:]
    private var partials: [Int: String] = [:]

    /// Creates a renderer.
    public init(interactive: Bool, style: ConsoleStyle) {
        self.interactive = interactive
        self.style = style
    }

    /// The prompt: the party typed lines go to.
    public var prompt: String {
        let locale = locales[typingAs].map { " \($0)" } ?? ""
        return style.paintPrompt("\(typingAs)\(locale)", .bold) + " " + style.paintPrompt("room", .cyan) + "> "
    }

    /// The actions for `event`.
    public mutating func render(_ event: RoomEvent) -> [EditorAction] {
        switch event {
        case let .joined(party, locale, place, reason):
            locales[party] = locale
            let typedOnly = reason.map { " — typed only: \($0)" } ?? ""
            return [.line(style.paint("party \(party): \(locale) on \(place)\(typedOnly)", .dim))]
        case .ready:
            let hint = "speak, or type @N TEXT for party N (1–\(locales.count)); :as N types as N; :parties; :quit"
            return [.line(style.paint("the room is open: \(hint)", .dim)), .prompt(prompt)]
        case .speechStarted:
            return []
        case let .partial(party, text):
            guard interactive else { return [] }
            partials[party] = text
            return [.status(statusLine)]
        case let .heard(utterance):
            partials[utterance.party] = nil
            let how = utterance.input == .typed ? "typed"
                : utterance.confidence.map { "heard, confidence \(Int(($0 * 100).rounded()))%" } ?? "heard"
            return clearing + [.line(style.paint("\(utterance.party) \(utterance.locale):", .bold) + " \(utterance.text) "
                                     + style.paint("(\(how))", .dim))]
        case let .translated(_, translation):
            let listeners = translation.parties.map(String.init).joined(separator: ", ")
            guard let text = translation.text else {
                return [.line(style.paint("→ \(listeners) \(translation.locale): not translated: \(translation.failure ?? "unknown")", .red))]
            }
            let pivots = translation.pivots.isEmpty ? "" : style.paint(" (through \(translation.pivots.joined(separator: ", ")))", .dim)
            let unknown = translation.unknownWords.isEmpty ? ""
                : style.paint(" (unknown: \(translation.unknownWords.joined(separator: ", ")))", .dim)
            return [.line(style.paint("→ \(listeners) \(translation.locale): \(text)", .green) + pivots + unknown)]
        case .speaking:
            return []
        case let .notSpoken(number, party, reason):
            return [.line(style.paint("utterance \(number) was not spoken to party \(party): \(reason)", .dim))]
        case let .away(party, reason):
            return [.line(style.paint("party \(party) is away: \(reason); the room goes on", .yellow))]
        case let .back(party):
            return [.line(style.paint("party \(party) is back", .yellow))]
        case let .notice(text):
            return [.line(style.paint(text, .dim))]
        case let .error(text):
            return [.line(style.paint("error: \(text)", .red))]
        case .ended:
            return clearing
        }
    }

    private var statusLine: String? {
        let lines = partials.sorted { $0.key < $1.key }.map { "\($0.key) … \($0.value)" }
        return lines.isEmpty ? nil : lines.joined(separator: "   ")
    }

    private var clearing: [EditorAction] {
        guard interactive else { return [] }
        return [.status(statusLine)]
    }
}
