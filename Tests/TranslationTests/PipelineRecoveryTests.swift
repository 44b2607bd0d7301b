import Foundation
import ParleyCore
import Testing
import Translation
#if canImport(Glibc)
import Glibc
#endif

/// A pipeline that dies or hangs is replaced and the sentence retried; a
/// pipeline that keeps failing gives a clear error.
@Suite struct PipelineRecoveryTests {
    let english = TranslationFixtures.english, spanish = TranslationFixtures.spanish
    let sentence = "I would like a glass of water."

    @Test func killingEveryStageMidSessionDoesNotLoseTheNextSentence() async throws {
        let translator = TranslationFixtures.privateTranslator()
        try await translator.prepare(from: english, to: spanish)
        let groups = try await translator.processGroups(from: english, to: spanish)
        #expect(groups.count == 6, "the clean and the marked pipeline, each before, at and after its tagger")
        for group in groups { kill(-group, SIGKILL) }
        let result = try await translator.translate(sentence, from: english, to: spanish)
        #expect(result.text == (try TranslationFixtures.cleanedApertium("eng-spa", sentence)))
        let restarted = try await translator.processGroups(from: english, to: spanish)
        #expect(Set(restarted).isDisjoint(with: groups))
        await translator.shutdown()
    }

    @Test func killingOneStageInTheMiddleDoesNotLoseTheNextSentence() async throws {
        let translator = TranslationFixtures.privateTranslator()
        try await translator.prepare(from: english, to: spanish)
        let groups = try await translator.processGroups(from: english, to: spanish)
        let taggers = groups.flatMap { ProcessTable.members(ofGroup: $0) }.filter { $0.command == "apertium-tagger" }
        #expect(taggers.count == 2)
        for tagger in taggers { kill(tagger.pid, SIGKILL) }
        let result = try await translator.translate(sentence, from: english, to: spanish)
        #expect(result.text == (try TranslationFixtures.cleanedApertium("eng-spa", sentence)))
        await translator.shutdown()
    }

    @Test func aPipelineThatStopsAnsweringIsKilledAndReplaced() async throws {
        let translator = TranslationFixtures.privateTranslator(limits: TranslationLimits(baseTimeout: 1))
        try await translator.prepare(from: english, to: spanish)
        let groups = try await translator.processGroups(from: english, to: spanish)
        for group in groups { kill(-group, SIGSTOP) }
        let result = try await translator.translate(sentence, from: english, to: spanish)
        #expect(result.text == (try TranslationFixtures.cleanedApertium("eng-spa", sentence)))
        for group in groups { #expect(ProcessTable.members(ofGroup: group).allSatisfy { $0.state == "Z" }) }
        await translator.shutdown()
    }

    @Test func aPipelineThatAlwaysDiesFailsWithAClearError() async throws {
        let modes = FileManager.default.temporaryDirectory.appendingPathComponent("parley-modes-\(getpid())")
        try FileManager.default.createDirectory(at: modes, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: modes) }
        try "false\n".write(to: modes.appendingPathComponent("eng-spa.mode"), atomically: true, encoding: .utf8)
        let translator = TranslationFixtures.privateTranslator(modesDirectory: modes.path)
        let error = await #expect(throws: TranslationError.self) {
            try await translator.translate(sentence, from: english, to: spanish)
        }
        guard case let .engineFailed(direction, _) = error else {
            Issue.record("expected engineFailed, got \(String(describing: error))")
            return
        }
        #expect(direction == "eng-spa")
        #expect("\(error!)".contains("failed twice"))
        await translator.shutdown()
    }

    @Test func shutdownEndsEveryStage() async throws {
        let translator = TranslationFixtures.privateTranslator()
        try await translator.prepare(from: spanish, to: english)
        let groups = try await translator.processGroups(from: spanish, to: english)
        #expect(groups.allSatisfy { !ProcessTable.members(ofGroup: $0).isEmpty })
        await translator.shutdown()
        #expect(groups.allSatisfy { ProcessTable.members(ofGroup: $0).allSatisfy { $0.state == "Z" } })
    }
}

/// Processes as `/proc` lists them.
enum ProcessTable {
    struct Entry {
        var pid: Int32
        var command: String
        var state: String
        var group: Int32
    }

    /// Every live process whose process group is `group`.
    static func members(ofGroup group: Int32) -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).compactMap(entry).filter { $0.group == group }
    }

    private static func entry(_ pid: Int32) -> Entry? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let group = Int32(fields[2]) else { return nil }
        return Entry(pid: pid, command: String(stat[stat.index(after: open)..<close]), state: String(fields[0]), group: group)
    }
}
