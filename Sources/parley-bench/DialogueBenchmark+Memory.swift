import Foundation
import ProcessHarness

/// Resident memory of `parley dialog` over many turns, and of the naive pipeline's processes.
extension DialogueBenchmark {
    /// Resident memory after every `memoryInterval` typed turns, and the peak at the end.
    struct MemoryRun {
        /// (turns done, VmRSS in KiB).
        var samples: [(turns: Int, resident: Int)]
        /// VmHWM at the end, KiB.
        var peak: Int
    }

    /// Typed lines the memory run cycles through, A's English and B's Spanish in turn.
    static let typedLines = [
        "Where is the train station?", "La estación está al final de la calle.",
        "How much does a ticket to Madrid cost?", "Cuesta cuarenta euros, ida y vuelta.",
        "Can I pay by card?", "Sí, claro, con cualquier tarjeta.",
    ]

    /// `memoryTurns` typed turns through a pipe, real translation, speech muted (`--mute`),
    /// with the audio session open on the null sinks and a transcript file, as in a spoken dialogue.
    func typedTurnsMemory(devices: Devices) throws -> MemoryRun {
        let transcript = FileManager.default.temporaryDirectory.appendingPathComponent("memory-\(getpid()).jsonl").path
        let run = try DialogueProcess(["dialog", "en-US", "es-ES", "--transcript", transcript, "--no-history", "--mute",
                                       "--source", devices.microphone.monitor, "--sink", devices.speaker.name],
                                      terminal: .pipe)
        defer {
            run.finish()
            try? FileManager.default.removeItem(atPath: transcript)
        }
        try run.waitFor("A (en-US), your turn", moreThan: 0)
        var samples: [(turns: Int, resident: Int)] = []
        if let status = MemoryStatus(pid: run.pid) { samples.append((0, status.resident)) }
        for done in stride(from: memoryInterval, through: memoryTurns, by: memoryInterval) {
            let before = run.count("\n→ ")
            for turn in (done - memoryInterval)..<done { run.send(Self.typedLines[turn % Self.typedLines.count], terminal: .pipe) }
            try run.waitFor("\n→ ", moreThan: before + memoryInterval - 1, timeout: 300)
            guard let status = MemoryStatus(pid: run.pid) else { throw BenchmarkFailure("parley exited") }
            samples.append((done, status.resident))
            progress("dialogue", "memory: \(done) turns, VmRSS \(status.resident) KiB")
        }
        return MemoryRun(samples: samples, peak: MemoryStatus(pid: run.pid)?.peak ?? 0)
    }

    /// Peak resident memory (KiB) of each naive stage for one turn, from GNU time's `%M`.
    func naiveMemory(devices: Devices) throws -> [(stage: String, peak: Int)] {
        let spanish = "Incluso podría haber sido hecho amable él"
        let stages: [(String, [String], String?)] = [
            ("pocketsphinx_continuous (en-US model)", ["pocketsphinx_continuous", "-infile", Self.recording,
                                                       "-logfn", "/dev/null"], nil),
            ("apertium -u eng-spa (largest process of its pipeline)", ["apertium", "-u", "eng-spa"],
             "he might even have been made amiable himself\n"),
            ("espeak-ng -v es --stdout", ["espeak-ng", "-v", "es", "--stdout", spanish], nil),
            ("paplay", ["paplay", "--device=\(devices.speaker.name)", Self.recording], nil),
        ]
        return try stages.map { name, command, input in
            let report = FileManager.default.temporaryDirectory.appendingPathComponent("time-\(getpid()).txt").path
            defer { try? FileManager.default.removeItem(atPath: report) }
            try ProcessRunner.run(["time", "-f", "%M", "-o", report] + command, input: input.map { Data($0.utf8) },
                                  timeout: 3600)
            let text = try String(contentsOfFile: report, encoding: .utf8)
            return (name, Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0)
        }
    }
}
