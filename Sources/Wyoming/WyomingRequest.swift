import Foundation
import Logging
import ParleyCore
import Recognition

/// One utterance recognized by Wyoming servers.
///
/// The detector hears each 10 ms; when speech starts, a server is chosen (`WyomingPool`), the
/// connection opens and is given the last `preRollSeconds` before it and then the audio as it
/// arrives, in `chunkSeconds` pieces. When the detector's hangover (the endpoint) has passed in
/// silence, `audio-stop` is sent and the server's `transcript` is the final result.
///
/// The utterance is kept whole from its first sample. A server that fails it is left out and
/// named once; the whole utterance goes to the next server, or to the recognizer's fallback
/// when none is left, so nothing heard is lost to a server that died.
actor WyomingRequest: RecognitionRequest {
    /// Audio before the detector's verdict sent with the utterance: its first syllable.
    static let preRollSeconds = 0.3
    /// How much audio goes in one `audio-chunk`.
    static let chunkSeconds = 0.1
    /// The least speech, from the detector's start to its end (its hangover not counted), that
    /// is sent for a transcript.
    static let shortestWord = 0.15

    /// A connection to the server taking the utterance now.
    private struct Link {
        let address: WyomingAddress
        let connection: WyomingConnection
        /// Samples of `utterance` sent on it.
        var sent = 0
    }

    private let recognizer: WyomingRecognizer
    private let locale: LocaleTag
    private let language: String
    private let options: RecognitionOptions
    private let detector: any SpeechDetector
    private var tracker: UtteranceTracker
    /// Before speech: the last `preRollSeconds`.
    private var preRoll: [Int16] = []
    /// The utterance, from the pre-roll before its start on.
    private var utterance: [Int16] = []
    private var link: Link?
    /// Servers that failed this utterance, and the last failure.
    private var tried: Set<WyomingAddress> = []
    private var lastFailure: WyomingServerError?
    /// No server is left: the fallback decodes the utterance at its end.
    private var local = false
    private var over = false

    init(recognizer: WyomingRecognizer, locale: LocaleTag, options: RecognitionOptions, detector: any SpeechDetector) {
        self.recognizer = recognizer
        self.locale = locale
        language = WyomingRecognizer.serverLanguage(locale)
        self.options = options
        self.detector = detector
        tracker = UtteranceTracker(sampleRate: AudioFormat.recognition.sampleRate, startTimeout: options.startTimeout,
                                   maximumDuration: options.maximumDuration)
    }

    func append(_ chunk: PCMChunk) async throws -> [RecognitionEvent] {
        guard !over else { throw RecognitionError.requestReused }
        let format = AudioFormat.recognition
        let step = format.sampleCount(forSeconds: 0.01)
        var events: [RecognitionEvent] = []
        var start = 0
        while start < chunk.samples.count {
            let end = min(start + step, chunk.samples.count)
            let samples = chunk.samples[start..<end]
            start = end
            detector.process(samples)
            let transition = tracker.advance(by: samples.count, inSpeech: detector.inSpeech)
            if tracker.hasSpeech {
                utterance += samples
            } else {
                preRoll = Array((preRoll + samples).suffix(format.sampleCount(forSeconds: Self.preRollSeconds)))
            }
            switch transition {
            case .none:
                if let link, utterance.count - link.sent >= format.sampleCount(forSeconds: Self.chunkSeconds) { try await flush() }
            case .started:
                utterance = preRoll + samples
                preRoll = []
                events.append(.speechStarted(at: tracker.seconds(max(0, tracker.position - utterance.count))))
                try await connect()
            case .ended:
                // A sound the detector heard begin and end at once (a click, a breath) holds no
                // word: no server decodes it (a Whisper server takes seconds over such a sound,
                // while the party's next words wait).
                let hangover = AudioFormat.recognition.sampleCount(forSeconds: Double(options.endpointMilliseconds) / 1000)
                guard let start = tracker.speechStart,
                      tracker.seconds(tracker.position - start - hangover) >= Self.shortestWord else {
                    over = true
                    drop()
                    throw RecognitionError.emptyRecognition
                }
                events.append(.speechEnded(at: tracker.seconds(tracker.position)))
                events.append(.final(try await transcript()))
                return events
            case .timedOut:
                over = true
                throw RecognitionError.speechTimeout(options.startTimeout ?? 0)
            case .tooLong:
                let partial = try await transcript()
                throw RecognitionError.utteranceTooLong(limit: options.maximumDuration, partial: partial)
            }
        }
        return events
    }

    func finish() async throws -> RecognitionResult {
        guard !over else { throw RecognitionError.requestReused }
        // Speech the input ended right after the detector heard it begin (a file's last
        // breath) is too short for a word: no server is asked.
        guard let start = tracker.speechStart, tracker.seconds(tracker.position - start) >= Self.shortestWord else {
            over = true
            drop()
            throw RecognitionError.emptyRecognition
        }
        return try await transcript()
    }

    func cancel() async -> RecognitionResult {
        over = true
        drop()
        return RecognitionResult(text: "", isFinal: true)
    }

    // MARK: The servers

    /// Opens a connection to the next server that takes the utterance, and sends it what was
    /// heard so far; with none left, the fallback will decode it (or, without one, the last
    /// server's failure is thrown).
    private func connect() async throws {
        let bounds = recognizer.bounds
        while let address = recognizer.pool.lease(excluding: tried) {
            do {
                let connection = try await WyomingConnection.open(address, timeout: bounds.connect)
                link = Link(address: address, connection: connection)
                try await connection.send(WyomingEvent(type: "transcribe", fields: ["language": language]), timeout: bounds.connect)
                try await connection.send(WyomingEvent(type: "audio-start", fields: Self.audioFields), timeout: bounds.connect)
                try await send()
                wyomingLog.debug("\(address): an utterance in \(language), \(recognizer.pool.inFlight) in flight")
                return
            } catch let failure as WyomingServerError {
                wyomingLog.debug("\(failure)")
                leave(address, failure)
            }
        }
        guard recognizer.fallback != nil else {
            over = true
            throw lastFailure ?? WyomingServerError(address: recognizer.address, problem: "it cannot be reached")
        }
        local = true
    }

    /// The server at `address`, leased for the utterance, failed it: it is left out (and named,
    /// once), and the utterance will go to the next.
    private func leave(_ address: WyomingAddress, _ failure: WyomingServerError) {
        if let link, link.address == address {
            self.link = nil
            link.connection.close()
        }
        recognizer.pool.release(address)
        tried.insert(address)
        lastFailure = failure
        if recognizer.pool.failed(address) {
            let next = recognizer.pool.addresses.contains { !tried.contains($0) } ? "another server"
                : recognizer.fallback != nil ? "the Whisper worker on this machine" : "no other server"
            recognizer.pool.notice("\(failure); the utterance goes to \(next), nothing heard is lost")
        }
    }

    /// Sends what the server has not had of the utterance.
    private func send() async throws {
        guard var current = link, current.sent < utterance.count else { return }
        let bytes = utterance[current.sent...].flatMap { sample -> [UInt8] in
            let value = UInt16(bitPattern: sample.littleEndian)
            return [UInt8(value & 0xff), UInt8(value >> 8)]
        }
        current.sent = utterance.count
        link = current
        try await current.connection.send(WyomingEvent(type: "audio-chunk", fields: Self.audioFields, payload: bytes),
                                          timeout: recognizer.bounds.connect)
    }

    /// Sends what waits while the person speaks; a server that fails meanwhile is left, and
    /// the next is given the whole utterance at once (throws only when none is left, and no fallback).
    private func flush() async throws {
        do {
            try await send()
        } catch let failure as WyomingServerError {
            if let link { leave(link.address, failure) }
            try await connect()
        }
    }

    private static let audioFields: [String: any Sendable] = ["rate": AudioFormat.recognition.sampleRate, "width": 2, "channels": 1]

    /// Drops the connection, if any.
    private func drop() {
        guard let link else { return }
        self.link = nil
        link.connection.close()
        recognizer.pool.release(link.address)
    }

    /// Ends the audio and waits for a transcript: the final result, from the server taking the
    /// utterance, or the next, or the fallback.
    private func transcript() async throws -> RecognitionResult {
        over = true
        while true {
            if local { return try await decodeHere() }
            if link == nil { try await connect() }
            guard let current = link else { continue }
            do {
                let result = try await answer(from: current)
                drop()
                recognizer.pool.answered(current.address)
                return result
            } catch let failure as WyomingServerError {
                leave(current.address, failure)
            } catch {
                drop()
                throw error
            }
        }
    }

    /// The transcript of the utterance from the server of `current`.
    private func answer(from current: Link) async throws -> RecognitionResult {
        try await send()
        let connection = current.connection
        try await connection.send(WyomingEvent(type: "audio-stop"), timeout: recognizer.bounds.connect)
        let seconds = AudioFormat.recognition.duration(ofSamples: utterance.count)
        let bound = recognizer.bounds.transcript + 2 * seconds
        let deadline = Date().addingTimeInterval(bound)
        while true {
            let left = deadline.timeIntervalSinceNow
            let silent = WyomingServerError(address: current.address, problem: "it did not answer within \(formatted(bound)) s")
            guard left > 0 else { throw silent }
            let event: WyomingEvent
            do {
                event = try await connection.receive(timeout: left)
            } catch let error as WyomingServerError where error.problem.hasPrefix("it did not answer within") {
                throw silent
            }
            switch event.type {
            case "transcript":
                let text = try event.decode(WyomingTranscript.self).text.trimmingCharacters(in: .whitespacesAndNewlines)
                wyomingLog.debug("\(current.address): \(formatted(seconds)) s of \(language) speech, transcript \(Int((bound - deadline.timeIntervalSinceNow) * 1000)) ms after its end")
                guard !text.isEmpty else { throw RecognitionError.emptyRecognition }
                // A Wyoming transcript carries no confidence and no word times: it counts as sure.
                return RecognitionResult(text: text, confidence: 1, isFinal: true)
            case "error":
                let message = (try? event.decode(WyomingTranscript.self).text) ?? "an error with no text"
                throw WyomingServerError(address: current.address, problem: "it answered with an error: \(message)")
            default:
                continue  // transcript-start, transcript-chunk, transcript-stop, and anything newer
            }
        }
    }

    /// The utterance decoded by the fallback (the Whisper worker on this machine).
    private func decodeHere() async throws -> RecognitionResult {
        guard let fallback = recognizer.fallback else { throw RecognitionError.emptyRecognition }
        var localOptions = options
        localOptions.commitPolicy = nil
        localOptions.startTimeout = nil
        let request = try await fallback.makeRequest(locale: locale, options: localOptions, newStream: true)
        let events = try await request.append(PCMChunk(format: .recognition, samples: utterance))
        for case let .final(result) in events { return result }
        return try await request.finish()
    }
}

/// The data of a `transcript` event (and of an `error` event: its `text`).
struct WyomingTranscript: Decodable {
    var text: String
}
