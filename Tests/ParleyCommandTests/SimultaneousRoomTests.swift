import Foundation
import ProcessHarness
import Testing
import TestSupport
import TranslationReference

/// `parley room --simultaneous` with a headset each, on the real server and engines: one party
/// speaks a passage of about 18 s (four LibriVox sentences, `LongSpeechPassages`) and both
/// others hear it interpreted, in their own languages, while it is still being spoken.
@Suite("Room interpreted while spoken", .serialized)
struct SimultaneousRoomTests {
    @Test("a LibriVox passage spoken by one party is heard in Spanish and in French by the two others before it ends; the utterance is written once, with its clauses")
    func simultaneousRoom() throws {
        let passage = LongSpeechPassages.all[0]
        let directory = try Fixtures.temporaryDirectory("parley-room-simultaneous")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try LongSpeechPassages.build(passage, in: directory)
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let (englishMicrophone, englishSpeaker) = (try LoopbackDevice(label: "s1mic"), try LoopbackDevice(label: "s1spk"))
        let (spanishMicrophone, spanishSpeaker) = (try LoopbackDevice(label: "s2mic"), try LoopbackDevice(label: "s2spk"))
        let (frenchMicrophone, frenchSpeaker) = (try LoopbackDevice(label: "s3mic"), try LoopbackDevice(label: "s3spk"))
        let run = try DialogueRun(["room", "en-US,source=\(englishMicrophone.monitor),sink=\(englishSpeaker.sink)",
                                   "es-ES,source=\(spanishMicrophone.monitor),sink=\(spanishSpeaker.sink)",
                                   "fr-FR,source=\(frenchMicrophone.monitor),sink=\(frenchSpeaker.sink)",
                                   "--simultaneous", "--transcript", transcript, "--no-history"])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("the room is open") }
        let (inEnglish, inSpanish, inFrench) = (try englishSpeaker.startRecording(), try spanishSpeaker.startRecording(),
                                                try frenchSpeaker.startRecording())
        // The three recordings and the microphone are on one server's clock; each recording's
        // start is where the passage starts.
        let starts = [inEnglish, inSpanish, inFrench].map { $0.samplesSoFar().count }
        let played = try englishMicrophone.play(file)
        try #require(played.status == 0, "\(played.stderr)")
        try run.waitForLine(timeout: 120) { $0.hasPrefix("1 en-US: ") }
        run.send(":parties")  // on a pipe, answered once everything said so far has been spoken
        try run.waitForLine(timeout: 120) { $0.hasPrefix("party 3: fr-FR, ") }
        let (english, spanish, french) = (try inEnglish.stop(after: 1.0), try inSpanish.stop(after: 1.0), try inFrench.stop(after: 1.0))
        #expect(try run.finish() == 0, "\(run.stderr)")

        let passageSamples = try Fixtures.rawSamples(SimultaneousDialogueTests.raw(file, in: directory)).count
        for (name, samples, start) in [("Spanish", spanish, starts[1]), ("French", french, starts[2])] {
            let firstSound = try #require(samples.indices.dropFirst(start).first { abs(Int(samples[$0])) > 1_000 },
                                          "nothing was spoken in \(name)")
            let ahead = Double(start + passageSamples - firstSound) / 16_000
            print("room --simultaneous: the first \(name) audio \(ahead) s before the passage ended")
            #expect(ahead >= 4, "the first \(name) audio started \(ahead) s before the passage ended")
        }
        #expect(audibleSeconds(english) == 0, "the English speaker hears nothing of their own words")

        let lines = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
        try #require(lines.count == 1, "one utterance: \(lines)")
        let entry = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let text = try #require(entry["text"] as? String)
        let clauses = try #require(entry["clauses"] as? [[String: Any]])
        #expect(clauses.count >= 3, "\(clauses)")
        #expect(clauses.compactMap { $0["text"] as? String }.joined(separator: " ") == text, "the clauses are the text, each word once")
        #expect(SpokenWords.errors(text, reference: passage.reference) <= 8, "heard '\(text)' for '\(passage.reference)'")
        for clause in clauses {
            let said = try #require(clause["text"] as? String)
            let translations = try #require(clause["translations"] as? [[String: Any]])
            #expect(translations.compactMap { $0["locale"] as? String } == ["es-ES", "fr-FR"])
            #expect(translations.first?["text"] as? String == (try ApertiumReference.cleaned("eng-spa", said)), "each clause in Spanish as apertium gives it")
        }

        // Each listener heard the whole of it: about as much speech as `parley say` makes of
        // the clauses' translations, sped up by at most `InterpretationPace.fastestSpeed` (1.5).
        let translations = try #require(entry["translations"] as? [[String: Any]])
        for (index, (locale, samples)) in [("es-ES", spanish), ("fr-FR", french)].enumerated() {
            let whole = try #require(translations[index]["text"] as? String)
            let said = try SimultaneousDialogueTests.saidSamples(whole, speed: 1, in: directory, locale: locale)
            let (heard, expected) = (audibleSeconds(samples), audibleSeconds(said))
            print("room --simultaneous: \(locale) heard \(heard) s of speech, parley say makes \(expected) s")
            #expect(heard >= 0.5 * expected && expected > 2, "\(locale): the speaker played \(heard) s, parley say makes \(expected) s of '\(whole)'")
        }
    }
}
