import Foundation
import Logging
import ParleyCore
import Recognition

/// One utterance recognized by a Wyoming server.
///
/// The detector hears each 10 ms; when speech starts, the connection opens and is given the
/// last `preRollSeconds` before it and then the audio as it arrives, in `chunkSeconds` pieces.
/// When the detector's hangover (the endpoint) has passed in silence, `audio-stop` is sent and
/// the server's `transcript` is the final result.
actor WyomingRequest: RecognitionRequest {
    /// Audio before the detector's verdict sent with the utterance: its first syllable.
    static let preRollSeconds = 0.3
    /// How much audio goes in one `audio-chunk`.
    static let chunkSeconds = 0.1
    /// The least speech, from the detector's start, that `finish` sends for a transcript.
    static let shortestWord = 0.15

    private let recognizer: WyomingRecognizer
    private let language: String
    private let options: RecognitionOptions
    private let detector: any SpeechDetector
    private var tracker: UtteranceTracker
    /// Audio not yet sent: before speech, the pre-roll; during it, what waits for a full chunk.
    private var pending: [Int16] = []
    private var samplesSent = 0
    private var connection: WyomingConnection?
    private var over = false

    init(recognizer: WyomingRecognizer, language: String, options: RecognitionOptions, detector: any SpeechDetector) {
        self.recognizer = recognizer
        self.language = language
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
            pending += samples
            switch tracker.advance(by: samples.count, inSpeech: detector.inSpeech) {
            case .none:
                if tracker.hasSpeech {
                    if pending.count >= format.sampleCount(forSeconds: Self.chunkSeconds) { try await sendPending() }
                } else {
                    pending = Array(pending.suffix(format.sampleCount(forSeconds: Self.preRollSeconds)))
                }
            case .started:
                events.append(.speechStarted(at: tracker.seconds(max(0, tracker.position - pending.count))))
                try await begin()
            case .ended:
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
        // breath) is too short for a word: the server is not asked.
        guard let start = tracker.speechStart, tracker.seconds(tracker.position - start) >= Self.shortestWord else {
            over = true
            connection?.close()
            throw RecognitionError.emptyRecognition
        }
        return try await transcript()
    }

    func cancel() async -> RecognitionResult {
        over = true
        connection?.close()
        connection = nil
        return RecognitionResult(text: "", isFinal: true)
    }

    /// Opens the connection and announces the utterance.
    private func begin() async throws {
        let bounds = recognizer.bounds
        let connection = try await WyomingConnection.open(recognizer.address, timeout: bounds.connect)
        self.connection = connection
        try await connection.send(WyomingEvent(type: "transcribe", fields: ["language": language]), timeout: bounds.connect)
        try await connection.send(WyomingEvent(type: "audio-start", fields: Self.audioFields), timeout: bounds.connect)
        try await sendPending()
    }

    private static let audioFields: [String: any Sendable] = ["rate": AudioFormat.recognition.sampleRate, "width": 2, "channels": 1]

    private func sendPending() async throws {
        guard let connection, !pending.isEmpty else { return }
        let bytes = pending.flatMap { sample -> [UInt8] in
            let value = UInt16(bitPattern: sample.littleEndian)
            return [UInt8(value & 0xff), UInt8(value >> 8)]
        }
        samplesSent += pending.count
        pending = []
        try await connection.send(WyomingEvent(type: "audio-chunk", fields: Self.audioFields, payload: bytes),
                                  timeout: recognizer.bounds.connect)
    }

    /// Ends the audio and waits for the server's transcript: the final result.
    private func transcript() async throws -> RecognitionResult {
        over = true
        guard let connection else { throw RecognitionError.emptyRecognition }
        defer {
            connection.close()
            self.connection = nil
        }
        try await sendPending()
        try await connection.send(WyomingEvent(type: "audio-stop"), timeout: recognizer.bounds.connect)
        let bound = recognizer.bounds.transcript + 2 * AudioFormat.recognition.duration(ofSamples: samplesSent)
        let deadline = Date().addingTimeInterval(bound)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else {
                throw WyomingServerError(address: recognizer.address, problem: "it did not answer within \(formatted(bound)) s")
            }
            let event: WyomingEvent
            do {
                event = try await connection.receive(timeout: left)
            } catch var error as WyomingServerError where error.problem.hasPrefix("it did not answer within") {
                error.problem = "it did not answer within \(formatted(bound)) s"
                throw error
            }
            switch event.type {
            case "transcript":
                let text = try event.decode(WyomingTranscript.self).text.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !text.isEmpty else { throw RecognitionError.emptyRecognition }
                WyomingSynthesizer.log.debug("\(recognizer.address): \(formatted(AudioFormat.recognition.duration(ofSamples: samplesSent))) s of \(language) speech, transcript \(Int((bound - deadline.timeIntervalSinceNow) * 1000)) ms after its end")
                // A Wyoming transcript carries no confidence and no word times: it counts as sure.
                return RecognitionResult(text: text, confidence: 1, isFinal: true)
            case "error":
                let message = (try? event.decode(WyomingTranscript.self).text) ?? "an error with no text"
                throw WyomingServerError(address: recognizer.address, problem: "it answered with an error: \(message)")
            default:
                continue  // transcript-start, transcript-chunk, transcript-stop, and anything newer
            }
        }
    }
}

/// The data of a `transcript` event (and of an `error` event: its `text`).
struct WyomingTranscript: Decodable {
    var text: String
}
