import Dialogue
import DialogueTestSupport
import Foundation
import ParleyCore
import ParleyCoreFakes
import Testing

/// Hands-free turns with fakes: which side an utterance goes to, which way it
/// is translated, whom it is spoken to, and `:flip`.
@Suite("Hands-free turns")
struct HandsFreeTurnTests {
    static let english = TestRig.english, spanish = TestRig.spanish

    /// A final result of a two-language request: the English reading first when A listens.
    static func heard(english: String, _ englishScore: Double, spanish: String, _ spanishScore: Double,
                      englishProbability: Double = 0.5, englishFirst: Bool = true) -> RecognitionEvent {
        let readings = [LanguageHypothesis(language: "en", text: english, decoderScore: englishScore,
                                           languageProbability: englishProbability),
                        LanguageHypothesis(language: "es", text: spanish, decoderScore: spanishScore,
                                           languageProbability: 1 - englishProbability)]
        let ordered = englishFirst ? readings : readings.reversed()
        return .final(RecognitionResult(text: ordered[0].text, confidence: ordered[0].confidence, isFinal: true,
                                        hypotheses: ordered))
    }

    static func englishSpoken(_ text: String, englishFirst: Bool) -> RecognitionEvent {
        heard(english: text, -0.2, spanish: "garbled \(text)", -1.2, englishProbability: 0.999, englishFirst: englishFirst)
    }

    static func spanishSpoken(_ text: String, englishFirst: Bool) -> RecognitionEvent {
        heard(english: "garbled \(text)", -1.1, spanish: text, -0.3, englishProbability: 0.001, englishFirst: englishFirst)
    }

    func autoRig(unknownWords: Set<String> = [], transcript: TranscriptWriter? = nil) -> TestRig {
        TestRig(configure: { $0.turnTaking = .auto }, transcript: transcript, unknownWords: unknownWords)
    }

    @Test func eachTurnAsksForBothLanguagesWithTheExpectedSideFirst() async throws {
        let rig = autoRig()
        try await rig.start()
        #expect(rig.recognizer.pairRequests.map(\.first) == [Self.english])
        #expect(rig.recognizer.pairRequests.map(\.second) == [Self.spanish])
        #expect(rig.recognizer.requests.isEmpty, "no one-language request in auto mode")
    }

    @Test func anIrregularSequenceGoesToTheRightSidesAndDirections() async throws {
        let rig = autoRig()
        try await rig.start()
        let spoken: [(DialogueSide, String)] = [(.a, "good morning"), (.a, "where is the station"), (.b, "está allí"),
                                                (.a, "thank you"), (.b, "de nada"), (.b, "buen viaje")]
        for (index, (side, text)) in spoken.enumerated() {
            let expected = rig.recognizer.pairRequests.last!.first
            let englishFirst = expected == Self.english
            let final = side == .a ? Self.englishSpoken(text, englishFirst: englishFirst)
                : Self.spanishSpoken(text, englishFirst: englishFirst)
            try await rig.speak([[.speechStarted(at: 0.1)], [.speechEnded(at: 0.8), final]])
            try await rig.turns(index + 1)
            try await rig.waitUntil("listening again") { rig.recognizer.pairRequests.count == index + 2 }
        }
        let entries = rig.recorder.finishedTurns
        #expect(entries.map(\.side) == spoken.map(\.0))
        #expect(entries.map(\.text) == spoken.map(\.1))
        for entry in entries {
            let target = entry.side == .a ? Self.spanish : Self.english
            #expect(entry.locale == (entry.side == .a ? Self.english : Self.spanish) && entry.targetLocale == target)
            #expect(entry.translation == FakeTranslator.translation(of: entry.text, to: target))
            #expect(entry.assignment?.flipOf == nil && (entry.assignment?.confidence ?? 0) > 0.9)
        }
        #expect(rig.synthesizer.utterances.map(\.voice) == entries.map { .locale($0.targetLocale) })
        // The side expected next is always the other one of the last speaker.
        #expect(rig.recognizer.pairRequests.map(\.first).dropFirst()
                == entries.map { $0.side == .a ? Self.spanish : Self.english }[...])
        let assigned = rig.recorder.events.compactMap { event -> DialogueSide? in
            if case let .sideAssigned(side, _, _, flipped, _) = event, !flipped { return side } else { return nil }
        }
        #expect(assigned == spoken.map(\.0))
    }

    @Test func unknownWordsDecideWhenTheScoresAreEven() async throws {
        let rig = autoRig(unknownWords: ["wer", "ist", "das"])
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.1)],
                             [Self.heard(english: "wer ist das", -0.5, spanish: "quién es", -0.5)]])
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.side == .b && entry.text == "quién es")
        #expect(entry.translation == FakeTranslator.translation(of: "quién es", to: Self.english))
        #expect(entry.assignment?.otherText == "wer ist das")
        #expect(rig.translator.translated.sorted() == ["quién es", "wer ist das"], "each reading translated once")
    }

    @Test func flipGivesTheLastUtteranceToTheOtherSideAndSpeaksItAgain() async throws {
        let rig = autoRig()
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.1)], [Self.englishSpoken("no way", englishFirst: true)]])
        try await rig.turns(1)
        try await rig.recorder.waitForState(.listening(.b))
        await rig.coordinator.flip()
        let entries = try await rig.turns(2)
        #expect(entries[1].side == .b && entries[1].text == "garbled no way" && entries[1].targetLocale == Self.english)
        #expect(entries[1].translation == FakeTranslator.translation(of: "garbled no way", to: Self.english))
        #expect(entries[1].assignment?.flipOf == 1 && entries[1].assignment?.otherText == "no way")
        #expect(rig.synthesizer.utterances.map(\.voice) == [.locale(Self.spanish), .locale(Self.english)])
        #expect(rig.recorder.events.contains(.sideAssigned(side: .b, locale: Self.spanish,
                                                            confidence: entries[0].assignment!.confidence!, flipped: true,
                                                            basis: .flip)))
        try await rig.recorder.waitForState(.listening(.a))
        await rig.coordinator.flip()
        let again = try await rig.turns(3)
        #expect(again[2].side == .a && again[2].text == "no way" && again[2].assignment?.flipOf == 2)
    }

    @Test func flipWithNothingToFlipSaysSo() async throws {
        let rig = autoRig()
        try await rig.start()
        await rig.coordinator.submitTyped("hello")
        try await rig.turns(1)
        await rig.coordinator.flip()
        try await rig.recorder.waitFor("the notice") { _ in rig.recorder.messages.contains { $0.hasPrefix("nothing to flip") } }
        #expect(rig.recorder.finishedTurns.count == 1)
        #expect(rig.recorder.messages.contains {
            $0 == "nothing to flip: no utterance was heard since hands-free turns began or since the last typed turn"
        }, "in hands-free turns the notice says why, not how to turn them on")
    }

    @Test func flipInAlternatingTurnsNamesHandsFreeTurns() async throws {
        let rig = TestRig()
        try await rig.start()
        await rig.coordinator.flip()
        try await rig.recorder.waitFor("the notice") { _ in rig.recorder.messages.contains { $0.hasPrefix("nothing to flip") } }
        #expect(rig.recorder.messages.contains { $0.hasSuffix("(:turns auto)") })
    }

    @Test func aTypedTurnEndsWhatFlipCanReassign() async throws {
        let rig = autoRig()
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.1)], [Self.englishSpoken("hello", englishFirst: true)]])
        try await rig.turns(1)
        try await rig.recorder.waitForState(.listening(.b))
        await rig.coordinator.submitTyped("hola")
        try await rig.turns(2)
        await rig.coordinator.flip()
        try await rig.recorder.waitFor("the notice") { _ in rig.recorder.messages.contains { $0.hasPrefix("nothing to flip: no utterance was heard") } }
    }

    @Test func aRecognizerWithoutTwoLanguagesTurnsAlternationBackOn() async throws {
        let rig = autoRig()
        rig.recognizer.fail("makePairRequest", with: FakeFailure("no pair here"))
        try await rig.start()
        #expect(rig.recognizer.requests.map(\.locale) == [Self.english])
        try await rig.recorder.waitFor("the notice") { _ in
            rig.recorder.messages.contains("hands-free turns are off: no pair here; turns alternate")
        }
        #expect(await rig.coordinator.configuration.turnTaking == .alternate)
    }

    @Test func switchingToHandsFreeTurnsARecognizerCannotServeIsRefusedAtOnce() async throws {
        let rig = TestRig()
        rig.recognizer.fail("pairUnavailability", with: FakeFailure("Whisper is left out"))
        try await rig.start()
        await rig.coordinator.setTurnTaking(.auto)
        try await rig.recorder.waitForMessage("hands-free turns are off: Whisper is left out; turns alternate")
        #expect(!rig.recorder.messages.contains { $0.hasPrefix("hands-free turns: either side may speak") })
        #expect(await rig.coordinator.configuration.turnTaking == .alternate)
        #expect(rig.recognizer.pairRequests.isEmpty)
    }

    @Test func switchingTurnTakingWhileListeningStartsTheNewKindOfRequest() async throws {
        let rig = TestRig()
        try await rig.start()
        #expect(rig.recognizer.requests.count == 1 && rig.recognizer.pairRequests.isEmpty)
        await rig.coordinator.setTurnTaking(.auto)
        try await rig.waitUntil("a two-language request") { rig.recognizer.pairRequests.count == 1 }
        #expect(rig.recognizer.cancelCount == 1)
        await rig.coordinator.setTurnTaking(.alternate)
        try await rig.waitUntil("a one-language request") { rig.recognizer.requests.count == 2 }
    }

    @Test func theTranscriptRecordsTheDecisionAndTheFlip() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("handsfree-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let rig = autoRig(transcript: try TranscriptWriter(path: path))
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.1)], [Self.spanishSpoken("hola", englishFirst: true)]])
        try await rig.turns(1)
        try await rig.recorder.waitForState(.listening(.a))
        await rig.coordinator.flip()
        try await rig.turns(2)
        await rig.coordinator.stop()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let objects = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        try #require(objects.count == 2)
        let first = try #require(objects[0]["assignment"] as? [String: Any])
        let second = try #require(objects[1]["assignment"] as? [String: Any])
        #expect(objects[0]["side"] as? String == "B" && first["other_text"] as? String == "garbled hola")
        #expect(first["flip_of"] is NSNull && (first["confidence"] as? Double ?? 0) > 0.9)
        #expect(first["by"] as? String == "language" && first["over_translation"] == nil)
        #expect(objects[1]["side"] as? String == "A" && second["flip_of"] as? Int == 1 && second["by"] as? String == "flip")
    }

    @Test("alternating turns record that the turn order gave the side; typed turns record nothing")
    func alternatingTurnsRecordTheTurnOrder() async throws {
        let rig = TestRig()
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0.1)], [TestRig.final("hello")]])
        let entry = try #require(try await rig.turns(1).first)
        #expect(entry.assignment?.basis == .turnOrder && entry.assignment?.confidence == nil)
        #expect(entry.jsonLine.hasSuffix(#""assignment":{"by":"turn"}}"#), "\(entry.jsonLine)")
        await rig.coordinator.submitTyped("gracias")
        let typed = try #require(try await rig.turns(2).last)
        #expect(typed.input == .typed && typed.assignment == nil && !typed.jsonLine.contains("assignment"))
    }
}
