import ChildProcesses
import Foundation
import Logging

/// One translation direction in one output form, kept running between sentences.
///
/// The process is started when first needed, answers every sentence through
/// the same pipes, and is replaced when it dies, hangs or falls out of step:
/// the sentence is then sent once more to a fresh pipeline, and a second
/// failure is reported. All process work runs on one serial dispatch queue —
/// the pipeline's single owner — so blocking reads never occupy Swift's
/// cooperative threads, and sentences for one pipeline never interleave.
///
/// The pipeline runs as a `PipelineChain`, its tagger in a process of its own.
/// A tagger that changed while translating a sentence (see `TaggerDrift`) is
/// swapped, before the answer is handed back, for a spare tagger started in the
/// background beforehand, so the same sentence always gets the same
/// translation, whatever came before it, and no sentence waits for a pipeline
/// to start. The drifted tagger is ended, and the next spare started, after the
/// answer has been handed back.
final class ApertiumPipeline: @unchecked Sendable {  // its state is touched only on its serial queue
    /// What the pipeline prints.
    enum Form: String, Sendable {
        /// No unknown-word marks, as `apertium -u` (the generators' `-n`).
        case clean = "-n"
        /// Unknown words marked with `*`, `@` and `#`, as `apertium` (the generators' `-g`).
        case marked = "-g"
    }

    let direction: ApertiumDirection
    let form: Form
    private let limits: TranslationLimits
    private let logger: Logger
    private let queue: DispatchQueue
    /// Touched only on `queue`.
    private var process: PipelineChain?
    /// Taggers started ahead of need, oldest first, to replace a drifted one at once: two, so
    /// the one taken has had the time of at least one drifted sentence to load its model even
    /// when sentences that drift follow each other closely; touched only on `queue`.
    private var spareTaggers: [PipelineProcess] = []
    /// How many spare taggers a running pipeline keeps.
    static let spareCount = 2
    /// Drifted taggers taken out of service, still to be ended; touched only on `queue`.
    private var setAside: [PipelineProcess] = []
    /// How drifted taggers were replaced; touched only on `queue`.
    private var replacements = TaggerReplacements()
    /// Whether `process` has answered a request yet (its first one may still wait for the dictionaries); touched only on `queue`.
    private var processHasAnswered = false
    /// The mode's pipeline text cut around its tagger, read once; touched only on `queue`.
    private var scripts: PipelineChain.Scripts?
    /// The number of the last request sent; touched only on `queue`.
    private var frame = 0

    init(direction: ApertiumDirection, form: Form, limits: TranslationLimits, logger: Logger) {
        self.direction = direction
        self.form = form
        self.limits = limits
        self.logger = logger
        queue = DispatchQueue(label: "parley.apertium.\(direction.name)\(form.rawValue)")
    }

    deinit {
        process?.terminate(grace: 0.5)
        for spare in spareTaggers { spare.terminate() }
        for drifted in setAside { drifted.terminate() }
    }

    /// The text of `text`'s translation, in this pipeline's form.
    func translate(_ text: String) async throws -> String {
        try await onQueue { try self.translateNow(text) }
    }

    /// Starts the process (if it is not running) and warms it up with `sentence`.
    func start(warmingUpWith sentence: String) async throws {
        _ = try await translate(sentence)
    }

    /// Ends the process gracefully; the next sentence starts a new one.
    func stop() async {
        await onQueue { self.discardProcess(grace: 0.5) }
    }

    /// The process groups of the running pipeline's processes (for diagnostics and tests).
    var processGroups: [Int32] {
        get async { await onQueue { self.process?.processGroups ?? [] } }
    }

    /// How the drifted taggers met so far were replaced (for tests and benchmarks).
    var taggerReplacements: TaggerReplacements {
        get async { await onQueue { self.replacements } }
    }

    private func translateNow(_ text: String) throws -> String {
        do {
            return try RestartOnce.run({ try exchange(text) }, discard: { failure, retrying in
                if retrying { logger.warning("\(direction.name) \(form.rawValue): \(failure); restarting and retrying once") }
                discardProcess()
            })
        } catch let failure as ChildProcessFailure {
            throw TranslationError.engineFailed(direction: direction.name, reason: failure.description)
        }
    }

    private func exchange(_ text: String) throws -> String {
        let running = try runningProcess()
        let isFresh = !processHasAnswered
        frame += 1
        let request = ApertiumStreamFormat.encode(text, frame: frame)
        let timeout = limits.timeout(characters: text.count) + (isFresh ? limits.startupTimeout : 0)
        let answer = try running.exchange(request, timeout: timeout, limit: limits.answerLimit(requestBytes: request.count))
        guard let translation = ApertiumStreamFormat.decode(answer, frame: frame) else {
            throw ChildProcessFailure(PipelineProcess.pipelineName, .outOfStep("an answer to another request"))
        }
        processHasAnswered = true
        if running.isOutOfStep {
            logger.warning("\(direction.name) \(form.rawValue): bytes after the answer; restarting before the next sentence")
            discardProcess()
        } else if TaggerDrift.hasDrifted(errorOutput: running.takeTaggerErrorOutput()) {
            // Replaced now: a sentence already waiting on the queue must not meet this tagger.
            replaceDriftedTagger(of: running)
        }
        return translation.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func runningProcess() throws -> PipelineChain {
        if let process { return process }
        let scripts = try self.scripts ?? PipelineChain.Scripts(
            splitting: TaggerDrift.reporting(ApertiumEnvironment.pipelineScript(modeFile: direction.modeFile)))
        self.scripts = scripts
        let started = try PipelineChain(scripts: scripts, start: startProcess)
        logger.debug("started \(direction.name) \(form.rawValue) as process groups \(started.processGroups)")
        process = started
        processHasAnswered = false
        startSpareTaggers()
        return started
    }

    private func startProcess(_ script: String) throws -> PipelineProcess {
        try PipelineProcess(script: script, arguments: [form.rawValue, ""], environment: ApertiumEnvironment.forPipeline())
    }

    /// Starts taggers for the next drifts up to `spareCount`; their models load while sentences are translated.
    private func startSpareTaggers() {
        guard let script = scripts?.tagger else { return }
        while spareTaggers.count < Self.spareCount {
            do { spareTaggers.append(try startProcess(script)) } catch {
                return logger.warning("\(direction.name) \(form.rawValue): no spare tagger: \(error)")
            }
        }
    }

    /// Puts the spare tagger (a fresh one if there is none) in the drifted one's place; after the
    /// answer has been handed back, the drifted tagger ends and a new spare starts.
    private func replaceDriftedTagger(of chain: PipelineChain) {
        logger.debug("\(direction.name) \(form.rawValue): the tagger met a new ambiguity class; replacing it")
        let fresh: PipelineProcess
        if !spareTaggers.isEmpty {
            fresh = spareTaggers.removeFirst()
            replacements.fromSpare += 1
        } else if let script = scripts?.tagger, let started = try? startProcess(script) {
            fresh = started
            replacements.startedOnTheTurn += 1
        } else {
            // No tagger could start: the whole pipeline starts again with the next sentence.
            return discardProcess(grace: 0.5)
        }
        if let drifted = chain.replaceTagger(with: fresh) { setAside.append(drifted) }
        queue.async { self.afterReplacement() }
    }

    /// Runs after the answer has been handed back: lets the drifted taggers end (reaping those
    /// that have, without waiting for the others) and starts new spares.
    private func afterReplacement() {
        setAside.removeAll { $0.endWithoutWaiting() }
        if process != nil { startSpareTaggers() }
    }

    /// Ends the running process. A failed one is killed at once (`grace` 0);
    /// a healthy one is given `grace` seconds to end after its input closes.
    private func discardProcess(grace: Double = 0) {
        process?.terminate(grace: grace)
        process = nil
        for spare in spareTaggers { spare.terminate(grace: grace) }
        spareTaggers = []
        for drifted in setAside { drifted.terminate(grace: grace) }
        setAside = []
    }

    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }
}

/// How a pipeline's drifted taggers were replaced.
public struct TaggerReplacements: Sendable, Equatable {
    /// By the spare tagger, started in the background before it was needed.
    public var fromSpare = 0
    /// By a tagger started on the sentence's path, because there was no spare.
    public var startedOnTheTurn = 0

    /// The sum of two counts.
    static func + (left: TaggerReplacements, right: TaggerReplacements) -> TaggerReplacements {
        TaggerReplacements(fromSpare: left.fromSpare + right.fromSpare,
                           startedOnTheTurn: left.startedOnTheTurn + right.startedOnTheTurn)
    }
}
