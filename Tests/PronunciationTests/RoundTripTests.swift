import Testing
@testable import Pronunciation

/// IPA from espeak → our mnemonics → espeak's phonemes → IPA, on words the tables never saw.
@Suite("Round trip through eSpeak NG", .serialized)
struct RoundTripTests {
    @Test("held-out words (2,000 English from the CMU dictionary, 500 Spanish from Apertium's generator): at least 99% exact",
          arguments: [("en", "en-us", 2_000), ("es", "es", 500)])
    func roundTrip(language: String, voice: String, count: Int) async throws {
        let all = try TableWords.all(language: language, directories: TestData.directories())
        let words = Array(TableWords.heldOut(all).prefix(count))
        let report = try await RoundTripReport.measure(words: words, converter: TestData.converter(language),
                                                       voice: voice, transcriber: TestData.transcriber)
        print("\(language) round trip: \(report.exact)/\(report.total)")
        #expect(report.total == count)
        #expect(report.ratio >= 0.99, "\(report.mismatches.prefix(10).map { "\($0.word): \($0.original) → \($0.returned)" })")
    }

    @Test("a table derived again from espeak maps the common symbols as the shipped one does")
    func derivationAgrees() async throws {
        let builder = SymbolTableBuilder(transcriber: TestData.transcriber)
        let words = Array(TableWords.derivation(try TableWords.all(language: "es", directories: TestData.directories())).prefix(600))
        let observations = try await builder.observe(words: words, voice: "es")
        let derived = IPASymbolTable(language: "es", rows: observations.rows(voice: "es"))
        let shipped = try TestData.converter("es").table
        for ipa in ["ɾ", "r", "β", "ð", "ɣ", "θ", "ɲ", "ʎ", "tʃ", "x"] {
            #expect(derived.mnemonic(for: ipa) != nil && derived.mnemonic(for: ipa) == shipped.mnemonic(for: ipa), "\(ipa)")
        }
        #expect(derived.mnemonic(for: "ɾ") == "**")
        #expect(observations.wordsPaired > 500)
    }
}
