import Foundation
import ParleyCore
import Testing
import Translation

/// Which route `TranslationRoutes` picks over a set of directions: a direct
/// one first, then the shortest chain, ties broken by the pivot's installed
/// directions and then its code; and what is said when there is none.
@Suite struct RouteSelectionTests {
    /// Routes over directions named like mode files; nothing is run.
    func routes(_ names: [String]) -> TranslationRoutes {
        TranslationRoutes(modes: ApertiumModes(directions: names.compactMap {
            ApertiumDirection(modeName: $0, modeFile: "/nonexistent/\($0).mode")
        }))
    }

    @Test func twoAndThreeLetterModeNamesMeanTheSameLanguages() throws {
        let french = try #require(ApertiumDirection(modeName: "fr-es", modeFile: "fr-es.mode"))
        #expect(french.source == "fra" && french.target == "spa" && french.name == "fr-es")
        let brazilian = try #require(ApertiumDirection(modeName: "es-pt_BR", modeFile: "es-pt_BR.mode"))
        #expect(brazilian.target == "por" && brazilian.variant == "BR" && brazilian.name == "es-pt_BR")
        #expect(ApertiumDirection(modeName: "eco-fr-es", modeFile: "x") == nil)
        #expect(ApertiumDirection(modeName: "eng-spa-tagger", modeFile: "x") == nil)
    }

    @Test func aDirectDirectionIsPreferredToAShorterLookingChain() {
        let routes = routes(["fr-es", "spa-eng", "fra-eng"])
        #expect(routes.best(from: "fr", to: "en")?.name == "fra-eng")
        #expect(routes.routes(from: "fra", to: "eng").map(\.name) == ["fra-eng", "fr-es+spa-eng"])
        #expect(routes.best(from: "fr", to: "en")?.isDirect == true)
    }

    @Test func theShortestChainWins() {
        let routes = routes(["fra-cat", "cat-ita", "ita-eng", "fr-es", "spa-eng"])
        #expect(routes.best(from: "fr", to: "en")?.name == "fr-es+spa-eng")
        #expect(routes.routes(from: "fr", to: "en").map(\.legs.count) == [2, 3])
    }

    @Test func aTieGoesToThePivotWithTheMostDirections() {
        let hub = ["por-cat", "cat-eng", "pt-es", "spa-eng", "eng-spa", "spa-ita"]
        #expect(routes(hub).best(from: "pt", to: "en")?.pivots == ["spa"])
        #expect(routes(hub.reversed()).best(from: "pt", to: "en")?.pivots == ["spa"])
    }

    @Test func anEvenTieGoesToThePivotCodeFirstInTheAlphabet() {
        let even = ["pt-es", "spa-eng", "por-cat", "cat-eng"]
        #expect(routes(even).best(from: "pt", to: "en")?.name == "por-cat+cat-eng")
        #expect(routes(even.reversed()).best(from: "pt", to: "en")?.name == "por-cat+cat-eng")
    }

    @Test func theLastLegTakesTheTargetsVariantAndPivotsThePlainDirection() {
        let routes = routes(["fr-es", "spa-eng", "spa-eng_US", "eng-spa", "spa-cat", "spa-cat_valencia", "cat-ita"])
        #expect(routes.best(from: "fr", to: "en", variant: "US")?.name == "fr-es+spa-eng_US")
        #expect(routes.best(from: "fr", to: "en")?.name == "fr-es+spa-eng")
        #expect(routes.best(from: "en", to: "it")?.name == "eng-spa+spa-cat+cat-ita")
    }

    @Test func everyLanguageASourceReachesHasItsBestRoute() {
        let reached = routes(["fr-es", "es-fr", "spa-eng", "eng-spa", "spa-cat"]).bestRoutes(from: "fr")
        #expect(reached.mapValues(\.name) == ["spa": "fr-es", "eng": "fr-es+spa-eng", "cat": "fr-es+spa-cat"])
    }

    @Test func aRouteNamesItsLanguages() throws {
        let route = try #require(routes(["fr-es", "spa-eng_US"]).best(from: "fr", to: "en", variant: "US"))
        #expect(route.languages == ["fra", "spa", "eng"])
        #expect(route.shortLanguages == ["fr", "es", "en"])
        #expect(route.pivots == ["spa"])
        #expect(!route.isDirect)
    }

    @Test func noRouteWhenNothingJoinsTheLanguagesOrTheChainIsTooLong() {
        let chain = routes(["deu-nld", "nld-afr", "afr-eng", "eng-spa", "fr-es"])
        #expect(chain.best(from: "de", to: "en") != nil)
        #expect(chain.best(from: "de", to: "es") == nil, "four directions are more than the three a route may have")
        #expect(chain.best(from: "ja", to: "en") == nil)
        #expect(chain.best(from: "en", to: "en") == nil)
    }

    @Test func thePackagesThatWouldJoinTwoLanguagesThroughAnInstalledOne() {
        let index = ApertiumPackageIndex(packages: ["apertium-eng-spa", "apertium-es-ro", "apertium-eu-es"])
        let routes = routes(["eng-spa", "spa-eng"])
        #expect(index.packages(joining: ["ro", "ron"], with: ["en", "eng"], over: routes) == ["apertium-es-ro (through Spanish)"])
        #expect(index.packages(joining: ["en", "eng"], with: ["eu", "eus"], over: routes) == ["apertium-eu-es (through Spanish)"])
        #expect(index.packages(joining: ["ja", "jpn"], with: ["en", "eng"], over: routes).isEmpty)
    }

    @Test func aMissingRouteIsOneSentenceNamingThePackages() throws {
        let modes = try Self.modesDirectory(["eng-spa", "spa-eng", "spa-eng_US"])
        defer { try? FileManager.default.removeItem(atPath: modes) }
        let translator = ApertiumTranslator(locales: TranslationFixtures.registry.catalog, packages: TranslationFixtures.packages,
                                            configuration: .init(modesDirectory: modes))
        let romanian = LocaleTag(language: "ro", region: "RO")
        do {
            _ = try translator.route(from: romanian, to: TranslationFixtures.english)
            Issue.record("ron-eng is not installed in \(modes), directly or through Spanish")
        } catch {
            let message = "\(error)"
            #expect(message.contains("ron-eng"))
            #expect(message.contains("apertium-es-ro (through Spanish)"))
            #expect(!message.contains("\n") && message.filter { $0 == "." }.isEmpty, "one sentence: \(message)")
        }
        do {
            _ = try translator.route(from: romanian, to: TranslationFixtures.spanish)
            Issue.record("ron-spa is not installed in \(modes)")
        } catch {
            #expect("\(error)".contains("apt-get install apertium-es-ro"))
        }
        #expect(try translator.route(from: TranslationFixtures.english, to: TranslationFixtures.spanish).name == "eng-spa")
    }

    /// A modes directory with empty mode files of these names: enough to choose routes, not to run them.
    static func modesDirectory(_ names: [String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-modes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in names {
            try Data().write(to: directory.appendingPathComponent("\(name).mode"))
        }
        return directory.path
    }
}
