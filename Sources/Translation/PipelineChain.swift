import ChildProcesses
import Foundation

/// One Apertium pipeline run as up to three processes around its tagger: the stages
/// before `apertium-tagger`, the tagger alone, and the stages after it (one process
/// when the mode has no tagger). Every stage answers the null flush, so a request
/// passes through the three in turn, each answer (with the flush byte put back) being
/// the next one's request, and the bytes the last one prints are exactly what the
/// whole pipeline would print.
///
/// The tagger is the one stage whose state changes between sentences (`TaggerDrift`).
/// In a process of its own it can be swapped for a fresh one in an instant, while the
/// other stages keep their loaded dictionaries.
///
/// Not thread-safe: its owner (`ApertiumPipeline`) touches it from one serial queue only.
final class PipelineChain {
    /// A mode's pipeline text cut around its tagger.
    struct Scripts: Equatable {
        /// The stages before the tagger (the whole pipeline when there is no tagger).
        var head: String
        /// The tagger stage, if the mode has one.
        var tagger: String?
        /// The stages after the tagger, if any.
        var tail: String?

        /// Cuts `script` (stages joined by ` | `) before and after its first `apertium-tagger` stage.
        /// Bars inside single quotes are not stage boundaries.
        init(splitting script: String) {
            let stages = Self.stages(of: script)
            guard let index = stages.firstIndex(where: { $0.hasPrefix("apertium-tagger ") }), index > 0 else {
                self.init(head: script, tagger: nil, tail: nil)
                return
            }
            let after = stages[(index + 1)...]
            self.init(head: stages[..<index].joined(separator: " | "), tagger: stages[index],
                      tail: after.isEmpty ? nil : after.joined(separator: " | "))
        }

        init(head: String, tagger: String?, tail: String?) {
            (self.head, self.tagger, self.tail) = (head, tagger, tail)
        }

        /// The stages of a shell pipeline, trimmed.
        static func stages(of script: String) -> [String] {
            var stages: [String] = [], current = "", quoted = false
            for character in script {
                if character == "'" { quoted.toggle() }
                if character == "|", !quoted {
                    stages.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
                    current = ""
                } else {
                    current.append(character)
                }
            }
            stages.append(current.trimmingCharacters(in: .whitespacesAndNewlines))
            return stages
        }
    }

    private let head: PipelineProcess
    private(set) var tagger: PipelineProcess?
    private let tail: PipelineProcess?

    /// Starts the processes of `scripts`; `tagger` replaces starting the tagger stage when given.
    init(scripts: Scripts, tagger fresh: PipelineProcess? = nil, start: (String) throws -> PipelineProcess) throws {
        head = try start(scripts.head)
        tagger = try fresh ?? scripts.tagger.map(start)
        tail = try scripts.tail.map(start)
    }

    deinit { terminate(grace: 0) }

    /// Every process's group: the head's first.
    var processGroups: [Int32] { [head, tagger, tail].compactMap { $0?.processGroup } }

    /// Whether any process printed bytes after its last answer.
    var isOutOfStep: Bool { [head, tagger, tail].contains { $0?.isOutOfStep ?? false } }

    /// Sends `request` through every process in turn and returns the last one's answer.
    /// Each process gets `timeout` seconds and a size limit scaled to what it was sent.
    func exchange(_ request: [UInt8], timeout: Double, limit: Int) throws -> [UInt8] {
        let processes = [head, tagger, tail].compactMap { $0 }
        var bytes = request
        for (index, process) in processes.enumerated() {
            let answer = try process.exchange(bytes, timeout: timeout, limit: max(limit, bytes.count * 16))
            bytes = index == processes.count - 1 ? answer : answer + [ApertiumStreamFormat.flush]
        }
        return bytes
    }

    /// What the tagger wrote on stderr since the last call (where `TaggerDrift` reports show).
    func takeTaggerErrorOutput() -> String {
        tagger?.takeErrorOutput() ?? head.takeErrorOutput()
    }

    /// Puts `fresh` in the tagger's place and returns the tagger it replaces, still running.
    func replaceTagger(with fresh: PipelineProcess) -> PipelineProcess? {
        defer { tagger = fresh }
        return tagger
    }

    /// Ends every process (see `PipelineProcess.terminate(grace:)`).
    func terminate(grace: Double) {
        for process in [head, tagger, tail] { process?.terminate(grace: grace) }
    }
}
