import Foundation
import ParleyCore
import Testing
@testable import Translation

/// A drifted tagger is replaced without the sentence waiting for a pipeline to start:
/// the stages that load dictionaries keep running, a spare tagger started in the
/// background takes the drifted one's place, and every translation is still the one
/// `apertium -u` gives the sentence alone.
@Suite struct SpareTaggerTests {
    let english = TranslationFixtures.english, spanish = TranslationFixtures.spanish
    /// Sentences whose translation changes the tagger (a new ambiguity class) among everyday ones.
    static let sentences = Array(TranslationFixtures.englishSentences.prefix(30)) + DeterminismTests.englishProbes

    @Test func aDriftRestartsNoDictionaryStageAndEveryTranslationEqualsApertium() async throws {
        let translator = TranslationFixtures.privateTranslator()
        try await translator.prepare(from: english, to: spanish)
        let before = try await translator.processGroups(from: english, to: spanish)
        var translations: [MarkedTranslation] = []
        for sentence in Self.sentences {
            translations.append(try await translator.translateMarked(sentence, from: english, to: spanish))
        }
        let after = try await translator.processGroups(from: english, to: spanish)
        #expect(Set(before.filter(Self.loadsDictionaries)) == Set(after.filter(Self.loadsDictionaries)),
                "the stages that load dictionaries are the ones started first")
        #expect(!Set(after.filter(Self.tags)).isSubset(of: Set(before)), "a drifted tagger was replaced")
        for (sentence, translation) in zip(Self.sentences, translations) {
            #expect(translation.rawText == (try TranslationFixtures.apertium("eng-spa", sentence)), "\(sentence)")
            #expect(translation.markedText == (try TranslationFixtures.apertium("eng-spa", sentence, marks: true)), "\(sentence)")
        }
        await translator.shutdown()
    }

    @Test func theSpareReplacesADriftedTaggerAndNoneStartsOnTheSentencesPath() async throws {
        let translator = TranslationFixtures.privateTranslator()
        for sentence in Self.sentences {
            _ = try await translator.translateMarked(sentence, from: english, to: spanish)
        }
        let replacements = try await translator.taggerReplacements(from: english, to: spanish)
        #expect(replacements.fromSpare >= 2, "\(replacements)")
        #expect(replacements.startedOnTheTurn == 0, "\(replacements)")
        await translator.shutdown()
    }

    @Test func aModesPipelineIsCutAroundItsTagger() {
        let scripts = PipelineChain.Scripts(splitting: "lt-proc -z 'a|b.bin' | apertium-tagger -z -g $2 'x.prob' | lt-proc -z $1 'g.bin'")
        #expect(scripts == PipelineChain.Scripts(head: "lt-proc -z 'a|b.bin'", tagger: "apertium-tagger -z -g $2 'x.prob'",
                                                 tail: "lt-proc -z $1 'g.bin'"))
        #expect(PipelineChain.Scripts(splitting: "lt-proc -z 'a.bin' | cg-proc 'c.bin'").tagger == nil)
    }

    /// Whether a process group holds a stage that loads a dictionary (`lt-proc`).
    static func loadsDictionaries(_ group: Int32) -> Bool {
        ProcessTable.members(ofGroup: group).contains { $0.command == "lt-proc" }
    }

    /// Whether a process group holds a tagger.
    static func tags(_ group: Int32) -> Bool {
        ProcessTable.members(ofGroup: group).contains { $0.command == "apertium-tagger" }
    }
}
