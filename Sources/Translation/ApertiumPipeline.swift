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
/// A pipeline whose tagger changed while translating a sentence (see
/// `TaggerDrift`) is replaced right after answering, so the same sentence
/// always gets the same translation, whatever came before it.
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
    private var process: PipelineProcess?
    /// Drifted processes taken out of service, still to be ended; touched only on `queue`.
    private var setAside: [PipelineProcess] = []
    /// Whether `process` has answered a request yet (its first one may still wait for the dictionaries); touched only on `queue`.
    private var processHasAnswered = false
    /// The mode's pipeline text, read once; touched only on `queue`.
    private var script: String?
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
        process?.terminate()
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

    /// The running pipeline's process group, if one is running (for diagnostics and tests).
    var processGroup: Int32? {
        get async { await onQueue { self.process?.processGroup } }
    }

    private func translateNow(_ text: String) throws -> String {
        do {
            return try exchange(text)
        } catch let failure as PipelineFailure {
            logger.warning("\(direction.name) \(form.rawValue): \(failure); restarting and retrying once")
            discardProcess()
            do {
                return try exchange(text)
            } catch let failure as PipelineFailure {
                discardProcess()
                throw TranslationError.engineFailed(direction: direction.name, reason: failure.description)
            }
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
            throw PipelineFailure.outOfStep
        }
        processHasAnswered = true
        if running.isOutOfStep {
            logger.warning("\(direction.name) \(form.rawValue): bytes after the answer; restarting before the next sentence")
            discardProcess()
        } else if TaggerDrift.hasDrifted(errorOutput: running.takeErrorOutput()) {
            // Set aside now: a sentence already waiting on the queue must not meet this tagger.
            setAside.append(running)
            process = nil
            queue.async { self.replaceDriftedProcess() }
        }
        return translation.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func runningProcess() throws -> PipelineProcess {
        if let process { return process }
        let script = try self.script ?? TaggerDrift.reporting(ApertiumEnvironment.pipelineScript(modeFile: direction.modeFile))
        self.script = script
        let started = try PipelineProcess(script: script, arguments: [form.rawValue, ""],
                                          environment: ApertiumEnvironment.forPipeline())
        logger.debug("started \(direction.name) \(form.rawValue) as process group \(started.processGroup)")
        process = started
        processHasAnswered = false
        return started
    }

    /// Runs after the answer has been handed back: ends the drifted process and,
    /// unless a sentence that was already waiting started one, starts its
    /// replacement at once, so its dictionaries load while the next sentence is awaited.
    private func replaceDriftedProcess() {
        guard !setAside.isEmpty else { return }
        logger.debug("\(direction.name) \(form.rawValue): the tagger met a new ambiguity class; replacing the pipeline")
        for drifted in setAside { drifted.terminate(grace: 0.5) }
        setAside = []
        guard process == nil else { return }
        do { _ = try runningProcess() } catch {
            logger.warning("\(direction.name) \(form.rawValue): \(error); starting again with the next sentence")
        }
    }

    /// Ends the running process. A failed one is killed at once (`grace` 0);
    /// a healthy one is given `grace` seconds to end after its input closes.
    private func discardProcess(grace: Double = 0) {
        process?.terminate(grace: grace)
        process = nil
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
