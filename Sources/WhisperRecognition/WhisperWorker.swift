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
    /// One decode at a time, channels in turn (`DecodeTurns`).
    private var turns = DecodeTurns<CheckedContinuation<Void, Never>>()
    /// How many times the worker was started (the first start included).
    public private(set) var starts = 0
    /// How many requests were sent to a worker: one round trip each (a retry after a restart too).
    public private(set) var roundTrips = 0
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
    /// tries once more. `secondOpinion`: the worker decodes the full window too, in the same
    /// request, when its rules call for it (`WhisperCall.Transcribe.secondOpinion`).
    /// `channel` is whose turn it takes (`DecodeTurns`). `sharesOf`: two languages whose shares
    /// of the window's speech the answer tells (`WhisperTranscription.languageShares`).
    func transcribe(_ audio: [Int16], language: String, prompt: String?, beam: Int, alternatives: Int, words: Bool,
                    padding: WhisperPadding, secondOpinion: Bool = false, channel: String = "",
                    sharesOf: [String]? = nil) async throws -> WhisperTranscription {
        let call = WhisperCall.transcribe(.init(language: language, prompt: prompt, beam: beam, alternatives: alternatives,
                                                words: words, window: padding.window, secondOpinion: secondOpinion,
                                                sharesOf: sharesOf))
        let (id, answer): (Int, WhisperTranscription) = try await exchange(call, audio: audio, padding: padding, channel: channel)
        for decode in answer.decodes {
            let kept = decode.window == answer.window
            logger.debug("decoded", metadata: [
                "seconds": "\(String(format: "%.2f", Double(audio.count) / 16_000))", "window": "\(decode.window)",
                "silent": "\(decode.silent)", "text": "\(kept ? answer.text : "")", "kept": "\(kept)",
                "no_speech": "\(kept ? answer.noSpeechProbability : -1)", "confidence": "\(kept ? answer.confidence : -1)",
                "shares": "\(kept ? answer.languageShares ?? [] : [])",
                "worker_ms": "\(Self.stages(answer.seconds))"])
        }
        var reading = answer
        reading.request = id
        return reading
    }

    /// Decodes one utterance in two forced languages from one encoder pass (the worker's
    /// `pair` request); on a worker failure restarts it and tries once more.
    func transcribePair(_ audio: [Int16], languages: (String, String), prompt: String?, padding: WhisperPadding,
                        secondOpinion: Bool = false, channel: String = "") async throws -> WhisperPairAnswer {
        let call = WhisperCall.pair(.init(languages: [languages.0, languages.1], prompt: prompt, window: padding.window,
                                          secondOpinion: secondOpinion))
        let (_, answer): (Int, WhisperPairAnswer) = try await exchange(call, audio: audio, padding: padding, channel: channel)
        for decode in answer.decodes {
            let kept = decode.window == answer.window
            logger.debug("decoded", metadata: [
                "seconds": "\(String(format: "%.2f", Double(audio.count) / 16_000))", "window": "\(decode.window)",
                "silent": "\(decode.silent)", "kept": "\(kept)", "worker_ms": "\(Self.stages(answer.seconds))",
                "readings": "\(kept ? answer.hypotheses.map { "\($0.language) \($0.silent ? "(silent)" : $0.text)" } : [])"])
        }
        return answer
    }

    /// `answer` again with its alternative `text` as the reading (the worker's `alternative`
    /// request: no encoder pass, no decode; words aligned when `words`). Nil when the worker no
    /// longer holds that decode (it was restarted, or another request came between) or
    /// failed: the caller decides another way, and a failed worker is started again then.
    func alternative(_ text: String, of answer: WhisperTranscription, words: Bool) async -> WhisperTranscription? {
        guard let of = answer.request, let worker = process else { return nil }
        nextID += 1
        roundTrips += 1
        do {
            let body = try await worker.send(.init(id: nextID, call: .alternative(.init(of: of, text: text, words: words))),
                                             features: [], timeout: 20)
            switch try Self.reply(WhisperTranscription.self, from: body).outcome {
            case let .refused(error):
                logger.debug("alternative refused", metadata: ["error": "\(error)"])
                return nil
            case let .answer(chosen):
                logger.debug("alternative chosen", metadata: ["text": "\(chosen.text)", "instead_of": "\(answer.text)"])
                return chosen
            }
        } catch {
            if let failure = error as? ChildProcessFailure { logger.warning("\(failure); it will be started again") }
            discard(worker)
            return nil
        }
    }

    /// Sends `call` with the features of `audio` and waits for its answer, restarting a failed
    /// worker once; a refusal throws `RecognitionError.workerFailed` with the worker's sentence.
    /// Throws `CancellationError` without sending when the task is cancelled before the
    /// features are ready to go, or while it waits for `channel`'s turn: the features are made
    /// while another decode runs, and the worker is sent one request at a time.
    private func exchange<Answer: Codable & Sendable & Equatable>(_ request: WhisperCall, audio: [Int16],
                                  padding: WhisperPadding, channel: String) async throws -> (Int, Answer) {
        var call = request
        let timeout = 20 + 4 * Double(audio.count) / 16_000
        var features: (frames: Int, values: [Float])?
        var featureMels = 0
        var featureTime = Duration.zero
        var worker: WhisperProcess?
        // The features for the running worker's mel bands, made again only when they change.
        func makeFeatures() {
            guard features == nil || featureMels != extractor.mels else { return }
            let started = ContinuousClock.now
            features = padding.features(of: audio, with: extractor)
            featureMels = extractor.mels
            if let perturbation { perturbation.apply(to: &features!.values) }
            featureTime = started.duration(to: .now)
        }
        do {
            return try await RestartOnce.run({
                _ = try await running()
                // A decode no longer wanted (a speculative one whose speech went on) is not sent.
                try Task.checkCancellation()
                // The features are made before the turn is taken, while another decode runs.
                makeFeatures()
                try Task.checkCancellation()
                await withCheckedContinuation { continuation in
                    if turns.arrive(channel, continuation) { continuation.resume() }
                }
                defer { turns.finish()?.resume() }
                try Task.checkCancellation()
                // The worker may have been started again meanwhile, with a model of other mel bands.
                let current = try await running()
                worker = current
                makeFeatures()
                nextID += 1
                let id = nextID
                call.features = WhisperFeatureShape(mels: extractor.mels, frames: features?.frames ?? 0,
                                                    audioSeconds: Double(audio.count) / Double(WhisperFeatures.sampleRate))
                roundTrips += 1
                let sent = ContinuousClock.now
                let body = try await current.send(.init(id: id, call: call), features: features?.values ?? [], timeout: timeout)
                logger.debug("round trip", metadata: [
                    "op": "\(call.operation)", "seconds": "\(String(format: "%.2f", Double(audio.count) / 16_000))",
                    "round_trip_ms": "\(Int((sent.duration(to: .now) / .milliseconds(1)).rounded()))",
                    "features_ms": "\(String(format: "%.1f", featureTime / .milliseconds(1)))"])
                switch try Self.reply(Answer.self, from: body).outcome {
                case let .answer(answer): return (id, answer)
                case let .refused(error): throw RecognitionError.workerFailed(error)
                }
            }, discard: { failure, retrying in
                if let worker { discard(worker) }
                if retrying { logger.warning("\(failure); restarting it and recognizing the utterance again") }
            })
        } catch let failure as ChildProcessFailure {
            throw RecognitionError.workerFailed(failure.description)
        }
    }

    /// The worker's own time per stage, in milliseconds, for the log.
    static func stages(_ seconds: [String: Double]) -> String {
        seconds.sorted { $0.key < $1.key }.map { "\($0.key) \(Int(($0.value * 1000).rounded()))" }.joined(separator: ", ")
    }

    /// The reply in `body`; an answer that does not decode as `Answer` means the worker is out of step.
    private static func reply<Answer: Codable & Sendable & Equatable>(_: Answer.Type, from body: Data) throws -> WhisperReply<Answer> {
        do {
            return try JSONDecoder().decode(WhisperReply<Answer>.self, from: body)
        } catch {
            throw ChildProcessFailure(WhisperProcess.name, .outOfStep("an answer that is not a \(Answer.self): \(error)"))
        }
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
        if let version = ready.protocol, version != WhisperFrames.protocolVersion {
            worker.terminate()
            throw Self.otherVersion(launch, speaks: version)
        }
        guard ready.ready else {
            worker.terminate()
            throw RecognitionError.modelUnusable(path: launch.model.path, reason: ready.error ?? "the worker did not say why")
        }
        guard ready.protocol != nil, let mels = ready.mels, mels > 0 else {
            worker.terminate()
            throw Self.otherVersion(launch, speaks: nil)
        }
        return (worker, ready)
    }

    /// The one sentence for a worker of another protocol version (`speaks`; nil: older than 4).
    static func otherVersion(_ launch: Launch, speaks version: Int?) -> RecognitionError {
        let speaks = version.map { "protocol \($0)" } ?? "an older protocol"
        return .notInstalled(what: "the Whisper worker of this parley (protocol \(WhisperFrames.protocolVersion); "
                                 + "\(launch.script) speaks \(speaks))",
                             remedy: "reinstall parley and its worker together with `make install`, then `make models`")
    }

    private func discard(_ worker: WhisperProcess) {
        worker.terminate()
        if process === worker { process = nil }
    }
}
