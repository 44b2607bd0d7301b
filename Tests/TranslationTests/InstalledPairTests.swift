import Foundation
import ParleyCore
import Testing
import Translation

/// Every installed Apertium direction, through Parley's persistent pipeline,
/// prints what `apertium -u DIRECTION` prints, spawned anew per sentence.
@Suite(.serialized) struct InstalledPairTests {
    /// The directions `make` installs (PACKAGES in the Makefile).
    static let defaultDirections = ["eng-spa", "spa-eng", "spa-eng_US", "fr-es", "es-fr", "es-pt", "pt-es", "es-pt_BR",
                                    "spa-cat", "cat-spa", "spa-ita", "ita-spa"]

    /// A few everyday sentences per source language (ISO 639-3).
    static let sentences: [String: [String]] = [
        "eng": ["Good morning.", "Where is the train station?", "I would like two tickets, please."],
        "spa": ["Buenos días.", "¿Dónde está la estación de tren?", "Quisiera dos billetes, por favor."],
        "fra": ["Bonjour.", "Où est la gare ?", "Je voudrais deux billets, s'il vous plaît."],
        "por": ["Bom dia.", "Onde fica a estação de comboios?", "Queria dois bilhetes, por favor."],
        "cat": ["Bon dia.", "On és l'estació de tren?", "Voldria dos bitllets, si us plau."],
        "ita": ["Buongiorno.", "Dov'è la stazione dei treni?", "Vorrei due biglietti, per favore."],
        "glg": ["Bos días.", "Onde está a estación de tren?", "Quería dous billetes, por favor."],
        "ron": ["Bună dimineața.", "Unde este gara?", "Aș dori două bilete, vă rog."],
        "epo": ["Bonan matenon.", "Kie estas la stacidomo?", "Mi ŝatus du biletojn, mi petas."],
        "eus": ["Egun on.", "Non dago tren geltokia?", "Bi txartel nahi nituzke, mesedez."],
        "oci": ["Bonjorn.", "Ont es la gara?", "Voldriái dos bilhets, se vos plai."],
    ]

    @Test func theDefaultPairsAreInstalled() {
        let installed = Set(ApertiumModes().directions.map(\.name))
        for name in Self.defaultDirections { #expect(installed.contains(name), "\(name) is installed by make deps") }
    }

    @Test(arguments: ApertiumModes().directions)
    func everyInstalledDirectionPrintsWhatApertiumPrints(_ direction: ApertiumDirection) async throws {
        let sentences = try #require(Self.sentences[direction.source], "add sentences in \(direction.source) to this test")
        let translator = TranslationFixtures.privateTranslator(reportsUnknownWords: false)
        let route = TranslationRoute(legs: [direction])
        do {
            for sentence in sentences {
                let translation = try await translator.translateMarked(sentence, along: route)
                #expect(translation.rawText == (try TranslationFixtures.apertium(direction.name, sentence)), "\(direction): \(sentence)")
                #expect(translation.result.route.isEmpty && translation.legs.isEmpty)
            }
        } catch {
            await translator.shutdown()
            throw error
        }
        await translator.shutdown()
    }
}
