import ArgumentParser
import Audio
import Foundation
import ProcessHarness

/// `parley-bench bargein`: a person interrupting a spoken translation, and translations that
/// nobody interrupts, on PulseAudio and on pipewire-pulse, in a room made of a loopback from
/// the speaker's monitor into the microphone.
///
/// Reaction: side A types a long Spanish sentence; 1.5 s after its translation is heard, a
/// person (LibriVox sentence 0890) speaks into the microphone. The speaker and the microphone
/// are recorded; their envelopes give the room's lag, the person's first sound on the
/// microphone, and the moment the speaker fell silent. False interruptions: typed lines
/// in both languages, spoken one after another with the echo in the room for `--soak` seconds.
struct BargeInBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bargein",
        abstract: "Barge-in reaction time, words heard, and false interruptions, on PulseAudio and pipewire-pulse.")

    @Flag(name: .customLong("this-server-only"), help: "Measure on the current server only and print the rows as JSON.")
    var thisServerOnly = false

    @Option(help: "Trials per room.")
    var trials = 4

    @Option(help: "Seconds of spoken translations per server for the false interruptions.")
    var soak = 300.0

    static let talker = "librivox/sense_and_sensibility_01_austen_64kb-0890.wav"
    static let line = "Quería reservar una mesa grande para la gente del sol, y después caminamos a lo largo del río durante mucho tiempo antes de la cena."
    static let rooms = [(40, -6.0), (100, -12.0), (40, 0.0)]

    /// The trials in one room.
    struct Room: Codable {
        var server: String
        var latency: Int
        var decibels: Double
        var reactions: [Double]
        var missed: Int
        var errors: [Int]
        var words: Int
    }

    /// Spoken translations nobody interrupted.
    struct Soak: Codable {
        var server: String
        var translations: Int
        var spokenSeconds: Double
        var holds: Int
        var interruptions: Int
        var utterances: Int
    }

    struct Measured: Codable {
        var rooms: [Room]
        var soaks: [Soak]
    }

    func run() async throws {
        let here = try measureHere()
        if thisServerOnly {
            print(String(decoding: try JSONEncoder().encode(here), as: UTF8.self))
            return
        }
        let pipewire = try measuredOnPipeWire("bargein", ["--trials", "\(trials)", "--soak", "\(soak)"], as: Measured.self,
                                              timeout: 7_200)
        try report(Measured(rooms: here.rooms + pipewire.rooms, soaks: here.soaks + pipewire.soaks))
    }

    private func measureHere() throws -> Measured {
        let server = try ServerProbe.probe().serverName.contains("PipeWire") ? "pipewire-pulse" : "PulseAudio"
        let parley = DialogueProcess.builtParley
        guard let reference = try RecognitionCorpus.load().references[Self.talker] else {
            throw BenchmarkFailure("no transcript of \(Self.talker)")
        }
        let talker = "\(RecognitionCorpus.directory)/\(Self.talker)"
        var rooms: [Room] = []
        for (latency, decibels) in Self.rooms {
            var room = Room(server: server, latency: latency, decibels: decibels, reactions: [], missed: 0, errors: [],
                            words: reference.split(separator: " ").count)
            for trial in 0..<trials {
                let result = try BargeInTrial(parley: parley, talker: talker, latency: latency, decibels: decibels).run()
                if let reaction = result.reaction { room.reactions.append(reaction) } else { room.missed += 1 }
                if let heard = result.heard {
                    room.errors.append(RecognitionCorpus.wordErrors(RecognitionCorpus.spokenWords(heard), reference))
                }
                progress("bargein", "\(server), \(latency) ms, \(decibels) dB, trial \(trial + 1): "
                    + "\(result.reaction.map { String(format: "%.0f ms", $0) } ?? "not stopped"), heard '\(result.heard ?? "")'")
            }
            rooms.append(room)
        }
        let soak = try BargeInSoak(parley: parley, seconds: self.soak).run(server: server)
        progress("bargein", "\(server): \(soak.translations) translations, \(soak.holds) holds, \(soak.interruptions) interruptions")
        return Measured(rooms: rooms, soaks: [soak])
    }

    private func report(_ measured: Measured) throws {
        var report = BenchmarkReport(area: "bargein", title: "Barge-in",
                                     command: "scripts/with-test-server.sh scripts/bench.sh bargein")
        report.add("A room: `module-loopback` from the speaker's monitor into the microphone (null sinks), 40 or 100 ms late, "
            + "its level set on the loopback (dB against the playback; the person is played as recorded). `parley dialog "
            + "es-ES en-US` with its defaults (echo canceller and barge-in on); A types a long Spanish sentence, and 1.5 s "
            + "after its English translation is first heard, a person speaks into the microphone (LibriVox sentence 0890 "
            + "of pocketsphinx-testdata, 14 words; stock Whisper reads it without error). Reaction: from the person's first "
            + "sound to the speaker's silence, on the recordings (the room's lag from their envelopes). Word errors: what "
            + "Parley heard of the person against the transcript.")
        report.add("")
        report.addTable(header: ["server", "room delay", "echo level", "trials", "reaction median", "p90",
                                 "not stopped", "word errors (median, of 14)"], rows: measured.rooms.map { room in
            let reactions = room.reactions.isEmpty ? nil : Timings(room.reactions)
            return [room.server, "\(room.latency) ms", String(format: "%.0f dB", room.decibels),
                    "\(room.reactions.count + room.missed)",
                    reactions.map { Timings.format($0.median) + " ms" } ?? "–", reactions.map { Timings.format($0.p90) + " ms" } ?? "–",
                    "\(room.missed)", room.errors.isEmpty ? "–" : "\(room.errors.sorted()[room.errors.count / 2])"]
        })
        report.add("False interruptions: typed lines of two sentences in English and Spanish, each translation spoken to the other side "
            + "with its echo in the room (40 ms, as loud as played), one after another. A hold is the guard taking the "
            + "echo for a person (playback held until its words decide); an interruption is a hold whose words stopped "
            + "the translation; an utterance is a turn made of the echo.")
        report.add("")
        report.addTable(header: ["server", "translations", "spoken", "holds", "interruptions", "utterances"],
                        rows: measured.soaks.map { soak in
            [soak.server, "\(soak.translations)", String(format: "%.0f s", soak.spokenSeconds), "\(soak.holds)",
             "\(soak.interruptions)", "\(soak.utterances)"]
        })
        try report.write()
    }
}
