import Dialogue
import ParleyCore
import REPL
import Testing

@Suite("Command parsing")
struct CommandParserTests {
    private func parsed(_ line: String) -> ReplCommand? { try? CommandParser.parse(line).get() }
    private func error(_ line: String) -> String? {
        if case let .failure(error) = CommandParser.parse(line) { return error.message }
        return nil
    }

    @Test func everyCommandParses() {
        #expect(parsed(":swap") == .swap)
        #expect(parsed(":a fr") == .locale(.a, "fr"))
        #expect(parsed(":B Spanish") == .locale(.b, "Spanish"))
        #expect(parsed(":lang A fr") == .locale(.a, "fr"))
        #expect(parsed(":Language b Spanish") == .locale(.b, "Spanish"))
        #expect(parsed(":voice b roa/es") == .voice(.b, "roa/es"))
        #expect(parsed(":rate A 0.75") == .rate(.a, 0.75))
        #expect(parsed(":mode manual") == .mode(.manual))
        #expect(parsed(":mode auto") == .mode(.automatic))
        #expect(parsed(":say  Hello,  world ") == .say("Hello,  world"))
        #expect(parsed(":repeat") == .repeatLast)
        #expect(parsed(":dict add en tomato təˈmɑːtoʊ") == .dictionary(["add", "en", "tomato", "təˈmɑːtoʊ"]))
        #expect(parsed(":transcript") == .transcript(nil))
        #expect(parsed(":transcript /tmp/t.jsonl") == .transcript("/tmp/t.jsonl"))
        #expect(parsed(":languages") == .languages)
        #expect(parsed(":correct on") == .correction(true))
        #expect(parsed(":correct OFF") == .correction(false))
        #expect(parsed(":barge-in on") == .bargeIn(true))
        #expect(parsed(":barge-in Off") == .bargeIn(false))
        #expect(parsed(":simultaneous on") == .simultaneous(true))
        #expect(parsed(":simultaneous OFF") == .simultaneous(false))
        #expect(parsed(":help") == .help(nil))
        #expect(parsed(":help turns") == .help("turns"))
        #expect(parsed(":help :Turns") == .help("turns"))
        #expect(parsed(":quit") == .quit)
        #expect(parsed(":recognizer") == .recognizer(nil, nil))
        #expect(parsed(":recognizer b PocketSphinx") == .recognizer(.b, "pocketsphinx"))
        #expect(parsed(":phrases") == .phrases(nil))
        #expect(parsed(":phrases Elinor, Norland Park") == .phrases("Elinor, Norland Park"))
    }

    @Test func recognizerNamesAreChecked() {
        #expect(error(":recognizer A vosk") == "the recognizer is whisper or pocketsphinx, not 'vosk'")
        #expect(error(":recognizer C whisper") == "usage: :recognizer [A|B whisper|pocketsphinx]")
    }

    @Test func wrongArgumentsGiveTheUsage() {
        #expect(error(":voice C en-us") == "usage: :voice A|B ID")
        #expect(error(":mode sometimes") == "usage: :mode auto|manual")
        #expect(error(":barge-in maybe") == "usage: :barge-in on|off")
        #expect(error(":swap now") == "usage: :swap")
        #expect(error(":a") == "usage: :a LOCALE")
        #expect(error(":say") == "usage: :say TEXT")
        #expect(error(":rate A fast") == "the rate must be a number from 0 to 1 (0.5 is normal), not 'fast'")
        #expect(error(":rate B 1.5")?.hasPrefix("the rate must be a number from 0 to 1") == true)
    }

    @Test func anUnknownCommandGetsASuggestion() {
        #expect(error(":swpa") == "unknown command ':swpa'; did you mean :swap? (:help lists them)")
        #expect(error(":lang") == "usage: :a LOCALE or :b LOCALE (or :lang A|B LOCALE); :languages lists the locales served here")
        #expect(error(":locale C fr") == "usage: :a LOCALE or :b LOCALE (or :locale A|B LOCALE); :languages lists the locales served here")
        #expect(error(":transcipt")?.contains("did you mean :transcript?") == true)
        #expect(error(":xylophone") == "unknown command ':xylophone'; :help lists the commands")
    }

    @Test func helpListsEveryCommand() {
        for name in CommandParser.commandNames {
            #expect(CommandParser.helpText().contains("\n\(name) ") || CommandParser.helpText().hasPrefix("\(name) "))
        }
    }

    @Test("`:help COMMAND` gives that command's line of the list, and names a command it does not know")
    func helpForOneCommand() {
        let list = CommandParser.helpText().split(separator: "\n").map(String.init)
        for name in ["turns", "flip", "dict", "help"] {
            let line = CommandParser.helpText(for: name)
            #expect(!line.contains("\n"))
            let listed = list.first { $0.hasPrefix(":\(name) ") }
            // The same words as the list's line, without its column padding.
            #expect(listed?.split(separator: " ", omittingEmptySubsequences: true)
                    == line.split(separator: " ", omittingEmptySubsequences: true), "\(name)")
        }
        #expect(error(":help swpa") == "unknown command ':swpa'; did you mean :swap? (:help lists them)")
        #expect(error(":help turns flip") == "usage: :help [COMMAND]")
    }
}

@Suite("Tab completion")
struct CompleterTests {
    let completer = Completer(source: CompletionSource(locales: ["en-US", "es-ES", "fr-FR", "Spanish"],
                                                       voices: ["en-us", "es", "roa/es"],
                                                       dictionaryWords: { ["tomato", "tomatillo", "potato"] }))

    @Test func commandsCompleteAtTheStart() {
        #expect(completer.candidates(before: "", word: ":s") == [":say", ":simultaneous", ":swap"])
        #expect(completer.candidates(before: "", word: ":tr") == [":transcript"])
    }

    @Test func argumentsCompleteByCommand() {
        #expect(completer.candidates(before: ":a ", word: "e") == ["en-US", "es-ES"])
        #expect(completer.candidates(before: ":b ", word: "sp") == ["Spanish"])
        #expect(completer.candidates(before: ":voice ", word: "") == ["A", "B"])
        #expect(completer.candidates(before: ":voice B ", word: "e") == ["en-us", "es"])
        #expect(completer.candidates(before: ":mode ", word: "m") == ["manual"])
        #expect(completer.candidates(before: ":correct ", word: "o") == ["off", "on"])
        #expect(completer.candidates(before: ":turns ", word: "") == ["alternate", "auto"])
        #expect(completer.candidates(before: ":recognizer ", word: "") == ["A", "B"])
        #expect(completer.candidates(before: ":recognizer A ", word: "w") == ["whisper"])
        #expect(completer.candidates(before: ":help ", word: "tr") == ["transcript"])
        #expect(completer.candidates(before: ":dict ", word: "l") == ["list", "lookup"])
        #expect(completer.candidates(before: ":dict add ", word: "") == ["en", "es", "fr"])
        #expect(completer.candidates(before: ":dict add en ", word: "tom") == ["tomatillo", "tomato"])
    }

    @Test func typedTextCompletesDictionaryWords() {
        #expect(completer.candidates(before: "I like ", word: "Pot") == ["potato"])
        #expect(completer.candidates(before: "", word: "tomato") == ["tomato"])
    }
}

@Suite("Hands-free commands")
struct HandsFreeCommandTests {
    private func error(_ line: String) -> String? {
        if case let .failure(error) = CommandParser.parse(line) { return error.message }
        return nil
    }

    @Test func turnsAndFlipParse() throws {
        #expect(try CommandParser.parse(":turns auto").get() == .turns(.auto))
        #expect(try CommandParser.parse(":turns Alternate").get() == .turns(.alternate))
        #expect(try CommandParser.parse(":flip").get() == .flip)
        #expect(error(":turns sometimes") == "usage: :turns alternate|auto")
        #expect(error(":flip A") == "usage: :flip")
        #expect(CommandParser.helpText().contains(":flip"))
    }

    @Test func theAssignmentLineSaysTheSideAndHowSure() {
        var renderer = EventRenderer(interactive: false, style: ConsoleStyle(colours: false))
        let spanish = LocaleTag("es-ES")!
        #expect(renderer.render(.sideAssigned(side: .b, locale: spanish, confidence: 0.976, flipped: false, basis: .language))
                == [.line("heard side B (es-ES), 97% sure — :flip if it was A")])
        #expect(renderer.render(.sideAssigned(side: .b, locale: spanish, confidence: 0.976, flipped: true, basis: .flip))
                == [.line("flipped: side B (es-ES) said it")])
        // The same short words in both languages: the language is no surer of one side than a coin.
        #expect(renderer.render(.sideAssigned(side: .b, locale: spanish, confidence: 0.5, flipped: false, basis: .voice))
                == [.line("heard side B (es-ES), by voice (the same words in both languages) — :flip if it was A")])
        #expect(renderer.render(.sideAssigned(side: .a, locale: spanish, confidence: 0.5, flipped: false, basis: .turnOrder))
                == [.line("heard side A (es-ES), by the turn order (the same words in both languages) — :flip if it was B")])
    }
}
