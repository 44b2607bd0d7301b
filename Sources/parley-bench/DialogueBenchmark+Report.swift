import Foundation

/// The Markdown of the dialogue section.
extension DialogueBenchmark {
    func addLatency(to report: inout BenchmarkReport, automatic: SpokenRun, key: SpokenRun, whisper: SpokenRun,
                    naive: Timings, naiveSilent: Int) {
        let window = Double(endpointMilliseconds)
        let overhead = Timings(automatic.latencies.samples.map { $0 - window })
        let whisperOverhead = Timings(whisper.latencies.samples.map { $0 - window })
        let naiveOverhead = Timings(naive.samples.map { $0 - window })
        report.add("""
            Turn latency: the last sample of a LibriVox recording (\"he might even have been made amiable \
            himself\", 3.3 s) played into the microphone → the first audible sample (|s| > \
            \(Self.speechThreshold)) of the translation on the speaker, both read from the audio of the two \
            null sinks' monitors, stamped on one clock. `parley dialog` runs as built (release), one process \
            for all turns of a mode; \(turns) turns per mode after one that warms up. Endpoint window \
            \(endpointMilliseconds) ms for both (`--endpoint-ms`, and pocketsphinx_continuous' default \
            `-vad_postspeech 50`).
            """)
        report.add("")
        report.addTable(header: ["turn ends by", "latency median", "p90", "beyond the endpoint window, median", "p90"], rows: [
            ["parley, PocketSphinx: automatic endpoint", ms(automatic.latencies.median), ms(automatic.latencies.p90),
             ms(overhead.median), ms(overhead.p90)],
            ["parley, Whisper (the default): automatic endpoint (target ≤ 1.0 s median)", ms(whisper.latencies.median),
             ms(whisper.latencies.p90), ms(whisperOverhead.median), ms(whisperOverhead.p90)],
            ["parley, PocketSphinx: end-of-turn key (Enter as the recording ends)", ms(key.latencies.median), ms(key.latencies.p90),
             "—", "—"],
            ["naive: `pocketsphinx_continuous -inmic yes` → `apertium -u eng-spa` → `espeak-ng --stdout` → `paplay`, "
                + "processes per line", ms(naive.median), ms(naive.p90), ms(naiveOverhead.median), ms(naiveOverhead.p90)],
        ])
        if naiveSilent > 0 {
            report.add("The naive pipeline spoke nothing within 30 s in \(naiveSilent) more turns (not in the figures).")
            report.add("")
        }
        report.add("With the key, Enter is sent when `paplay` has finished playing the recording into the "
                   + "microphone, so the key's latency includes that notice.")
        report.add("")
        report.add("Ratio naive / parley (median latency): automatic endpoint \(ratio(naive.median, automatic.latencies.median)), "
                   + "end-of-turn key \(ratio(naive.median, key.latencies.median)).")
        report.add("")
        report.add("The naive pipeline is started afresh for each turn, three seconds before the recording plays, "
                   + "so its model load is not timed and a backlog cannot build up.")
        report.add("")
        report.add("All samples (ms): automatic \(list(automatic.latencies)); key \(list(key.latencies)); "
                   + "Whisper \(list(whisper.latencies)); naive \(list(naive)).")
        report.add("")
    }

    func addMemory(to report: inout BenchmarkReport, spoken: [SpokenRun], whisper: SpokenRun, typed: MemoryRun,
                   naive: [(stage: String, peak: Int)]) {
        let spokenPeak = spoken.compactMap(\.memory?.peak).max() ?? 0
        let first = typed.samples.first { $0.turns == memoryInterval }?.resident ?? 0
        let last = typed.samples.last?.resident ?? 0
        report.add("""
            Memory: peak resident (VmHWM) of `parley dialog` over each spoken run above \
            (\(turns + 1) turns, speaking), and resident memory (VmRSS) every \(memoryInterval) turns over \
            \(memoryTurns) typed turns through a pipe with real translation, English and Spanish in turn, \
            the audio session open, a transcript file written, speech muted (`--mute`: each spoken turn takes seconds of real \
            time, so \(memoryTurns) of them would not fit the run; the spoken runs above cover synthesis).
            """)
        report.add("")
        report.addTable(header: ["turns"] + typed.samples.map { String($0.turns) },
                        rows: [["VmRSS (MiB)"] + typed.samples.map { mib($0.resident) }])
        let parleyWithWhisper = whisper.memory?.peak ?? 0
        let workerPeak = whisper.workerMemory?.peak ?? 0
        report.addTable(header: ["process", "peak resident (MiB)"], rows: [
            ["parley dialog, spoken runs with PocketSphinx (VmHWM)", mib(spokenPeak)],
            ["parley dialog, spoken run with Whisper (VmHWM; the model is in the worker)", mib(parleyWithWhisper)],
            ["its Whisper worker (VmHWM; \(mib(whisper.workerMemory?.resident ?? 0)) resident at the end)", mib(workerPeak)],
            ["a Whisper conversation: parley and its worker together (sum of the peaks)", mib(parleyWithWhisper + workerPeak)],
            ["parley dialog, \(memoryTurns) typed turns (VmHWM)", mib(typed.peak)],
            ["growth from turn \(memoryInterval) to turn \(memoryTurns) (VmRSS)", mib(last - first)],
        ] + naive.map { ["naive: \($0.stage), one turn", mib($0.peak)] } + [
            ["naive: all four stages of one turn together", mib(naive.map(\.peak).reduce(0, +))],
        ])
    }

    private func ms(_ value: Double) -> String { "\(Timings.format(value)) ms" }
    private func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }
    private func list(_ timings: Timings) -> String { timings.samples.map { String(format: "%.0f", $0) }.joined(separator: ", ") }
}
