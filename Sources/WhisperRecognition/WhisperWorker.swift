import ChildProcesses
import Foundation
import ParleyCore
public import Logging

/// The long-lived Whisper worker: started once, kept warm, restarted when it
/// fails.
///
/// Like the Apertium pipelines, a worker that dies, hangs or answers out of
/// step is killed and started again, and the utterance is sent once more; a
/// second failure is reported. The model is loaded once per process.
public actor WhisperWorker {
    /// How to start the worker.
    public struct Launch: Sendable, Equatable {
        /// The Python interpreter of the worker's environment.
        public var python: String
        /// `whisper_worker.py`.
        public var script: String
        /// The model directory.
        public var model: WhisperModelFolder
        /// Threads for CTranslate2.
        public var threads: Int

        /// Creates launch settings.
        public init(python: String, script: String, model: WhisperModelFolder, threads: Int = 2) {
            self.python = python
            self.script = script
            self.model = model
            self.threads = threads
        }

        var arguments: [String] {
            [python, script, "--model", model.path, "--threads", String(threads)]
                + (model.pinnedSHA256.map { ["--sha256", $0] } ?? [])
        }
    }

    /// The settings the worker runs with.
    public nonisolated let launch: Launch
    let logger: Logger
    private var process: WhisperProcess?
    private var starting: Task<(WhisperProcess, WhisperReady), any Error>?
    private var languages: [String] = []
    private var nextID = 0
    /// How many times the worker was started (the first start included).
    public private(set) var starts = 0
    /// The feature extractor for the running worker's model (its mel bands).
    private var extractor = WhisperFeatures()
    /// Moves every request's features by a few float32 steps (measurements only).
    private var perturbation: FeaturePerturbation?

    /// Seconds allowed for the interpreter to start and load the model.
    static let startTimeout = 120.0

    /// A worker for `launch`; nothing runs until `start()` or the first request.
    public init(launch: Launch, logger: Logger = Logger(label: "parley.whisper")) {
        self.launch = launch
        self.logger = logger
    }

    /// Starts the worker now, if it is not running, and waits until its model is loaded.
    /// Throws `RecognitionError.modelUnusable` with the worker's own sentence when it cannot load.
    @discardableResult
    public func start() async throws -> [String] {
        _ = try await running()
        return languages
    }

    /// Perturbs the features of every later request (nil: none), to measure how readings
    /// depend on the features' last bits.
    public func perturbFeatures(_ perturbation: FeaturePerturbation?) {
        self.perturbation = perturbation
    }

    /// The worker's process id, once running.
    public func processIdentifier() async -> Int32? { process?.pid }

    /// Stops the worker.
    public func shutdown() {
        process?.close()
        process = nil
        starting?.cancel()
        starting = nil
    }

    /// Decodes one utterance, padded as `padding` says; on a worker failure restarts it and
    /// tries once more.
    func transcribe(_ audio: [Int16], language: String, prompt: String?, beam: Int,
                    alternatives: Int, words: Bool, padding: WhisperPadding) async throws -> WhisperAnswer {
        let header = WhisperRequestHeader(id: 0, language: language, prompt: prompt, beam: beam,
                                          alternatives: alternatives, words: words,
                                          window: padding == .fullWindow ? "full" : nil)
        return try await exchange(header, audio: audio, padding: padding)
    }

    /// Decodes one utterance in two forced languages from one encoder pass (the worker's
    /// `pair` request); on a worker failure restarts it and tries once more.
    func transcribePair(_ audio: [Int16], languages: (String, String), prompt: String?,
                        padding: WhisperPadding) async throws -> WhisperAnswer {
        let header = WhisperRequestHeader(op: "pair", id: 0, language: languages.0, prompt: prompt, beam: 1,
                                          alternatives: 0, words: false, languages: [languages.0, languages.1],
                                          window: padding == .fullWindow ? "full" : nil)
        return try await exchange(header, audio: audio, padding: padding)
    }

    /// `answer` again with its alternative `text` as the reading (the worker's `alternative`
    /// request: no encoder pass, no decode; words aligned when `words`). Nil when the worker no
    /// longer holds that decode (it was restarted, or another request came between) or
    /// failed: the caller decides another way, and a failed worker is started again then.
    func alternative(_ text: String, of answer: WhisperAnswer, words: Bool) async -> WhisperAnswer? {
        guard let of = answer.id, let worker = process else { return nil }
        nextID += 1
        let header = WhisperRequestHeader(op: "alternative", id: nextID, language: "", beam: 1, alternatives: 0,
                                          words: words, of: of, text: text)
        do {
            let chosen = try await worker.send(header, features: [], timeout: 20)
            guard chosen.ok else {
                logger.debug("alternative refused", metadata: ["error": "\(chosen.error ?? "")"])
                return nil
            }
            logger.debug("alternative chosen", metadata: ["text": "\(chosen.text ?? "")", "instead_of": "\(answer.text ?? "")"])
            return chosen
        } catch {
            if let failure = error as? ChildProcessFailure { logger.warning("\(failure); it will be started again") }
            discard(worker)
            return nil
        }
    }

    /// Sends `header` with the features of `audio` and waits for the answer, restarting a
    /// failed worker once. Throws `CancellationError` without sending when the task is cancelled
    /// before the features are ready to go.
    private func exchange(_ request: WhisperRequestHeader, audio: [Int16], padding: WhisperPadding) async throws -> WhisperAnswer {
        var header = request
        let timeout = 20 + 4 * Double(audio.count) / 16_000
        var features: (frames: Int, values: [Float])?
        var featureTime = Duration.zero
        for attempt in 1...2 {
            let worker = try await running()
            // A decode no longer wanted (a speculative one whose speech went on) is not sent.
            try Task.checkCancellation()
            nextID += 1
            header.id = nextID
            if features == nil || header.mels != extractor.mels {
                let started = ContinuousClock.now
                features = padding.features(of: audio, with: extractor)
                if let perturbation { perturbation.apply(to: &features!.values) }
                featureTime = started.duration(to: .now)
                header.mels = extractor.mels
            }
            try Task.checkCancellation()
            header.frames = features?.frames ?? 0
            header.audioSeconds = Double(audio.count) / Double(WhisperFeatures.sampleRate)
            do {
                let sent = ContinuousClock.now
                let answer = try await worker.send(header, features: features?.values ?? [], timeout: timeout)
                let roundTrip = sent.duration(to: .now)
                let stages = (answer.seconds ?? [:]).sorted { $0.key < $1.key }
                    .map { "\($0.key) \(Int(($0.value * 1000).rounded()))" }.joined(separator: ", ")
                logger.debug("decoded", metadata: [
                    "seconds": "\(String(format: "%.2f", Double(audio.count) / 16_000))", "text": "\(answer.text ?? "")",
                    "round_trip_ms": "\(Int((roundTrip / .milliseconds(1)).rounded()))",
                    "features_ms": "\(String(format: "%.1f", featureTime / .milliseconds(1)))",
                    "worker_ms": "\(stages)", "window": "\(answer.window ?? "short")",
                    "silent": "\(answer.silent ?? false)", "no_speech": "\(answer.noSpeechProbability ?? -1)",
                    "confidence": "\(answer.confidence ?? -1)"])
                return answer
            } catch let failure as ChildProcessFailure {
                discard(worker)
                guard attempt == 1 else { throw RecognitionError.workerFailed(failure.description) }
                logger.warning("\(failure); restarting it and recognizing the utterance again")
            }
        }
        preconditionFailure("the loop returns or throws")
    }

    // MARK: Lifecycle

    private func running() async throws -> WhisperProcess {
        if let process { return process }
        if let starting { return try await starting.value.0 }
        let task = Task { [launch] in try await Self.spawn(launch) }
        starting = task
        defer { starting = nil }
        do {
            let (worker, ready) = try await task.value
            starts += 1
            languages = ready.languages ?? []
            if let mels = ready.mels, mels != extractor.mels { extractor = WhisperFeatures(mels: mels) }
            logger.debug("worker ready", metadata: ["pid": "\(worker.pid)", "mels": "\(extractor.mels)"])
            process = worker
            return worker
        } catch let failure as ChildProcessFailure {
            throw RecognitionError.workerFailed(failure.description)
        }
    }

    private static func spawn(_ launch: Launch) async throws -> (WhisperProcess, WhisperReady) {
        let worker = try WhisperProcess(arguments: launch.arguments)
        let ready = try await worker.ready(timeout: startTimeout)
        guard ready.ready else {
            worker.terminate()
            throw RecognitionError.modelUnusable(path: launch.model.path, reason: ready.error ?? "the worker did not say why")
        }
        guard (ready.protocol ?? 1) >= 3, let mels = ready.mels, mels > 0 else {
            worker.terminate()
            throw RecognitionError.modelUnusable(path: launch.model.path,
                                                 reason: "the worker at \(launch.script) is older than this parley (it takes audio, not features)")
        }
        return (worker, ready)
    }

    private func discard(_ worker: WhisperProcess) {
        worker.terminate()
        if process === worker { process = nil }
    }
}
