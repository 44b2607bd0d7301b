import Dialogue
import ParleyCore
import REPL
import Testing

@Suite("Rendering events")
struct EventRendererTests {
    static let english = LocaleTag("en-US")!
    static let spanish = LocaleTag("es-ES")!

    static let conversation: [DialogueEvent] = [
        .turnStarted(side: .a, locale: english, typedOnlyReason: nil),
        .stateChanged(.listening(.a)),
        .level(.a, AudioLevel(rms: 0.1, peak: 0.3)),
        .speechStarted(.a),
        .partial(.a, "where is"),
        .level(.a, AudioLevel(rms: 0.01, peak: 0.1)),
        .stateChanged(.recognizing(.a)),
        .transcript(side: .a, text: "where is the station", input: .speech, confidence: 0.61),
        .stateChanged(.translating(.a)),
        .translation(side: .a, target: spanish, text: "dónde es la estación", unknownWords: []),
        .stateChanged(.speaking(.b)),
        .speaking(side: .b, text: "dónde es la estación"),
        .spoken(.b),
        .turnStarted(side: .b, locale: spanish, typedOnlyReason: "no speech model for es-ES (installed: en-US)"),
        .stateChanged(.idle(.b)),
        .error("translation failed: the process died"),
    ]

    private func render(_ events: [DialogueEvent], interactive: Bool, colours: Bool = false) -> [EditorAction] {
        var renderer = EventRenderer(interactive: interactive, style: ConsoleStyle(colours: colours))
        return events.flatMap { renderer.render($0) }
    }

    @Test func onAPipeEachEventWorthALineGetsOnePlainLine() {
        let actions = render(Self.conversation, interactive: false)
        let lines = actions.compactMap { if case let .line(text) = $0 { text } else { nil } }
        #expect(lines == [
            "A (en-US), your turn",
            "A … where is",
            "A en-US: where is the station (heard, confidence 61%)",
            "→ es-ES: dónde es la estación",
            "speaking to B…",
            "B (es-ES), your turn — typed only: no speech model for es-ES (installed: en-US)",
            "error: translation failed: the process died",
        ])
        #expect(!actions.contains { if case .status = $0 { true } else { false } })
        #expect(!lines.joined().contains("\u{1B}"))
    }

    @Test func onATerminalLevelsAndPartialsGoToTheStatusLine() {
        let actions = render(Self.conversation, interactive: true)
        let statuses = actions.compactMap { if case let .status(text) = $0 { text } else { nil as String?? } }
        #expect(statuses == ["A ▮▮▮▮▮▮▮▯▯▯ ", "A ▮▮▮▮▮▮▮▯▯▯ where is", "A ▮▮▮▯▯▯▯▯▯▯ where is", nil])
        #expect(actions.contains(.prompt("B idle> ")) == false)
        #expect(actions.contains(.prompt("B es-ES idle> ")))
        #expect(actions.contains(.prompt("A en-US listening> ")))
    }

    @Test func aPivotedTranslationNamesItsRouteAndADirectOneDoesNot() {
        let pivoted = render([.translation(side: .a, target: Self.english, text: "Good morning.", unknownWords: ["xyzzy"],
                                           route: ["fr", "es", "en"])], interactive: false)
        #expect(pivoted == [.line("→ en-US: Good morning. (pivoted: fr → es → en) (unknown: xyzzy)")])
        let direct = render([.translation(side: .a, target: Self.english, text: "Good morning.", unknownWords: [],
                                          route: [])], interactive: false)
        #expect(direct == [.line("→ en-US: Good morning.")])
    }

    @Test func correctionOffersTheLineOnATerminal() {
        let events: [DialogueEvent] = [.turnStarted(side: .a, locale: Self.english, typedOnlyReason: nil),
                                       .correctionOffered(side: .a, text: "wear is it", alternatives: ["where is it"])]
        let actions = render(events, interactive: true)
        #expect(actions.contains(.line("  1 wear is it")) && actions.contains(.line("  2 where is it")))
        #expect(actions.last == .offer("wear is it"))
    }

    @Test func coloursOnlyWhenEnabledAndNeverWithNoColor() {
        let coloured = render([.error("boom")], interactive: true, colours: true)
        #expect(coloured == [.line("\u{1B}[31merror: boom\u{1B}[0m")])
        #expect(ConsoleStyle.detect(environment: ["NO_COLOR": "1"]).colours == false)
        let plain = render([.error("boom")], interactive: true, colours: false)
        #expect(plain == [.line("error: boom")])
    }

    @Test func colouredPromptsMarkTheirEscapesForReadline() {
        var renderer = EventRenderer(interactive: true, style: ConsoleStyle(colours: true))
        _ = renderer.render(.turnStarted(side: .a, locale: Self.english, typedOnlyReason: nil))
        #expect(renderer.prompt.contains("\u{01}\u{1B}[1m\u{02}A en-US\u{01}\u{1B}[0m\u{02}"))
    }
}
