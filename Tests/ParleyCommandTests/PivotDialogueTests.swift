import Foundation
import TestSupport
import TranslationReference
import Testing

/// A French ↔ English conversation typed through a pipe: no Apertium pair joins
/// the two, so each turn goes through Spanish, is spoken on the test server in
/// the other side's language, and is written with its route.
@Suite("Pivoted dialogue end to end", .serialized)
struct PivotDialogueTests {
    /// The two `apertium -u` legs chained, tidied by the target language's clean-up as the dialogue tidies it.
    private func chained(_ legs: [String], _ text: String, target: String) throws -> String {
        ApertiumReference.cleanup.apply(to: try ApertiumReference.chainedRaw(legs, text), language: target).text
    }

    @Test func frenchAndEnglishTalkThroughSpanishWithSpeechOnBothSides() throws {
        let directory = try Fixtures.temporaryDirectory("parley-pivot")
        defer { try? FileManager.default.removeItem(at: directory) }
        let transcript = directory.appendingPathComponent("t.jsonl").path
        let speaker = try LoopbackDevice(label: "pivotspk")
        let (french, english) = ("Bonjour, je voudrais un café.", "Thank you very much.")

        let run = try DialogueRun(["dialog", "fr-FR", "en-US", "--typed-only", "--no-history", "--transcript", transcript,
                                   "--sink", speaker.sink], environment: ["XDG_STATE_HOME": directory.path])
        try run.waitForLine { $0.hasPrefix("A (fr-FR), your turn") }
        let englishSpeech = try speaker.startRecording()
        run.send(french)
        try run.waitForLine { $0.hasPrefix("B (en-US), your turn") }
        let spokenEnglish = try englishSpeech.stop(after: HeardSpeech.tail)
        let frenchSpeech = try speaker.startRecording()
        run.send(english)
        try run.waitForLine(count: 2) { $0.hasPrefix("A (fr-FR), your turn") }
        let spokenFrench = try frenchSpeech.stop(after: HeardSpeech.tail)
        let status = try run.finish()

        #expect(status == 0, "\(run.stderr)")
        let toEnglish = try chained(["fr-es", "spa-eng_US"], french, target: "en")
        let toFrench = try chained(["eng-spa", "es-fr"], english, target: "fr")
        #expect(run.lines.contains("→ en-US: \(toEnglish) (pivoted: fr → es → en)"), "\(run.stdout)")
        #expect(run.lines.contains("→ fr-FR: \(toFrench) (pivoted: en → es → fr)"), "\(run.stdout)")
        let written = try String(contentsOfFile: transcript, encoding: .utf8).split(separator: "\n")
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        try #require(written.count == 2, "both turns are written:\n\(run.stdout)")
        #expect(written[0]["translation"] as? String == toEnglish && written[1]["translation"] as? String == toFrench)
        #expect(written[0]["route"] as? [String] == ["fr", "es", "en"] && written[0]["pivots"] as? [String] == ["es"])
        #expect(written[1]["route"] as? [String] == ["en", "es", "fr"])
        try expectSpeech(spokenEnglish, saying: toEnglish, locale: "en-US", in: directory)
        try expectSpeech(spokenFrench, saying: toFrench, locale: "fr-FR", in: directory)
    }
}
