import Foundation
import Synchronization

/// What a Wyoming server says it serves (`info`): its speech recognition (`asr`) and its
/// voices (`tts`), as far as Parley uses them.
public struct WyomingInfo: Sendable, Decodable {
    public struct Program: Sendable, Decodable {
        public var name: String?
        public var version: String?
        public var installed: Bool?
        /// A recognition program's models.
        public var models: [Model]?
        /// A speech program's voices.
        public var voices: [Model]?
        public var supportsTranscriptStreaming: Bool?

        enum CodingKeys: String, CodingKey {
            case name, version, installed, models, voices
            case supportsTranscriptStreaming = "supports_transcript_streaming"
        }
    }

    public struct Model: Sendable, Decodable {
        public var name: String?
        public var installed: Bool?
        public var languages: [String]?
    }

    public var asr: [Program]?
    public var tts: [Program]?

    /// The installed voices, with the program that speaks them.
    public var voices: [(program: Program, voice: Model)] {
        (tts ?? []).filter { $0.installed != false }.flatMap { program in
            (program.voices ?? []).filter { $0.installed != false }.map { (program, $0) }
        }
    }

    /// The installed recognition models.
    public var models: [Model] {
        (asr ?? []).filter { $0.installed != false }.flatMap { $0.models ?? [] }.filter { $0.installed != false }
    }

    /// The installed programs, for a person: "faster-whisper 3.8.1 (whisper-base)", "piper 2.5.2 (en_US-joe-medium)".
    public var summary: String {
        ((asr ?? []) + (tts ?? [])).filter { $0.installed != false }.map { program in
            let models = ((program.models ?? []) + (program.voices ?? [])).filter { $0.installed != false }
                .compactMap { $0.name.map { String($0.split(separator: "/").last ?? Substring($0)) } }
            return [program.name, program.version].compactMap { $0 }.joined(separator: " ")
                + (models.isEmpty ? "" : " (\(models.joined(separator: ", ")))")
        }.joined(separator: "; ")
    }

    /// Whether an installed recognition model is listed.
    public var recognizes: Bool { !models.isEmpty }

    /// Every language an installed model lists, once each, in their order.
    public var languages: [String] {
        models.flatMap { $0.languages ?? [] }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }
}

/// One server's answer to `describe`, asked once and kept; a failure is kept for `retry`
/// seconds, so that a server that is down is not asked by every caller in turn.
final class WyomingDescription: Sendable {
    let address: WyomingAddress
    private let connect: Double
    private let answer: Double
    private let retry: Double
    private let known = Mutex<(result: Result<WyomingInfo, WyomingServerError>, at: Date)?>(nil)

    init(address: WyomingAddress, connect: Double, answer: Double, retry: Double) {
        (self.address, self.connect, self.answer, self.retry) = (address, connect, answer, retry)
    }

    func info() async throws -> WyomingInfo {
        if let (result, at) = known.withLock({ $0 }) {
            switch result {
            case let .success(info): return info
            case let .failure(error): if -at.timeIntervalSinceNow < retry { throw error }
            }
        }
        do {
            let info = try await ask()
            known.withLock { $0 = (.success(info), Date()) }
            return info
        } catch let error as WyomingServerError {
            known.withLock { $0 = (.failure(error), Date()) }
            throw error
        }
    }

    private func ask() async throws -> WyomingInfo {
        let connection = try await WyomingConnection.open(address, timeout: connect)
        defer { connection.close() }
        try await connection.send(WyomingEvent(type: "describe"), timeout: answer)
        while true {
            let event = try await connection.receive(timeout: answer)
            guard event.type == "info" else { continue }
            do { return try event.decode(WyomingInfo.self) } catch {
                throw WyomingServerError(address: address, problem: "it does not speak Wyoming: \(error)")
            }
        }
    }
}
