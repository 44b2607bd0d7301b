import Dialogue
import DialogueTestSupport
import ParleyCoreFakes
import ParleyCore
import Testing

@Suite("Settings changed during the conversation")
struct SettingsTests {
    @Test func changingTheListeningSidesLocaleRestartsRecognition() async throws {
        let french = LocaleTag("fr-FR")!
        let rig = TestRig(recognizes: [TestRig.english, TestRig.spanish, french])
        try await rig.start()
        await rig.coordinator.setLocale(french, for: .a)
        #expect(rig.recognizer.requests.map(\.locale) == [TestRig.english, french])
        await rig.coordinator.submitTyped("bonjour")
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.locale == french && entry.targetLocale == TestRig.spanish)
    }

    @Test func aVoiceAndRateApplyToSpeechToThatSide() async throws {
        let rig = TestRig()
        try await rig.start()
        await rig.coordinator.setVoice("es", for: .b)
        await rig.coordinator.setRate(0.75, for: .b)
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        let utterance = try #require(rig.synthesizer.utterances.first)
        #expect(utterance.voice == .identifier("es") && utterance.rate == 0.75)
    }

    @Test func anUnknownVoiceIsRefused() async throws {
        let rig = TestRig()
        try await rig.start()
        await rig.coordinator.setVoice("klingon", for: .b)
        try await rig.recorder.waitForMessage("unknown voice 'klingon'")
        #expect(await rig.coordinator.configuration.sideB.voice == nil)
    }

    @Test func sayAndRepeatSpeakAndGiveTheTurnBack() async throws {
        let rig = TestRig()
        try await rig.start()
        await rig.coordinator.say("testing")
        try await rig.recorder.waitForState(.listening(.a))
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        try await rig.recorder.waitForState(.listening(.b))
        await rig.coordinator.repeatLast()
        try await rig.waitUntil("three utterances") { rig.synthesizer.utterances.count == 3 }
        try await rig.recorder.waitForState(.listening(.b))
        let texts = rig.synthesizer.utterances.map(\.text)
        #expect(texts == ["testing", "[es-ES] hello", "[es-ES] hello"])
        #expect(rig.synthesizer.utterances.map(\.voice) == [.locale(TestRig.english), .locale(TestRig.spanish), .locale(TestRig.spanish)])
    }

    @Test func twoLocalesOfOneLanguagePassWhatIsSaidOnAsItWasSaid() async throws {
        let british = LocaleTag("en-GB")!
        let rig = TestRig(recognizes: [TestRig.english, british], configure: { $0.sideB.locale = british },
                          missingDirections: ["en-US>en-GB", "en-GB>en-US"])
        try await rig.start()
        try await rig.recorder.waitForMessage("en-US and en-GB are one language")
        await rig.coordinator.submitTyped("hello there")
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.translation == "hello there" && entry.targetLocale == british)
        #expect(rig.translator.translated.isEmpty)
        #expect(rig.synthesizer.utterances.map(\.text) == ["hello there"])
        #expect(!rig.recorder.messages.contains { $0.contains("no translation from") })
        await rig.coordinator.setTurnTaking(.auto)
        try await rig.recorder.waitForMessage("hands-free turns are off: both sides speak en")
        #expect(await rig.coordinator.configuration.turnTaking == .alternate)
    }

    @Test func twoLocalesOfOneLanguageWithADirectionInstalledAreTranslated() async throws {
        let british = LocaleTag("en-GB")!
        let rig = TestRig(recognizes: [TestRig.english, british], configure: { $0.sideB.locale = british })
        try await rig.start()
        await rig.coordinator.submitTyped("color")
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.translation == FakeTranslator.translation(of: "color", to: british))
        #expect(!rig.recorder.messages.contains { $0.contains("one language") })
    }

    @Test func aSideChangedToTheOtherSidesLanguageIsToldSoOnce() async throws {
        let rig = TestRig(missingDirections: ["es-ES>es-ES"])
        try await rig.start()
        await rig.coordinator.setLocale(TestRig.spanish, for: .a)
        try await rig.recorder.waitForMessage("both sides speak es-ES")
        #expect(rig.recorder.messages.filter { $0.contains("es-ES") && $0.contains("translation") }.isEmpty)
    }

    @Test func switchingToAutomaticStartsListening() async throws {
        let rig = TestRig(configure: { $0.mode = .manual })
        try await rig.start()
        await rig.coordinator.setMode(.automatic)
        #expect(await rig.coordinator.state == .listening(.a))
    }
}
