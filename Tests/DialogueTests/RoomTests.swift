import Dialogue
import Foundation
import ParleyCore
import DialogueTestSupport
import ParleyCoreFakes
import Synchronization
import Testing

/// The room's logic on fake stages: each party a `FakeAudio` of its own.
@Suite("Room")
struct RoomTests {
    static let english = LocaleTag("en-US")!, french = LocaleTag("fr-FR")!, spanish = LocaleTag("es-ES")!

    /// A room of fakes, its events recorded.
    final class Rig: Sendable {
        let audios: [FakeAudio]
        let recognizer: FakeRecognizer
        let translator = FakeTranslator()
        let synthesizer = FakeSynthesizer(chunksPerUtterance: 2)
        let room: RoomCoordinator
        let lost: [AsyncStream<AudioEvent>.Continuation]
        private final class Recorded: Sendable { let events = Mutex<[RoomEvent]>([]) }
        private let recorded = Recorded()

        /// `recognizes`: the locales the recognizer serves (with `microphones`, every party's by default).
        init(_ locales: [LocaleTag], transcript: TranscriptWriter? = nil, microphones: Bool = false,
             recognizes: [LocaleTag]? = nil, settings: RoomSettings = RoomSettings()) {
            let audios = locales.map { _ in FakeAudio() }
            self.audios = audios
            recognizer = FakeRecognizer(locales: recognizes ?? (microphones ? locales : []))
            var streams: [AsyncStream<AudioEvent>] = []
            var continuations: [AsyncStream<AudioEvent>.Continuation] = []
            for _ in locales {
                let (stream, continuation) = AsyncStream.makeStream(of: AudioEvent.self)
                streams.append(stream)
                continuations.append(continuation)
            }
            lost = continuations
            let devices = locales.indices.map {
                PartyDevices(source: audios[$0], sink: audios[$0], audioEvents: streams[$0], place: "server \($0 + 1)")
            }
            let stages = ConversationStages(devices: devices, recognizer: recognizer, translator: translator,
                                            synthesizer: synthesizer)
            room = RoomCoordinator(locales: locales, stages: stages, transcript: transcript, settings: settings)
            let events = room.events
            Task { [recorded] in for await event in events { recorded.events.withLock { $0.append(event) } } }
        }

        var events: [RoomEvent] { recorded.events.withLock { $0 } }

        /// The room has settled and every event it emitted until then has been recorded here.
        func settled() async {
            await room.waitUntilSettled()
            let emitted = await room.emittedEvents
            while recorded.events.withLock({ $0.count }) < emitted {
                try? await Task.sleep(for: .milliseconds(2))
            }
        }

        func translations(of number: Int) -> [RoomTranslation] {
            events.compactMap { if case let .translated(n, translation) = $0, n == number { translation } else { nil } }
        }

        /// Waits until `condition` holds; fails after `EventRecorder.lookLimit` looks a millisecond
        /// apart, counted rather than timed for the reason `EventRecorder.waitFor` gives.
        func waitFor(_ what: String, _ condition: () -> Bool) async throws {
            for _ in 0..<EventRecorder.lookLimit {
                if condition() { return }
                try await Task.sleep(for: .milliseconds(1))
            }
            guard condition() else { throw Timeout(what: what, events: events) }
        }

        struct Timeout: Error, CustomStringConvertible {
            var what: String
            var events: [RoomEvent]
            var description: String { "timed out waiting for \(what); events: \(events)" }
        }
    }

    @Test("a transcript on a full disk is reported once, in the room's words; what it never took is counted when the room ends",
          .timeLimit(.minutes(1)))
    func transcriptOnAFullDisk() async throws {
        guard let disk = try FullDisk.make() else { Issue.record("cannot mount a tmpfs here (this test needs root)"); return }
        defer { disk.release() }
        let rig = Rig([Self.english, Self.french], transcript: try TranscriptWriter(path: disk.transcript))
        await rig.room.start()
        await rig.room.type("Good morning", as: 1)
        await rig.room.type("Bonjour", as: 2)
        await rig.settled()
        let errors = { rig.events.compactMap { if case let .error(message) = $0 { message } else { nil } } }
        #expect(errors().count == 1, "the full disk is reported once: \(errors())")
        #expect(errors().first?.hasSuffix("the utterances are kept and written there when it can take them") == true,
                "a room has no :transcript to name: \(errors())")
        await rig.room.stop()
        let unwritten = "2 utterances could not be written to the transcript \(disk.transcript)"
        try await rig.waitFor("'\(unwritten)'") { errors().last == unwritten }
    }

    @Test("a party whose language no model serves types, told why as a dialogue's side is told: the locales installed are named")
    func unservedPartyTypes() async throws {
        let rig = Rig([Self.english, Self.spanish], microphones: true, recognizes: [Self.english])
        await rig.room.start()
        try await rig.waitFor("the room ready") { rig.events.contains(.ready) }
        #expect(rig.events.contains(.joined(party: 1, locale: Self.english, place: "server 1", typedOnlyReason: nil)))
        #expect(rig.events.contains(.joined(party: 2, locale: Self.spanish, place: "server 2",
                                            typedOnlyReason: "no speech model for es-ES (installed: en-US)")))
        await rig.room.stop()
    }

    @Test("a typed line is translated once per locale of the others and spoken to each of them, not to its speaker")
    func fanOut() async throws {
        let rig = Rig([Self.english, Self.french, Self.spanish, Self.spanish])
        await rig.room.start()
        await rig.room.type("Good morning", as: 1)
        await rig.settled()
        let translations = rig.translations(of: 1)
        // Two parties in es-ES: one translation, heard by both.
        #expect(translations.map(\.parties) == [[2], [3, 4]])
        #expect(translations.map(\.text) == [FakeTranslator.translation(of: "Good morning", to: Self.french),
                                             FakeTranslator.translation(of: "Good morning", to: Self.spanish)])
        #expect(rig.translator.translated == ["Good morning", "Good morning"])
        #expect(rig.audios[0].playedChunks.isEmpty, "the speaker does not hear their own words")
        for party in 1...3 { #expect(rig.audios[party].playedChunks.count == 2, "party \(party + 1) heard the translation") }
        let spoken = Set(rig.synthesizer.utterances.map(\.text))
        #expect(spoken == Set(translations.compactMap(\.text)))
        await rig.room.stop()
    }

    @Test("a party who speaks is heard on their own microphone, in their own language, and the others hear it")
    func spokenUtterance() async throws {
        let rig = Rig([Self.english, Self.french], microphones: true)
        await rig.room.start()
        let result = RecognitionResult(text: "Bonjour à tous", confidence: 0.8, isFinal: true)
        rig.recognizer.script([[.speechStarted(at: 0.1)], [.partial("Bonjour")], [.speechEnded(at: 0.3), .final(result)]])
        for _ in 0..<3 { _ = rig.audios[1].feed() }
        try await rig.waitFor("the French utterance") { rig.events.contains { if case .heard = $0 { true } else { false } } }
        await rig.settled()
        let heard = try #require(rig.events.compactMap { if case let .heard(utterance) = $0 { utterance } else { nil } }.first)
        #expect(heard.party == 2 && heard.locale == Self.french && heard.input == .speech && heard.confidence == 0.8)
        #expect(heard.speechStart < heard.speechEnd)
        #expect(rig.recognizer.requests.first?.locale == Self.french)
        #expect(rig.recognizer.requests.first?.options.channel == "party 2", "each party's detector is its own")
        #expect(rig.translations(of: 1).map(\.parties) == [[1]])
        #expect(rig.audios[0].playedChunks.count == 2 && rig.audios[1].playedChunks.isEmpty)
        await rig.room.stop()
    }

    @Test("a chunk that reaches a party's request after the final it gave an earlier chunk is past the utterance, not a failure")
    func chunkAfterTheFinal() async throws {
        let rig = Rig([Self.english, Self.french], microphones: true)
        await rig.room.start()
        rig.recognizer.script([[.speechStarted(at: 0.1)]])
        _ = rig.audios[1].feed()
        try await rig.waitFor("speech started") { rig.recognizer.appendCount >= 1 }
        rig.recognizer.fail("append", with: RecognitionError.requestReused)
        _ = rig.audios[1].feed()
        try await rig.waitFor("the second chunk appended") { rig.recognizer.appendCount >= 2 }
        rig.recognizer.fail("append", with: nil)
        rig.recognizer.script([[.speechEnded(at: 0.3), .final(RecognitionResult(text: "Bonjour à tous", confidence: 0.8, isFinal: true))]])
        _ = rig.audios[1].feed()
        try await rig.waitFor("the French utterance") { rig.events.contains { if case .heard = $0 { true } else { false } } }
        await rig.settled()
        #expect(!rig.events.contains { if case .error = $0 { true } else { false } }, "\(rig.events)")
        await rig.room.stop()
    }

    @Test("a party whose server is lost is away: the room goes on without speaking to them, and they come back with it")
    func awayAndBack() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("room-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.jsonl").path
        let rig = Rig([Self.english, Self.french, Self.spanish], transcript: try TranscriptWriter(path: path))
        await rig.room.start()
        rig.lost[2].yield(.serverLost("Connection terminated"))
        try await rig.waitFor("party 3 away") { rig.events.contains(.away(party: 3, reason: "Connection terminated")) }
        #expect(await rig.room.isAway(3))
        await rig.room.type("Where is the station?", as: 1)
        await rig.settled()
        #expect(rig.events.contains(.notSpoken(number: 1, party: 3, reason: "party 3 is away")))
        #expect(rig.audios[2].playedChunks.isEmpty && rig.audios[1].playedChunks.count == 2)

        rig.lost[2].yield(.reconnected)
        try await rig.waitFor("party 3 back") { rig.events.contains(.back(party: 3)) }
        await rig.room.type("Merci", as: 2)
        await rig.settled()
        #expect(rig.audios[2].playedChunks.count == 2, "back, party 3 hears the next utterance")
        await rig.room.stop()

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        try #require(lines.count == 2, "every utterance once")
        #expect(lines.map { $0["text"] as? String } == ["Where is the station?", "Merci"])
        #expect(lines.map { $0["party"] as? Int } == [1, 2])
        #expect(lines[0]["away"] as? [Int] == [3] && lines[1]["away"] as? [Int] == [])
        let translations = try #require(lines[0]["translations"] as? [[String: Any]])
        #expect(translations.map { $0["parties"] as? [Int] } == [[2], [3]], "the away party's translation is written too")
        #expect(translations.map { $0["locale"] as? String } == ["fr-FR", "es-ES"])
    }

    @Test("when a party's server goes while they speak, what was heard until then is their utterance")
    func lostMidUtterance() async throws {
        let rig = Rig([Self.english, Self.french], microphones: true)
        await rig.room.start()
        rig.recognizer.script([[.speechStarted(at: 0.1)], [.partial("the train leaves")]])
        rig.recognizer.finishWith(RecognitionResult(text: "the train leaves at", confidence: 0.7, isFinal: true))
        _ = rig.audios[0].feed()
        _ = rig.audios[0].feed()
        try await rig.waitFor("the partial") { rig.events.contains(.partial(party: 1, text: "the train leaves")) }
        rig.lost[0].yield(.serverLost("Connection refused"))
        try await rig.waitFor("the utterance") { rig.events.contains { if case .heard = $0 { true } else { false } } }
        await rig.settled()
        let texts = rig.events.compactMap { if case let .heard(utterance) = $0 { utterance.text } else { nil } }
        #expect(texts == ["the train leaves at"])
        #expect(rig.audios[1].playedChunks.count == 2, "the French party hears it")
        await rig.room.stop()
    }

    @Test("a typed line for a party that does not exist is refused in one sentence")
    func noSuchParty() async {
        let rig = Rig([Self.english, Self.french])
        await rig.room.start()
        await rig.room.type("Hello", as: 3)
        await rig.room.stop()
        #expect(rig.events.contains(.error("there is no party 3 (parties 1–2)")))
        #expect(rig.translator.translated.isEmpty)
    }

    @Test("simultaneous: each clause a party ends while speaking is translated once per language and spoken to every listener at once; the utterance is written once, with its clauses")
    func simultaneous() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("room-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("t.jsonl").path
        let rig = Rig([Self.english, Self.french, Self.spanish], transcript: try TranscriptWriter(path: path), microphones: true,
                      settings: RoomSettings(simultaneous: true))
        await rig.room.start()
        let (first, second, tail) = (SimultaneousTests.first, SimultaneousTests.second, SimultaneousTests.tail)
        rig.recognizer.script([[.speechStarted(at: 0.2), .clause(first)]])
        _ = rig.audios[0].feed()
        try await rig.waitFor("the first clause on both listeners' speakers") {
            rig.audios[1].playedChunks.count == 2 && rig.audios[2].playedChunks.count == 2
        }
        #expect(!rig.events.contains { if case .heard = $0 { true } else { false } }, "party 1 is still speaking")
        let options = try #require(rig.recognizer.requests.first?.options)
        #expect(options.commitPolicy == .localAgreement && options.maximumDuration == RecognitionOptions.simultaneousMaximumDuration)
        rig.recognizer.script([[.clause(second)]])
        _ = rig.audios[0].feed()
        let text = [first.text, second.text, tail.text].joined(separator: " ")
        rig.recognizer.script([[.speechEnded(at: 5.4), .final(RecognitionResult(text: text, confidence: 0.9, isFinal: true,
                                                                                clauses: [first, second, tail]))]])
        _ = rig.audios[0].feed()
        try await rig.waitFor("the utterance") { rig.events.contains { if case .heard = $0 { true } else { false } } }
        await rig.settled()
        await rig.room.stop()

        for clause in [first, second, tail] {
            #expect(rig.translator.translated.filter { $0 == clause.text }.count == 2, "'\(clause.text)' once per language")
        }
        #expect(rig.audios[1].playedChunks.count == 6 && rig.audios[2].playedChunks.count == 6, "three clauses each")
        #expect(rig.audios[0].playedChunks.isEmpty)
        let clauseEvents = rig.events.compactMap { if case let .clause(number, party, text, _) = $0 { "\(number) \(party) \(text)" } else { nil } }
        #expect(clauseEvents == ["1 1 \(first.text)", "1 1 \(second.text)", "1 1 \(tail.text)"])
        let heardAt = try #require(rig.events.firstIndex { if case .heard = $0 { true } else { false } })
        let lastClause = try #require(rig.events.lastIndex { if case .clause = $0 { true } else { false } })
        #expect(lastClause < heardAt, "the whole utterance follows its clauses")
        let joined = { (locale: LocaleTag) in
            [first, second, tail].map { FakeTranslator.translation(of: $0.text, to: locale) }.joined(separator: " ")
        }
        #expect(rig.translations(of: 1).map(\.text) == [joined(Self.french), joined(Self.spanish)])

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        try #require(lines.count == 1, "one utterance: \(lines)")
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(entry["text"] as? String == text && entry["simultaneous"] as? Bool == true)
        let clauses = try #require(entry["clauses"] as? [[String: Any]])
        #expect(clauses.compactMap { $0["text"] as? String } == [first.text, second.text, tail.text])
        #expect(clauses.compactMap { $0["tail"] as? Bool } == [false, false, true])
        #expect(clauses.allSatisfy { ($0["translations"] as? [[String: Any]])?.count == 2 })
        let starts = clauses.compactMap { $0["source_start"] as? Double }, ends = clauses.compactMap { $0["source_end"] as? Double }
        #expect(starts.count == 3 && zip(starts, ends).allSatisfy { $0 < $1 } && zip(ends, starts.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("a listener who speaks over the translation they hear holds it: a backchannel lets it play on, words stop it")
    func bargeIn() async throws {
        let rig = Rig([Self.english, Self.french], microphones: true)
        await rig.room.start()
        rig.audios[1].holdPlayback(true)
        await rig.room.type("Good morning", as: 1)
        try await rig.waitFor("the translation playing to party 2") { rig.events.contains(.speaking(number: 1, party: 2)) }

        rig.recognizer.script([[.speechStarted(at: 0.1)], [.speechEnded(at: 0.4), .final(RecognitionResult(text: "Mm.", isFinal: true))]])
        _ = rig.audios[1].feed()
        try await rig.waitFor("the hold") { rig.events.contains(.bargeIn(party: 2)) }
        #expect(rig.audios[1].log.last == "pausePlayback")
        _ = rig.audios[1].feed()
        try await rig.waitFor("the backchannel dismissed") {
            rig.events.contains(.bargeInDismissed(party: 2, reason: "a backchannel ('mm')"))
        }
        #expect(rig.audios[1].log.contains("resumePlayback") && !rig.audios[1].log.contains("cancelPlayback"))

        await rig.room.type("Where is the station?", as: 1)  // queued for party 2 behind the first
        rig.recognizer.script([[.speechStarted(at: 0.1)],
                               [.speechEnded(at: 1.2), .final(RecognitionResult(text: "Attendez, j'ai une question", isFinal: true))]])
        _ = rig.audios[1].feed()
        _ = rig.audios[1].feed()
        try await rig.waitFor("the interruption") {
            rig.events.contains { if case .interrupted(number: 1, party: 2, _) = $0 { true } else { false } }
        }
        #expect(rig.audios[1].log.contains("cancelPlayback"))
        try await rig.waitFor("the next utterance playing to party 2") { rig.events.contains(.speaking(number: 3, party: 2)) }
        rig.audios[1].holdPlayback(false)
        rig.audios[1].releasePlayback()
        await rig.settled()
        await rig.room.stop()
        let heard = rig.events.compactMap { if case let .heard(utterance) = $0 { "\(utterance.party) \(utterance.text)" } else { nil } }
        #expect(heard.contains("2 Attendez, j'ai une question") && heard.contains("2 Mm."), "their words are theirs to say: \(heard)")
        #expect(rig.translations(of: 4).map(\.parties) == [[1]], "party 1 hears what interrupted")
    }

    @Test("with barge-in off, a listener who speaks does not hold the translation they hear")
    func bargeInOff() async throws {
        let rig = Rig([Self.english, Self.french], microphones: true, settings: RoomSettings(bargeIn: false))
        await rig.room.start()
        rig.audios[1].holdPlayback(true)
        await rig.room.type("Good morning", as: 1)
        try await rig.waitFor("the translation playing to party 2") { rig.events.contains(.speaking(number: 1, party: 2)) }
        rig.recognizer.script([[.speechStarted(at: 0.1)],
                               [.speechEnded(at: 1.2), .final(RecognitionResult(text: "Attendez, j'ai une question", isFinal: true))]])
        _ = rig.audios[1].feed()
        _ = rig.audios[1].feed()
        try await rig.waitFor("party 2's utterance") { rig.events.contains { if case .heard(let u) = $0 { u.party == 2 } else { false } } }
        rig.audios[1].holdPlayback(false)
        rig.audios[1].releasePlayback()
        await rig.settled()
        #expect(!rig.audios[1].log.contains("pausePlayback") && !rig.audios[1].log.contains("cancelPlayback"))
        await rig.room.stop()
        #expect(!rig.events.contains { if case .interrupted = $0 { true } else { false } })
    }
}
