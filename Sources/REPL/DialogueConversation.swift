import Dialogue
import Foundation
import ParleyCore

/// A dialogue as the REPL drives it: a typed line is a turn of the side whose turn it is, an
/// empty line on a terminal the end-of-turn key, and `:` lines the commands `CommandParser` reads.
extension TurnCoordinator: Conversation {
    func waitForPipedLine() async {
        await waitUntilReady()
    }

    func interrupt() async -> [LineAnswer] {
        await cancel()
        return []
    }

    func answer(_ line: String, in context: LineContext) async -> [LineAnswer] {
        if line.hasPrefix(":") {
            switch CommandParser.parse(line) {
            case let .success(command): return await execute(command, context.services)
            case let .failure(error): return [.error("\(error)")]
            }
        }
        if line.isEmpty, context.interactive {
            await endTurn()
        } else {
            await submitTyped(line)
        }
        return []
    }

    /// Runs a command; `:quit` answers `.leave`.
    private func execute(_ command: ReplCommand, _ services: ReplServices) async -> [LineAnswer] {
        switch command {
        case .quit:
            await stop()
            return [.leave]
        case let .help(command): return [.line(CommandParser.helpText(for: command))]
        case .swap: await swap()
        case let .locale(side, text): return await changeLocale(side, text, services)
        case let .voice(side, identifier): await setVoice(identifier, for: side)
        case let .rate(side, rate): setRate(rate, for: side)
        case let .mode(mode): await setMode(mode)
        case let .turns(turns): await setTurnTaking(turns)
        case .flip: await flip()
        case let .say(text): await say(text)
        case .repeatLast: await repeatLast()
        case let .dictionary(arguments): return [.line(await services.dictionary(arguments))]
        case let .glossary(arguments): return [.line(await services.glossary(arguments))]
        case let .transcript(path): return showOrSwitchTranscript(path)
        case .languages: return [.line(await services.languages())]
        case let .correction(on): setCorrection(on)
        case let .bargeIn(on): await setBargeIn(on)
        case let .simultaneous(on): setSimultaneous(on)
        case let .recognizer(side, name):
            return [.line(await services.recognizer(configuration[.a].locale, configuration[.b].locale, side, name))]
        case let .phrases(text): return [.line(await services.phrases(text))]
        }
        return []
    }

    private func changeLocale(_ side: DialogueSide, _ text: String, _ services: ReplServices) async -> [LineAnswer] {
        do {
            await setLocale(try services.resolveLocale(text), for: side)
            return []
        } catch {
            return [.error("\(error)")]
        }
    }

    private func showOrSwitchTranscript(_ path: String?) -> [LineAnswer] {
        if let path {
            switchTranscript(to: (path as NSString).expandingTildeInPath)
            return []
        }
        return [.line(transcriptPath.map { "transcript: \($0)" } ?? "the transcript is not being written; :transcript FILE starts it")]
    }
}
