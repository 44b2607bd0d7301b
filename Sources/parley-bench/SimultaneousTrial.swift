import ArgumentParser
import Foundation
import ProcessHarness

/// One passage played into `parley dialog en-US es-ES` in one mode (`SimultaneousBenchmark`):
/// the microphone's and the speaker's monitors recorded on one timeline, and the turn as the
/// transcript wrote it.
struct SimultaneousTrial {
    /// How the turn is interpreted.
    enum Mode: String, CaseIterable, Codable, ExpressibleByArgument {
        case turnBased = "turn-based"
        case localAgreement = "local-agreement"
        case alignAtt = "align-att"
        /// Local agreement with a microphone and speaker per side and no echo canceller.
        case headsets = "headsets"
        /// Local agreement with Parley's defaults in a room: the speaker heard by the microphone
        /// (a loopback, `echoRoomLatency` ms late, as loud as it was played).
        case echoRoom = "echo-room"
        /// Turn by turn with Parley's defaults in that room: each pause the endpoint hears ends a
        /// turn of A's, and A goes on before and over their own translation.
        case turnsEchoRoom = "turns-echo-room"

        /// Whether a turn is translated at its end, not clause by clause.
        var isTurnBased: Bool { self == .turnBased || self == .turnsEchoRoom }

        /// Whether the microphone hears the speaker (`echoRoomLatency` ms late, 0 dB).
        var inEchoRoom: Bool { self == .echoRoom || self == .turnsEchoRoom }

        /// The options of `parley dialog` for the mode (a headset each: without the devices).
        var arguments: [String] {
            switch self {
            case .turnBased, .turnsEchoRoom: []
            case .localAgreement, .alignAtt: ["--simultaneous", "--commit-policy", rawValue]
            case .headsets: ["--simultaneous", "--commit-policy", Mode.localAgreement.rawValue, "--echo-cancel", "off"]
            case .echoRoom: ["--simultaneous", "--commit-policy", Mode.localAgreement.rawValue]
            }
        }

        /// Its name in the tables.
        var label: String {
            switch self {
            case .turnBased: "turn-based"
            case .localAgreement, .alignAtt: "simultaneous \(rawValue)"
            case .headsets: "simultaneous local-agreement, a headset each, no canceller"
            case .echoRoom: "simultaneous local-agreement, one room: its speaker heard by its microphone"
            case .turnsEchoRoom: "turn-based, one room: its speaker heard by its microphone"
            }
        }
    }

    /// What one run measured. Wall-clock times are seconds on the recordings' timeline.
    struct Outcome {
        /// The recognized text of the turn (`text`), and the committed text: the clauses' texts
        /// in order, the tail last (turn-based: the text).
        var text: String
        var committed: String
        /// Turns the transcript holds for side A (1 unless the passage was cut).
        var turns: Int
        /// Per clause, speak_start − source_end (simultaneous modes only; unspoken clauses left out).
        var earVoiceSpans: [Double]
        /// Per clause, committed − source_end: how long after its last word Parley had it.
        var commitLatencies: [Double]
        /// Per clause, how many times the listening side's rate it was spoken at.
        var speeds: [Double]
        var clauses: Int
        /// The passage's first and last sound on the microphone, and the translation's on the speaker.
        var passageStart: Double
        var passageEnd: Double
        var firstTranslated: Double?
        var lastTranslated: Double?
        /// Lines of `→ es-ES:` printed.
        var spokenLines: Int
        /// The translation's level while the passage plays (its sounding frames' power) against
        /// the passage's own (its file's sounding frames), in dB; nil when nothing sounded then.
        var levelUnderSpeech: Double?
        /// The translation as a listener hears it, alone and under the passage; nil when nothing
        /// was spoken.
        var heard: TranslationHeard?
    }

    var file: String
    var mode: Mode
    var directory: URL
    /// More options of `parley dialog`.
    var options: [String] = []

    static let microphone = "parley_mic"
    static let speaker = "parley_speaker"
    /// How long after the passage has played, and after its last turn was written, no turn of
    /// A's more is awaited: above the yield silence and a clause's translation.
    static let settled = 6.0
    /// The echo room's path from the speaker to the microphone, in ms (at 0 dB).
    static let echoRoomLatency = 40

    func run() throws -> Outcome {
        let label = UUID().uuidString.prefix(8).lowercased()
        let transcript = directory.appendingPathComponent("transcript-\(label).jsonl").path
        // A headset each: A hears on a speaker of its own, B speaks into a microphone of its own
        // and hears on the recorded speaker; neither microphone hears a speaker.
        var devices: [String] = []
        var headsets: [NullSink] = []
        defer { headsets.forEach { $0.unload() } }
        if mode == .headsets {
            headsets = [try NullSink(name: "parley_bench_hsa_\(label)", format: NullSink.format()),
                        try NullSink(name: "parley_bench_hsb_\(label)", format: NullSink.format())]
            devices = ["--source", "\(Self.microphone).monitor", "--sink", headsets[0].name,
                       "--source-b", headsets[1].monitor, "--sink-b", Self.speaker]
        }
        // One room: what the speaker plays reaches the microphone, where the passage is played too.
        let room = mode.inEchoRoom
            ? try RoomLoopback(from: "\(Self.speaker).monitor", to: Self.microphone, latency: Self.echoRoomLatency, decibels: 0,
                               keepsRate: true)
            : nil
        defer { room?.unload() }
        let dialog = try DialogueProcess(["dialog", "en-US", "es-ES", "--transcript", transcript, "--no-history"]
                                         + mode.arguments + options + devices, terminal: .pipe)
        defer { dialog.finish() }
        try dialog.waitFor("A (en-US), your turn", moreThan: 0, timeout: 120)
        Thread.sleep(forTimeInterval: 1)
        let spoken = try MonitorRecorder("\(Self.speaker).monitor", into: directory.appendingPathComponent("speaker-\(label).raw").path)
        let heard = try MonitorRecorder("\(Self.microphone).monitor", into: directory.appendingPathComponent("mic-\(label).raw").path)
        // One instant on both recordings: sample `origin` of each is time 0.
        let origins = (spoken: spoken.samples().count, heard: heard.samples().count)
        Thread.sleep(forTimeInterval: 0.3)
        let played = try ProcessRunner.run(["paplay", "--device=\(Self.microphone)", file], timeout: 120)
        guard played.status == 0 else { throw BenchmarkFailure("paplay failed: \(played.stderr)") }
        // A turn is written once its translation has been spoken. The passage may be several
        // turns of A's (with a microphone each, every pause the endpoint hears ends one): every
        // one is read, until no more has come for `settled` seconds.
        let deadline = Date().addingTimeInterval(180)
        var lines: [TranscriptLine] = []
        var changed = Date()
        while lines.isEmpty || Date().timeIntervalSince(changed) < Self.settled {
            guard Date() < deadline else {
                let written = (try? String(contentsOfFile: transcript, encoding: .utf8)) ?? ""
                throw BenchmarkFailure("no turn of side A could be read from the transcript (\(mode.label)); parley printed "
                    + "'→ es-ES' \(dialog.count("→ es-ES")) times; the transcript holds: \(written.suffix(1_000))")
            }
            Thread.sleep(forTimeInterval: 0.2)
            let now = Self.turns(transcript)
            if now.count != lines.count { (lines, changed) = (now, Date()) }
        }
        try dialog.waitFor("B (es-ES), your turn", moreThan: 0, timeout: 60)
        Thread.sleep(forTimeInterval: 1.5)
        let (speakerSamples, microphoneSamples) = (spoken.stop(), heard.stop())
        let seconds = { (frame: Int, origin: Int) in Double(frame * 160 - origin) / 16_000 }
        let microphoneLevels = BargeInTrial.envelope(microphoneSamples)
        let speakerLevels = BargeInTrial.envelope(speakerSamples)
        let after = { (origin: Int) in origin / 160 }
        guard let start = microphoneLevels.indices.dropFirst(after(origins.heard)).first(where: { microphoneLevels[$0] > 0.005 }),
              var end = microphoneLevels.indices.dropFirst(after(origins.heard)).last(where: { microphoneLevels[$0] > 0.005 }) else {
            throw BenchmarkFailure("the passage was not heard on \(Self.microphone).monitor")
        }
        let passage = try Self.samples(of: file)
        let passageLevels = BargeInTrial.envelope(passage)
        if room != nil {
            // The microphone also hears the translation: the passage ends as long after its first
            // sound as it does in the file.
            if let first = passageLevels.firstIndex(where: { $0 > 0.005 }), let last = passageLevels.lastIndex(where: { $0 > 0.005 }) {
                end = start + last - first
            }
        }
        // The speaker's frames over the passage's span, on one timeline: frame f of the
        // microphone's recording is the speaker's frame f + shift.
        let shift = after(origins.spoken) - after(origins.heard)
        let underSpeech = (start...end).map { $0 + shift }.filter(speakerLevels.indices.contains).map { speakerLevels[$0] }
        let speakerFrames = speakerLevels.indices.dropFirst(after(origins.spoken))
        let first = speakerFrames.first { speakerLevels[$0] > 0.01 }
        let last = speakerFrames.last { speakerLevels[$0] > 0.003 }
        let clauses = lines.flatMap { $0.clauses ?? [] }
        let said = mode.isTurnBased ? lines.map(\.translation) : clauses.map(\.translation)
        var heardTranslation: TranslationHeard?
        if !said.joined().isEmpty, let passageFirst = passageLevels.firstIndex(where: { $0 > 0.005 }) {
            // The passage's first sound where the microphone heard it, on the speaker's timeline.
            let speaker = Array(speakerSamples.dropFirst(origins.spoken))
            let offset = (start + shift - passageFirst) * 160 - origins.spoken
            let mixed = Self.listenerMix(speaker, passage: passage, offset: offset)
            heardTranslation = TranslationHeard(said: said.joined(separator: " "),
                                                alone: try spanishReading(speaker, name: "alone-\(label)"),
                                                underSpeech: try spanishReading(mixed, name: "under-\(label)"))
        }
        let committed = mode.isTurnBased ? lines.map(\.text).joined(separator: " ") : clauses.map(\.text).joined(separator: " ")
        return Outcome(text: lines.map(\.text).joined(separator: " "), committed: committed, turns: lines.count,
                       earVoiceSpans: clauses.compactMap { clause in clause.speakStart.map { $0 - clause.sourceEnd } },
                       commitLatencies: clauses.map { $0.committed - $0.sourceEnd }, speeds: clauses.map(\.speed),
                       clauses: clauses.count,
                       passageStart: seconds(start, origins.heard), passageEnd: seconds(end + 1, origins.heard),
                       firstTranslated: first.map { seconds($0, origins.spoken) },
                       lastTranslated: last.map { seconds($0 + 1, origins.spoken) },
                       spokenLines: dialog.count("→ es-ES"),
                       levelUnderSpeech: Self.decibels(underSpeech, against: passageLevels), heard: heardTranslation)
    }

    /// The power of `levels`' sounding frames (above −50 dBFS) against `reference`'s, in dB;
    /// nil when either has none.
    static func decibels(_ levels: [Double], against reference: [Double]) -> Double? {
        let power = { (frames: [Double]) -> Double? in
            let sounding = frames.filter { $0 > 0.003 }
            return sounding.isEmpty ? nil : sounding.map { $0 * $0 }.reduce(0, +) / Double(sounding.count)
        }
        guard let heard = power(levels), let own = power(reference) else { return nil }
        return 10 * log10(heard / own)
    }

    /// The file at `path` as 16 kHz mono samples (sox converts it).
    static func samples(of path: String) throws -> [Int16] {
        let raw = path + ".raw"
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let converted = try ProcessRunner.run(["sox", path, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw])
        guard converted.status == 0 else { throw BenchmarkFailure("sox could not read \(path): \(converted.stderr)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: raw))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// One line of the transcript, the fields read here.
    struct TranscriptLine: Decodable {
        struct Times: Decodable {
            var speechStart: Double?
            var speechEnd: Double?
            var speakStart: Double?
            var speakEnd: Double?
        }

        struct Clause: Decodable {
            var text: String
            var translation: String
            var sourceStart: Double
            var sourceEnd: Double
            var speakStart: Double?
            var speakEnd: Double?
            var committed: Double
            var speed: Double
            var tail: Bool
        }

        var side: String
        var text: String
        var translation: String
        var times: Times
        var simultaneous: Bool?
        var clauses: [Clause]?
    }

    /// Side A's turns in the transcript at `path`.
    static func turns(_ path: String) -> [TranscriptLine] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return text.split(separator: "\n").compactMap { try? decoder.decode(TranscriptLine.self, from: Data($0.utf8)) }
            .filter { $0.side == "A" }
    }
}
