import Foundation
import Locales
import ParleyCore
import TestSupport
import Translation

/// Shared data for the translation tests: locales, sentences, and the
/// `apertium` command as the reference every translation is compared with.
enum TranslationFixtures {
    static let english = LocaleTag(language: "en", region: "US")
    static let britishEnglish = LocaleTag(language: "en", region: "GB")
    static let spanish = LocaleTag(language: "es", region: "ES")
    static let french = LocaleTag(language: "fr", region: "FR")

    /// The shipped locale catalog and package list, from the source tree.
    static let registry: LocaleRegistry = {
        do {
            return try LocaleRegistry.load(from: [DataDirectories.sourceTreeDataDirectory])
        } catch {
            fatalError("the shipped locale tables do not load: \(error)")
        }
    }()

    static let packages: ApertiumPackageIndex = {
        (try? ApertiumPackageIndex.load(from: [DataDirectories.sourceTreeDataDirectory])) ?? ApertiumPackageIndex()
    }()

    /// The shipped clean-up rules, from the source tree.
    static let cleanup: TranslationCleanup = {
        do {
            return try TranslationCleanup.load(from: [DataDirectories.sourceTreeDataDirectory])
        } catch {
            fatalError("the shipped clean-up rules do not load: \(error)")
        }
    }()

    /// A translator shared by the tests that do not disturb its processes.
    static let translator = ApertiumTranslator(locales: registry.catalog, packages: packages,
                                               configuration: .init(cleanup: cleanup))

    /// A translator of its own, for tests that kill or stop pipelines.
    static func privateTranslator(limits: TranslationLimits = TranslationLimits(),
                                  modesDirectory: String = ApertiumModes.defaultDirectory,
                                  reportsUnknownWords: Bool = true) -> ApertiumTranslator {
        ApertiumTranslator(locales: registry.catalog, packages: packages,
                           configuration: .init(modesDirectory: modesDirectory, limits: limits,
                                                reportsUnknownWords: reportsUnknownWords, cleanup: cleanup))
    }

    /// Everyday English sentences (greetings, directions, shopping, numbers, questions).
    static let englishSentences = sentences("eng.txt")
    /// The same situations in Spanish.
    static let spanishSentences = sentences("spa.txt")

    private static func sentences(_ file: String) -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Sentences").appendingPathComponent(file)
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// What `apertium -u DIRECTION` prints for `text`, tidied by the shipped clean-up for the direction's target.
    static func cleanedApertium(_ direction: String, _ text: String) throws -> String {
        let target = direction.split(separator: "-").last.map { String($0.split(separator: "_")[0]) } ?? direction
        return cleanup.apply(to: try apertium(direction, text), language: ApertiumLanguageCodes.short(target)).text
    }

    /// What `printf '%s\n' TEXT | apertium [-u] DIRECTION` prints, trimmed: spawned anew for every call.
    static func apertium(_ direction: String, _ text: String, marks: Bool = false) throws -> String {
        let arguments = ["apertium"] + (marks ? [] : ["-u"]) + [direction]
        let output = try ProcessRunner.run(arguments, input: Data((text + "\n").utf8))
        guard output.status == 0 else {
            throw ProcessRunner.Failure(message: "apertium \(direction) failed: \(output.stderr)")
        }
        return output.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
