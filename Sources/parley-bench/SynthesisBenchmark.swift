import ArgumentParser
import ChildProcesses
import Foundation
import ParleyCore
import Synthesis

/// `parley-bench synthesis`: time to first audio and real-time factor for a 15-word
/// sentence, Parley's resident espeak against `espeak-ng --stdout` spawned per sentence.
struct SynthesisBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synthesis",
        abstract: "Time to first audio and real-time factor of speech synthesis.")

    @Option(help: "Sentences synthesized per measurement.")
    var iterations = 100

    static let sentence = "The train to Madrid leaves from platform four at half past nine tomorrow morning, please."
    static let spanish = "El tren a Madrid sale del andén cuatro mañana a las nueve y media de la mañana, por favor."

    /// One synthesized sentence: when its first chunk came, when it ended, how long it sounds.
    struct Sample {
        var firstAudio: Double
        var total: Double
        var audioSeconds: Double
        var realTimeFactor: Double { total / 1000 / audioSeconds }
    }

    func run() async throws {
        let synthesizer = ESpeakSynthesizer(registry: nil)
        _ = try await parley(synthesizer, Self.sentence, voice: "en-us")  // starts espeak and loads the voice
        var resident: [Sample] = [], switching: [Sample] = [], spawned: [Sample] = []
        for _ in 0..<iterations { resident.append(try await parley(synthesizer, Self.sentence, voice: "en-us")) }
        for index in 0..<iterations {
            let spanish = index % 2 == 0
            switching.append(try await parley(synthesizer, spanish ? Self.spanish : Self.sentence, voice: spanish ? "es" : "en-us"))
        }
        for _ in 0..<iterations { spawned.append(try commandLine(Self.sentence)) }
        try report(resident: resident, switching: switching, spawned: spawned).write()
    }

    /// Parley: from `speak` to the first `.audio` event, and to `.finished`.
    private func parley(_ synthesizer: ESpeakSynthesizer, _ text: String, voice: String) async throws -> Sample {
        let start = DispatchTime.now().uptimeNanoseconds
        var first: Double?
        var samples = 0
        for try await event in synthesizer.speak(Utterance(text: text, voice: .identifier(voice))) {
            guard case let .audio(chunk) = event else { continue }
            if first == nil { first = Self.milliseconds(since: start) }
            samples += chunk.samples.count
        }
        return Sample(firstAudio: first ?? .nan, total: Self.milliseconds(since: start),
                      audioSeconds: AudioFormat.synthesis.duration(ofSamples: samples))
    }

    /// The naive way: spawn `espeak-ng --stdout`, first audio when bytes past the WAV header arrive.
    private func commandLine(_ text: String) throws -> Sample {
        let start = DispatchTime.now().uptimeNanoseconds
        let process = try SpawnedProcess(["/usr/bin/espeak-ng", "-v", "en-us", "--stdout", text], name: "espeak-ng",
                                         standardInput: .discarded, standardError: .discarded)
        var received = 0
        var first: Double?
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while case let count = read(process.output, &chunk, chunk.count), count > 0 || count < 0 && errno == EINTR {
            received += max(count, 0)
            if first == nil, received > 44 { first = Self.milliseconds(since: start) }
        }
        process.waitForExit()
        return Sample(firstAudio: first ?? .nan, total: Self.milliseconds(since: start),
                      audioSeconds: AudioFormat.synthesis.duration(ofSamples: (received - 44) / 2))
    }

    private func report(resident: [Sample], switching: [Sample], spawned: [Sample]) -> BenchmarkReport {
        var report = BenchmarkReport(area: "synthesis", title: "Speech synthesis (eSpeak NG)",
                                     command: "scripts/with-test-server.sh scripts/bench.sh synthesis")
        report.add("A 15-word sentence (\"\(Self.sentence)\"), \(iterations) times each. Parley keeps espeak "
                   + "resident on its own thread and streams chunks from its callback; the naive way spawns "
                   + "`espeak-ng -v en-us --stdout` per sentence and reads its WAV output. First audio: from the "
                   + "request to the first audio chunk (Parley) or the first byte after the WAV header (espeak-ng). "
                   + "RTF: time to synthesize the whole sentence divided by its duration.")
        report.add("")
        let firstResident = Timings(resident.map(\.firstAudio)), firstSwitching = Timings(switching.map(\.firstAudio))
        let firstSpawned = Timings(spawned.map(\.firstAudio))
        let rtfResident = Timings(resident.map { $0.realTimeFactor * 1000 }), rtfSpawned = Timings(spawned.map { $0.realTimeFactor * 1000 })
        report.addTable(header: ["figure", "Parley median", "Parley p90", "espeak-ng --stdout median", "espeak-ng --stdout p90", "ratio (median)"], rows: [
            ["first audio, same voice (ms)", Timings.format(firstResident.median), Timings.format(firstResident.p90),
             Timings.format(firstSpawned.median), Timings.format(firstSpawned.p90), ratio(firstSpawned.median, firstResident.median)],
            ["first audio, voice switched every sentence en-us ↔ es (ms)", Timings.format(firstSwitching.median),
             Timings.format(firstSwitching.p90), "—", "—", ratio(firstSpawned.median, firstSwitching.median)],
            ["real-time factor (×10⁻³)", Timings.format(rtfResident.median), Timings.format(rtfResident.p90),
             Timings.format(rtfSpawned.median), Timings.format(rtfSpawned.p90), ratio(rtfSpawned.median, rtfResident.median)],
        ])
        report.add("Sentence duration: \(String(format: "%.2f", resident[0].audioSeconds)) s of audio. "
                   + "Target: first audio ≤ 15 ms median — \(firstResident.median <= 15 ? "met" : "not met").")
        return report
    }

    private static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
