import Testing
@testable import Pronunciation

/// IPA from espeak → our mnemonics → espeak's phonemes → IPA, on words the tables never saw.
@Suite("Round trip through eSpeak NG", .serialized)
struct RoundTripTests {
    @Test("2,000 held-out English words from the CMU dictionary: at least 99% exact")
    func english() async throws {
        let words = Array(TableWords.heldOut(try TableWords.all(language: "en", directories: TestData.directories())).prefix(2_000))
        let report = try await RoundTripReport.measure(words: words, converter: TestData.converter("en"),
                                                       voice: "en-us", transcriber: TestData.transcriber)
        print("en round trip: \(report.exact)/\(report.total)")
        #expect(report.total == 2_000)
        #expect(report.ratio >= 0.99, "\(report.mismatches.prefix(10).map { "\($0.word): \($0.original) → \($0.returned)" })")
    }

    @Test("500 held-out Spanish words from Apertium's generator: at least 99% exact")
    func spanish() async throws {
        let words = Array(TableWords.heldOut(try TableWords.all(language: "es", directories: TestData.directories())).prefix(500))
        let report = try await RoundTripReport.measure(words: words, converter: TestData.converter("es"),
                                                       voice: "es", transcriber: TestData.transcriber)
        print("es round trip: \(report.exact)/\(report.total)")
        #expect(report.total == 500)
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
