import Dialogue
import DialogueTestSupport
import Foundation
import ParleyCore
import ParleyCoreFakes
import Testing

/// Barge-in on fake stages: what the coordinator does with a person the echo guard heard
/// over a translation.
@Suite("Barge-in")
struct BargeInTests {
    /// A rig with barge-in on, side A's "hello" translated and being spoken to B (held), and
    /// the microphone open for B.
    private func speakingToB() async throws -> TestRig {
        let rig = TestRig(configure: { $0.bargeIn = true })
        try await rig.start()
        rig.audio.holdPlayback(true)
        await rig.coordinator.submitTyped("hello")
        try await rig.recorder.waitForState(.speaking(.b))
        try await rig.waitUntil("the microphone stays open while the translation plays") { rig.audio.isListening }
        // The translation is told once the microphone is open for it.
        try await rig.waitUntil("the translation is being spoken") { spokenTranslation(rig) != nil }
        return rig
    }

    private func spokenTranslation(_ rig: TestRig) -> String? {
        rig.recorder.events.lazy.compactMap { if case let .speaking(_, text) = $0 { text } else { nil } }.first
    }

    @Test("a person over a translation holds it; their words stop it, the turn is written as interrupted, and the words are B's turn")
    func wordsInterrupt() async throws {
        let rig = try await speakingToB()
        rig.recognizer.script([[.speechStarted(at: 0), TestRig.final("espera, no es eso")]])
        rig.audio.feed(FakeAudio.personChunk)
        let turns = try await rig.turns(2)
        #expect(rig.recorder.events.contains(.bargeIn(.b)))
        #expect(rig.recorder.states.contains(.held(.b)))
        #expect(rig.recorder.events.contains { if case .interrupted(.b, _) = $0 { true } else { false } })
        let log = rig.audio.log
        let paused = try #require(log.firstIndex(of: "pausePlayback"), "\(log)")
        #expect(log[paused...].contains("cancelPlayback"), "the held translation is dropped once words decide: \(log)")
        #expect(turns[0].side == .a && turns[0].text == "hello")
        #expect(turns[0].playedSeconds != nil, "the translation is written as interrupted")
        #expect(turns[0].jsonLine.contains("\"interrupted\":true,\"played_seconds\":"), "\(turns[0].jsonLine)")
        #expect(turns[1].side == .b && turns[1].text == "espera, no es eso" && turns[1].input == .speech)
        #expect(turns[1].playedSeconds == nil)

        rig.audio.releasePlayback()
        rig.audio.holdPlayback(false)
        try await rig.recorder.waitFor("A's turn after B's words were spoken") { _ in rig.recorder.finishedTurns.count == 2 }
        await rig.coordinator.waitUntilReady()
        let interrupted = turns[0].translation
        await rig.coordinator.repeatLast()
        try await rig.recorder.waitFor(":repeat speaks the interrupted translation again") { events in
            events.filter { $0 == .speaking(side: .b, text: interrupted) }.count == 2
        }
    }

    @Test("the guard's word of a person, ahead of the audio it judged, holds the translation at once; that audio, delivered after, decides")
    func wordAheadHolds() async throws {
        let rig = try await speakingToB()
        rig.recognizer.script([[.speechStarted(at: 0), TestRig.final("espera, no es eso")]])
        let (requests, appended) = (rig.recognizer.requests.count + rig.recognizer.pairRequests.count, rig.recognizer.appendCount)
        #expect(rig.audio.feed(PCMChunk(format: .recognition, samples: [], echo: .person)))
        try await rig.recorder.waitForState(.held(.b))
        #expect(rig.audio.log.contains("pausePlayback"), "\(rig.audio.log)")
        try await rig.waitUntil("a request opened for the person") {
            rig.recognizer.requests.count + rig.recognizer.pairRequests.count > requests
        }
        #expect(rig.recognizer.appendCount == appended, "a chunk with no samples is given to no request")
        #expect(!rig.recorder.events.contains { if case .interrupted = $0 { true } else { false } }, "nothing decided before the words")
        rig.audio.feed(FakeAudio.personChunk)
        let turns = try await rig.turns(2)
        #expect(rig.recorder.events.contains { if case .interrupted(.b, _) = $0 { true } else { false } })
        #expect(turns[0].side == .a && turns[0].playedSeconds != nil, "the translation is written as interrupted")
        #expect(turns[1].side == .b && turns[1].text == "espera, no es eso" && turns[1].input == .speech)
    }

    @Test("no words, a backchannel, or the translation's own words let the held translation play on",
          arguments: ["", "mm", "sí", nil])
    func notAnInterruption(_ heard: String?) async throws {
        let rig = try await speakingToB()
        let reading = try heard ?? #require(spokenTranslation(rig), "the translation being spoken")
        rig.recognizer.script([[.speechStarted(at: 0), TestRig.final(reading)]])
        rig.audio.feed(FakeAudio.personChunk)
        try await rig.recorder.waitFor("the barge-in dismissed") { events in
            events.contains { if case .bargeInDismissed(.b, _) = $0 { true } else { false } }
        }
        try await rig.waitUntil("playback resumed") { rig.audio.log.contains("resumePlayback") }
        #expect(!rig.audio.log.contains("cancelPlayback"))
        #expect(Array(rig.recorder.states.suffix(3)) == [.speaking(.b), .held(.b), .speaking(.b)],
                "held while B's words are heard, speaking again once they decide: \(rig.recorder.states)")
        rig.audio.releasePlayback()
        let turns = try await rig.turns(1)
        #expect(turns[0].playedSeconds == nil, "played to the end: not interrupted")
        #expect(!rig.recorder.events.contains { if case .interrupted = $0 { true } else { false } })
    }

    @Test("the translation's echo, as the guard marks it, neither holds nor interrupts it")
    func echoIsIgnored() async throws {
        let rig = try await speakingToB()
        for _ in 0..<5 { rig.audio.feed(FakeAudio.echoChunk) }
        rig.audio.releasePlayback()
        let turns = try await rig.turns(1)
        #expect(turns[0].playedSeconds == nil)
        #expect(!rig.audio.log.contains("pausePlayback"))
        #expect(!rig.recorder.events.contains(.bargeIn(.b)))
    }

    @Test("after the end of input nobody barges in: a person over the last translation neither holds nor interrupts it, and the conversation ends")
    func endOfInputTakesNoBargeIn() async throws {
        let rig = try await speakingToB()
        rig.recognizer.script([[.speechStarted(at: 0), TestRig.final("espera, no es eso")]])
        let stopping = Task { await rig.coordinator.finishAndStop() }
        var waited = 0
        while await !rig.coordinator.inputEnded, waited < 1_000 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        try #require(await rig.coordinator.inputEnded, "the end of input was taken")
        for _ in 0..<5 { rig.audio.feed(FakeAudio.personChunk) }
        rig.audio.releasePlayback()
        await stopping.value
        await rig.recorder.waitForTheEnd()
        #expect(rig.recorder.finishedTurns.map(\.text) == ["hello"])
        #expect(!rig.recorder.events.contains(.bargeIn(.b)))
        #expect(!rig.audio.log.contains("pausePlayback") && !rig.audio.log.contains("cancelPlayback"), "\(rig.audio.log)")
        #expect(await rig.coordinator.state == .ended)
    }

    @Test("with barge-in off the microphone closes while a translation plays")
    func offClosesTheMicrophone() async throws {
        let rig = TestRig()
        try await rig.start()
        rig.audio.holdPlayback(true)
        await rig.coordinator.submitTyped("hello")
        try await rig.recorder.waitForState(.speaking(.b))
        #expect(!rig.audio.isListening)
        #expect(!rig.audio.feed(FakeAudio.personChunk), "nothing captured reaches the conversation")
        rig.audio.releasePlayback()
        try await rig.turns(1)
    }

    @Test(":barge-in on is refused in one sentence where it cannot work, and the setting stays off")
    func refusedWithoutCancellation() async throws {
        let reason = "it needs echo cancellation, and this conversation has none"
        let rig = TestRig(configure: { $0.bargeInUnavailable = reason })
        try await rig.start()
        await rig.coordinator.setBargeIn(true)
        try await rig.recorder.waitForEvent(.error("barge-in stays off: \(reason)"))
        #expect(await rig.coordinator.configuration.bargeIn == false)
    }

    @Test("Ctrl-C while a barge-in is being heard stops the translation and drops the request")
    func cancelDuringBargeIn() async throws {
        let rig = try await speakingToB()
        rig.recognizer.script([[.speechStarted(at: 0)]])
        rig.audio.feed(FakeAudio.personChunk)
        try await rig.recorder.waitForEvent(.bargeIn(.b))
        await rig.coordinator.cancel()
        let turns = try await rig.turns(1)
        #expect(turns[0].side == .a)
        #expect(rig.recognizer.cancelCount >= 1, "the barge-in request was cancelled")
        try await rig.recorder.waitForState(.listening(.b))
    }
    @Test("on the shared microphone the request hears both languages; the speaker going on in their own is no interruption: the translation plays on, and their words are their next turn, before B's")
    func speakerGoesOn() async throws {
        let rig = try await speakingToB()
        rig.recognizer.script([[.speechStarted(at: 0),
                                HandsFreeTurnTests.englishSpoken("and then we walked along the river", englishFirst: false)]])
        rig.audio.feed(FakeAudio.personChunk)
        try await rig.recorder.waitFor("the barge-in dismissed") { events in
            events.contains { if case .bargeInDismissed(.b, _) = $0 { true } else { false } }
        }
        #expect(rig.recognizer.pairRequests.last.map { [$0.first, $0.second] } == [TestRig.spanish, TestRig.english],
                "the listener's language first")
        try await rig.waitUntil("playback resumed") { rig.audio.log.contains("resumePlayback") }
        #expect(!rig.audio.log.contains("cancelPlayback"), "the translation is not taken from B: \(rig.audio.log)")
        #expect(rig.recorder.events.contains { if case .sideAssigned(.a, TestRig.english, _, false, _) = $0 { true } else { false } },
                "the words are shown as A's")
        rig.audio.holdPlayback(false)
        rig.audio.releasePlayback()
        let turns = try await rig.turns(2)
        #expect(turns.map(\.side) == [.a, .a])
        #expect(turns[0].playedSeconds == nil, "played to its end: not interrupted")
        #expect(turns[1].text == "and then we walked along the river" && turns[1].targetLocale == TestRig.spanish)
        #expect(turns[1].assignment?.basis == .language && turns[1].assignment?.overTranslation == .wentOn,
                "the turn records that its side was told by its language, over the speaker's own translation")
        #expect(turns[0].input == .typed && turns[0].assignment == nil, "a typed turn records no floor")
        #expect(!rig.recorder.events.contains { if case .interrupted = $0 { true } else { false } })
        // B's turn starts once A's second is written: waited for, not raced.
        try await rig.recorder.waitFor("B's turn") { events in
            events.contains { if case .turnStarted(.b, _, _) = $0 { true } else { false } }
        }
        let started = rig.recorder.events.compactMap { if case let .turnStarted(side, _, _) = $0 { side } else { nil } }
        #expect(started == [.a, .b], "A keeps the floor for the words they went on with; B's turn follows: \(started)")
    }

    /// A rig with a yield silence of 900 ms where A said "hello", and goes on after a pause
    /// shorter than it (their speech has started, the request listening on heard it) and talks on.
    private func speakerGoesOnAfterTheirTurn() async throws -> TestRig {
        let rig = TestRig(configure: { $0.bargeIn = true; $0.yieldMilliseconds = 900 })
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0)], [.speechEnded(at: 0.2), TestRig.final("hello")]])
        try await rig.waitUntil("a request in both languages listens on") { rig.recognizer.pairRequests.count == 1 }
        rig.recognizer.script([[.speechStarted(at: 0)]])
        try await rig.waitUntil("the microphone is open") { rig.audio.isListening }
        rig.audio.feed(FakeAudio.personChunk)
        return rig
    }

    @Test("a request listening on that reads no words hands the next one nothing it heard: the sound it passed over is not heard again (given it again, it would be passed over again, one decode after another)")
    func passedOverSoundIsNotHeardAgain() async throws {
        // A yield silence longer than the test: nothing plays, and nothing else hears the microphone.
        let rig = TestRig(configure: { $0.bargeIn = true; $0.yieldMilliseconds = 10_000 })
        try await rig.start()
        try await rig.speak([[.speechStarted(at: 0)], [.speechEnded(at: 0.2), TestRig.final("hello")]])
        try await rig.waitUntil("a request in both languages listens on") { rig.recognizer.pairRequests.count == 1 }
        try await rig.waitUntil("the microphone is open") { rig.audio.isListening }
        // The request is given what the microphone heard since the speech ended once it is open:
        // that is counted before the sound it passes over.
        try await Task.sleep(for: .milliseconds(300))
        // The end of a word after the last speech, read as no words.
        rig.recognizer.script([[.speechStarted(at: 0), TestRig.final("")]])
        let before = rig.recognizer.appendCount
        rig.audio.feed(FakeAudio.personChunk)
        try await rig.waitUntil("the next request listens on") { rig.recognizer.pairRequests.count == 2 }
        try await Task.sleep(for: .milliseconds(300))
        let appended = rig.recognizer.appendCount
        #expect(appended == before + 1, "the next request was given the sound the last passed over")
        // What comes after it is heard.
        rig.recognizer.script([[.speechStarted(at: 0)]])
        rig.audio.feed(FakeAudio.personChunk)
        try await rig.waitUntil("the next sound is heard") { rig.recognizer.appendCount == appended + 1 }
    }

    @Test("on the shared microphone a pause ends the speaker's sentence, not their floor: the translation waits until nobody has been heard for the yield silence, and what they went on with is heard whole and follows it")
    func translationWaitsForTheSpeakerToYield() async throws {
        let rig = try await speakerGoesOnAfterTheirTurn()
        try await Task.sleep(for: .seconds(1.5))
        #expect(!rig.recorder.states.contains(.speaking(.b)), "nothing plays over A while A goes on: \(rig.recorder.states)")
        #expect(!rig.audio.log.contains("enqueue"), "\(rig.audio.log)")
        rig.recognizer.script([[.speechEnded(at: 0.3), HandsFreeTurnTests.englishSpoken("and then we walked along the river", englishFirst: false)]])
        rig.audio.feed()
        let turns = try await rig.turns(2)
        #expect(turns.map(\.text) == ["hello", "and then we walked along the river"])
        #expect(turns.map(\.side) == [.a, .a])
        #expect(turns[1].assignment?.overTranslation == .wentOn)
        #expect(!rig.recorder.events.contains(.bargeIn(.b)) && !rig.recorder.events.contains { if case .interrupted = $0 { true } else { false } })
        // Once A yields, the translations play in order, then B has the floor.
        try await rig.recorder.waitForState(.listening(.b))
    }

    @Test("the end of input while a translation waits for the speaker to yield: it plays once they have, and the conversation ends")
    func endOfInputWhileWaitingForTheYield() async throws {
        let rig = TestRig(configure: { $0.bargeIn = true; $0.yieldMilliseconds = 900 })
        try await rig.start()
        rig.audio.holdPlayback(true)
        try await rig.speak([[.speechStarted(at: 0)], [.speechEnded(at: 0.2), TestRig.final("hello")]])
        try await rig.waitUntil("a request in both languages listens on") { rig.recognizer.pairRequests.count == 1 }
        let stopping = Task { await rig.coordinator.finishAndStop() }
        try await rig.recorder.waitForState(.speaking(.b))
        rig.audio.holdPlayback(false)
        rig.audio.releasePlayback()
        await stopping.value
        #expect(await rig.coordinator.state == .ended)
        #expect(rig.recorder.finishedTurns.map(\.text) == ["hello"])
    }

    @Test("a stop (SIGTERM, Ctrl-D on a terminal) while a translation waits for the speaker to yield ends the conversation at once, and nothing is played after it")
    func stopWhileWaitingForTheYield() async throws {
        // The translation waits, at most `Floor.yieldWaitBound` (30 s), for A to yield.
        let rig = try await speakerGoesOnAfterTheirTurn()
        try await Task.sleep(for: .seconds(1.2))
        let stopped = ContinuousClock.now
        await rig.coordinator.stop()
        let stopTook = ContinuousClock.now - stopped
        #expect(await rig.coordinator.state == .ended)
        // Long enough for a wait that missed the stop to have ended its look and played.
        try await Task.sleep(for: .seconds(0.5))
        #expect(await rig.coordinator.state == .ended)
        #expect(!rig.recorder.states.contains(.speaking(.b)), "\(rig.recorder.states)")
        #expect(!rig.audio.log.contains("enqueue"), "\(rig.audio.log)")
        // Far from the edge: the wait ends within a look (50 ms); missing the stop, it would hold
        // the coordinator until the speaker yields or for 30 s.
        #expect(stopTook < .seconds(10), "stop() took \(stopTook)")
    }

    @Test("one word over the translation that the recognizer is unsure of lets it play on; the same word said clearly stops it",
          arguments: [(-2.0, false), (-0.3, true)])
    func anUnsureWordIsNoInterruption(score: Double, interrupts: Bool) async throws {
        let rig = try await speakingToB()
        rig.recognizer.script([[.speechStarted(at: 0), HandsFreeTurnTests.heard(english: "em", -2.6, spanish: "Enlace", score,
                                                                               englishProbability: 0.01, englishFirst: false)]])
        rig.audio.feed(FakeAudio.personChunk)
        if interrupts {
            let turns = try await rig.turns(2)
            #expect(turns[1].side == .b && turns[1].text == "Enlace")
        } else {
            try await rig.recorder.waitFor("the barge-in dismissed") { events in
                events.contains { if case let .bargeInDismissed(.b, reason) = $0 { reason.hasPrefix("too unsure") } else { false } }
            }
            try await rig.waitUntil("playback resumed") { rig.audio.log.contains("resumePlayback") }
            #expect(!rig.audio.log.contains("cancelPlayback"))
        }
    }

    @Test("on the shared microphone B's own language over the translation is an interruption, read in Spanish")
    func listenerInterruptsInTheirLanguage() async throws {
        let rig = try await speakingToB()
        rig.recognizer.script([[.speechStarted(at: 0), HandsFreeTurnTests.spanishSpoken("espera, no es eso", englishFirst: false)]])
        rig.audio.feed(FakeAudio.personChunk)
        let turns = try await rig.turns(2)
        #expect(rig.recorder.events.contains { if case .interrupted(.b, _) = $0 { true } else { false } })
        #expect(rig.audio.log.contains("cancelPlayback"))
        #expect(turns[0].side == .a && turns[0].playedSeconds != nil)
        #expect(turns[1].side == .b && turns[1].text == "espera, no es eso" && turns[1].targetLocale == TestRig.english)
        #expect(turns[1].assignment?.basis == .language && turns[1].assignment?.overTranslation == .interrupted)
        #expect(turns[1].jsonLine.contains(#""over_translation":"interrupted""#))
    }
}
