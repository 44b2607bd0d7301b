import Dialogue
import Foundation
import ParleyCore

/// A room as the REPL drives it: `@N TEXT` says TEXT as party N, a plain line is said as the
/// party `:as N` chose (party 1 at first), and `:parties`, `:help` and `:quit` are its commands.
extension RoomCoordinator: Conversation {
    /// The room's commands, as `:help` shows them.
    static let help = """
        @N TEXT     say TEXT as party N (typed): it is translated for and spoken to everyone else
        TEXT        say TEXT as the party :as chose (party 1 at first)
        :as N       type as party N from now on
        :parties    every party: language, where they are reached, here or away
        :quit       end the room (Ctrl-D too)
        """

    func waitForPipedLine() async {
        await waitUntilSettled()
    }

    func interrupt() async -> [LineAnswer] {
        [.note("(Ctrl-C does not end a room: :quit or Ctrl-D does)")]
    }

    func answer(_ line: String, in context: LineContext) async -> [LineAnswer] {
        guard !line.isEmpty else { return [] }
        if line.hasPrefix(":") { return await command(line) }
        guard line.hasPrefix("@") else {
            await type(line, as: context.typingAs)
            return []
        }
        let rest = line.dropFirst()
        let digits = rest.prefix { $0.isNumber }
        let text = rest.dropFirst(digits.count)
        guard let party = Int(digits), text.first?.isWhitespace == true || text.isEmpty else {
            return [.error("write @N TEXT, with N a party's number (1–\(locales.count)), as in @2 Bonjour")]
        }
        guard locales.indices.contains(party - 1) else {
            return [.error("there is no party \(party) (parties 1–\(locales.count))")]
        }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return [.error("@\(party) needs a text to say")] }
        await type(String(text), as: party)
        return []
    }

    private func command(_ line: String) async -> [LineAnswer] {
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch words[0] {
        case ":quit", ":q", ":exit":
            await stop()
            return [.leave]
        case ":as":
            guard words.count == 2, let party = Int(words[1]), locales.indices.contains(party - 1) else {
                return [.error(":as takes a party's number, 1–\(locales.count)")]
            }
            return [.typeAs(party), .note("typing as party \(party) (\(locales[party - 1]))")]
        case ":parties", ":who":
            return locales.indices.map { .line("party \($0 + 1): \(locales[$0]), \(isAway($0 + 1) ? "away" : "here")") }
        case ":help", ":h", ":?":
            return [.line(Self.help)]
        default:
            return [.error("\(words[0]) is not a room command (:help lists them)")]
        }
    }
}
