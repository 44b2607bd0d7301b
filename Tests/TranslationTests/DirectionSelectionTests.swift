import ParleyCore
import Testing
import Translation

/// Locales map to installed Apertium directions; a missing one is refused with
/// the installed directions and the package that would add it.
@Suite struct DirectionSelectionTests {
    let translator = TranslationFixtures.translator

    @Test func englishToSpanishUsesEngSpa() throws {
        #expect(try translator.direction(from: TranslationFixtures.english, to: TranslationFixtures.spanish).name == "eng-spa")
    }

    @Test func americanEnglishAsTargetChoosesTheUSVariant() throws {
        #expect(try translator.direction(from: TranslationFixtures.spanish, to: TranslationFixtures.english).name == "spa-eng_US")
    }

    @Test func britishEnglishAsTargetChoosesThePlainDirection() throws {
        #expect(try translator.direction(from: TranslationFixtures.spanish, to: TranslationFixtures.britishEnglish).name == "spa-eng")
    }

    @Test func aBareLanguageUsesItsFirstCatalogLocale() throws {
        #expect(try translator.direction(from: LocaleTag(language: "es"), to: LocaleTag(language: "en")).name == "spa-eng_US")
    }

    @Test func canTranslateReflectsTheInstalledDirections() async {
        #expect(await translator.canTranslate(from: TranslationFixtures.english, to: TranslationFixtures.spanish))
        #expect(await translator.canTranslate(from: TranslationFixtures.french, to: TranslationFixtures.spanish))
        #expect(await !translator.canTranslate(from: LocaleTag(language: "de", region: "DE"), to: TranslationFixtures.spanish))
    }

    @Test func aMissingDirectionListsTheInstalledOnesAndThePackage() async throws {
        let error = await #expect(throws: TranslationError.self) {
            try await translator.translate("Bună ziua", from: LocaleTag(language: "ro", region: "RO"), to: TranslationFixtures.spanish)
        }
        let message = "\(error!)"
        let installed = translator.modes.directions.map(\.name)
        #expect(installed.contains("eng-spa"))
        for name in installed { #expect(message.contains(name)) }
        #expect(message.contains("ron-spa"))
        #expect(message.contains("apt-get install apertium-es-ro"))
    }

    @Test func aMissingDirectionWithoutAKnownPackageSaysHowToLook() {
        let japanese = LocaleTag(language: "ja", region: "JP")
        #expect(throws: TranslationError.self) {
            try translator.direction(from: japanese, to: TranslationFixtures.english)
        }
        let german = LocaleTag(language: "de", region: "DE")
        do {
            _ = try translator.direction(from: german, to: TranslationFixtures.english)
            Issue.record("deu-eng is not installed here and must be refused")
        } catch {
            #expect("\(error)".contains("apt-cache search apertium"))
            #expect("\(error)".contains("spa-eng_US"))
        }
    }

    @Test func aLocaleOutsideTheCatalogIsNamed() {
        do {
            _ = try translator.direction(from: LocaleTag(language: "xx", region: "YY"), to: TranslationFixtures.english)
            Issue.record("an unknown locale must be refused")
        } catch {
            #expect("\(error)".contains("xx-YY"))
            #expect("\(error)".contains("locales.tsv"))
        }
    }
}

/// The Debian package list behind the missing-direction message.
@Suite struct ApertiumPackageIndexTests {
    let index = ApertiumPackageIndex(packages: ["apertium-eng-spa", "apertium-fr-es", "apertium-hbs-eng"])

    @Test func matchesThreeLetterCodesInEitherOrder() {
        #expect(index.package(pairing: ["en", "eng"], with: ["es", "spa"]) == "apertium-eng-spa")
        #expect(index.package(pairing: ["es", "spa"], with: ["en", "eng"]) == "apertium-eng-spa")
    }

    @Test func matchesTwoLetterCodes() {
        #expect(index.package(pairing: ["fr", "fra"], with: ["es", "spa"]) == "apertium-fr-es")
    }

    @Test func findsNothingForAnUnpackagedPair() {
        #expect(index.package(pairing: ["ja", "jpn"], with: ["en", "eng"]) == nil)
    }

    @Test func theShippedListLoadsAndNamesRealPairs() {
        #expect(TranslationFixtures.packages.packages.contains("apertium-eng-spa"))
        #expect(TranslationFixtures.packages.packages.count > 30)
    }

    @Test func aMalformedLineIsReportedWithItsNumber() {
        do {
            _ = try ApertiumPackageIndex(parsing: "apertium-eng-spa\nnot-a-package\n", path: "p.tsv")
            Issue.record("a malformed line must be refused")
        } catch {
            #expect("\(error)".hasPrefix("p.tsv:2:"))
        }
    }
}
