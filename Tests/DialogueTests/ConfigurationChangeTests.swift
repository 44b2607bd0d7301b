@testable import Dialogue
import ParleyCore
import ParleyCoreFakes
import Testing

/// The settings as a part of their own: each change applies itself or is refused, leaving the
/// settings as they were, and says which in one line.
@Suite("Configuration changes")
struct ConfigurationChangeTests {
    private let english = LocaleTag("en-US")!
    private let spanish = LocaleTag("es-ES")!

    private var configuration: DialogueConfiguration {
        DialogueConfiguration(sideA: SideSettings(locale: english), sideB: SideSettings(locale: spanish))
    }

    private func refused(_ event: DialogueEvent) -> String? {
        if case let .error(message) = event { return message }
        return nil
    }

    @Test("a rate outside 0…1 is held to it, and the rate said is the one kept")
    func rateIsHeldToItsScale() {
        var settings = configuration
        #expect(settings.changeRate(1.7, for: .b) == .notice("side B is spoken to at rate 1.0") && settings.sideB.rate == 1)
        #expect(settings.changeRate(-3, for: .a) == .notice("side A is spoken to at rate 0.0") && settings.sideA.rate == 0)
        #expect(settings.sideB.rate == 1, "the other side keeps its rate")
    }

    @Test("barge-in and simultaneous interpretation are refused, with the reason, where they cannot work; off is never refused")
    func unavailableFeaturesAreRefused() {
        var settings = configuration
        settings.bargeInUnavailable = "no echo cancellation"
        settings.simultaneousUnavailable = "the microphone would hear the speaker"
        let before = settings
        #expect(refused(settings.changeBargeIn(true))?.hasSuffix(": no echo cancellation") == true)
        #expect(refused(settings.changeSimultaneous(true))?.hasSuffix(": the microphone would hear the speaker") == true)
        #expect(settings == before, "a refused change leaves the settings as they were")
        #expect(refused(settings.changeBargeIn(false)) == nil && refused(settings.changeSimultaneous(false)) == nil)

        var open = configuration
        #expect(refused(open.changeBargeIn(true)) == nil && open.bargeIn)
        #expect(refused(open.changeSimultaneous(true)) == nil && open.simultaneous)
    }

    @Test("simultaneous on with hands-free turns says that turns are still translated at their end")
    func simultaneousWithHandsFreeTurnsSaysSo() {
        var settings = configuration
        settings.turnTaking = .auto
        guard case let .notice(note) = settings.changeSimultaneous(true) else { Issue.record("refused"); return }
        #expect(note.contains("hands-free turns are still translated at their end"))
        settings.turnTaking = .alternate
        guard case let .notice(plain) = settings.changeSimultaneous(true) else { Issue.record("refused"); return }
        #expect(!plain.contains("hands-free"))
    }

    @Test("a voice the synthesizer lacks is refused with at most five of the side's language; with no synthesizer to ask it is kept")
    func unknownVoiceIsRefusedWithCloseOnes() throws {
        var settings = configuration
        let voices = ["es", "es-419", "es-x1", "es-x2", "es-x3", "es-x4", "en-us", "fr"]
        let message = try #require(refused(settings.changeVoice("klingon", for: .b, among: voices)))
        #expect(message == "unknown voice 'klingon'; voices for es: es, es-419, es-x1, es-x2, es-x3")
        #expect(settings.sideB.voice == nil)
        #expect(refused(settings.changeVoice("zz", for: .b, among: ["en-us"])) == "unknown voice 'zz'", "no voice of the language: no list")
        #expect(refused(settings.changeVoice("es-419", for: .b, among: voices)) == nil && settings.sideB.voice == .identifier("es-419"))
        #expect(refused(settings.changeVoice("anything", for: .a, among: nil)) == nil && settings.sideA.voice == .identifier("anything"))
    }

    @Test("a new locale drops the side's chosen voice for the locale's own")
    func newLocaleDropsTheVoice() {
        var settings = configuration
        settings.sideB.voice = .identifier("es-419")
        _ = settings.changeLocale(LocaleTag("pt-BR")!, for: .b)
        #expect(settings.sideB.locale == LocaleTag("pt-BR")! && settings.sideB.effectiveVoice == .locale(LocaleTag("pt-BR")!))
    }

    @Test("hands-free turns the recognizer cannot tell apart are refused and turns alternate")
    func handsFreeRefused() {
        var settings = configuration
        #expect(settings.changeTurnTaking(.auto, unavailable: "the recognizer hears one language at a time")
                == .notice("hands-free turns are off: the recognizer hears one language at a time; turns alternate"))
        #expect(settings.turnTaking == .alternate)
        _ = settings.changeTurnTaking(.auto, unavailable: nil)
        #expect(settings.turnTaking == .auto)
    }

    @Test("before the first turn: languages too alike by ear with barge-in, simultaneous with hands-free turns, and no speech output are said; separate devices need no turn-order note")
    func openingNotices() {
        var settings = DialogueConfiguration(sideA: SideSettings(locale: spanish), sideB: SideSettings(locale: LocaleTag("pt-PT")!))
        settings.bargeIn = true
        let shared = settings.openingNotices(separateDevices: false, canSpeak: true)
        #expect(shared.count == 1 && shared[0].hasPrefix("the floor follows the turn order: "))
        #expect(settings.openingNotices(separateDevices: true, canSpeak: true).isEmpty)
        #expect(configuration.openingNotices(separateDevices: false, canSpeak: true).isEmpty, "en/es tell apart by ear")
        var handsFree = configuration
        handsFree.simultaneous = true
        handsFree.turnTaking = .auto
        #expect(handsFree.openingNotices(separateDevices: false, canSpeak: false).count == 2)
        handsFree.speaksTranslations = false
        #expect(handsFree.openingNotices(separateDevices: false, canSpeak: false).count == 1, "muted: nothing to say about speech")
    }
}

@Suite("Translation notices")
struct TranslationNoticeTests {
    private let english = LocaleTag("en-US")!
    private let spanish = LocaleTag("es-ES")!

    @Test("each direction with no translation installed is named, the asked-about side's first; none missing, nothing is said")
    func missingDirectionsAreNamed() async {
        let step = TranslationStep(translator: FakeTranslator(missing: ["es-ES>en-US", "en-US>es-ES"]))
        let notices = await step.notices(between: spanish, and: english, noTranslator: true)
        #expect(notices == ["no translation from es-ES to en-US is installed; see `parley languages`",
                            "no translation from en-US to es-ES is installed; see `parley languages`"])
        #expect(await TranslationStep(translator: FakeTranslator()).notices(between: english, and: spanish, noTranslator: true).isEmpty)
    }

    @Test("two locales of one language pass words on as said, with no translation between them installed; no translator is said only where asked")
    func oneLanguageAndNoTranslator() async {
        let british = LocaleTag("en-GB")!
        let step = TranslationStep(translator: FakeTranslator(missing: ["en-US>en-GB", "en-GB>en-US"]))
        #expect(await step.notices(between: english, and: british, noTranslator: true)
                == ["en-US and en-GB are one language: what one side says is passed on to the other as it was said"])
        let none = TranslationStep(translator: nil)
        #expect(await none.notices(between: english, and: spanish, noTranslator: true).count == 1)
        #expect(await none.notices(between: english, and: spanish, noTranslator: false).isEmpty)
        #expect(await none.notices(between: english, and: english, noTranslator: false).count == 1, "one language needs no translator")
    }
}

@Suite("Where a typed line goes")
struct TypedLineTests {
    @Test("a line is the turn of a side that waits or listens; while a turn is translated, spoken or interpreted it waits for the next side; in correction it is the correction, even empty")
    func typedLineRoutes() {
        #expect(DialogueState.idle(.a).typedLine(empty: false, clausesReceived: false) == .turn(.a))
        #expect(DialogueState.listening(.b).typedLine(empty: false, clausesReceived: false) == .turn(.b))
        #expect(DialogueState.recognizing(.a).typedLine(empty: false, clausesReceived: false) == .turn(.a))
        #expect(DialogueState.recognizing(.a).typedLine(empty: false, clausesReceived: true) == .waits(for: .b),
                "its clauses are being spoken: A's turn goes on, and the line is B's next")
        #expect(DialogueState.interpreting(.a).typedLine(empty: false, clausesReceived: false) == .waits(for: .b))
        #expect(DialogueState.translating(.a).typedLine(empty: false, clausesReceived: false) == .waits(for: .b))
        #expect(DialogueState.speaking(.b).typedLine(empty: false, clausesReceived: false) == .waits(for: .b),
                "spoken to B, the next turn is B's")
        #expect(DialogueState.held(.b).typedLine(empty: false, clausesReceived: false) == .waits(for: .b))
        #expect(DialogueState.correcting(.a).typedLine(empty: true, clausesReceived: false) == .correction)
        #expect(DialogueState.idle(.a).typedLine(empty: true, clausesReceived: false) == .nothing)
        #expect(DialogueState.ended.typedLine(empty: false, clausesReceived: false) == .nothing)
    }
}
