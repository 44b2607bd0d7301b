import Foundation

/// The Markdown of the dialogue section.
extension DialogueBenchmark {
    func addLatency(to report: inout BenchmarkReport, automatic: SpokenPair, key: SpokenPair, whisper: SpokenPair,
                    naive: Timings, naiveSilent: Int) {
        report.add("""
            Turn latency: the last sample of a LibriVox recording (\"he might even have been made amiable \
            himself\", 3.3 s) played into the microphone → the first audible sample (|s| > \
            \(Self.speechThreshold)) of the translation on the speaker, both read from the audio of the two \
            null sinks' monitors, stamped on one clock. `parley dialog` runs as built (release), one process \
            for several turns; \(turns) turns per mode and setting (below) after one that warms up in \
            each process. Endpoint window \
            \(endpointMilliseconds) ms for both (`--endpoint-ms`, and pocketsphinx_continuous' default \
            `-vad_postspeech 50`).
            """)
        report.add("")
        report.add("""
            Each mode runs with two settings, each in two processes of half the turns, in the order \
            defaults, off, off, defaults, so that the shared machine's load weighs on both alike: Parley's defaults, where `--echo-cancel auto` \
            loads the server's echo canceller (module-echo-cancel, WebRTC) between the two null sinks and \
            barge-in is on with it, so Parley records the canceller's source and plays into its sink; and with \
            `--echo-cancel off`, where it records the microphone's monitor and plays into the speaker itself. \
            The measurement is the same for both: the taps stay on the two null sinks. No sound goes from the \
            speaker to the microphone here, so the canceller has no echo to remove. It also suppresses noise \
            (PulseAudio's WebRTC canceller does by default): the recording's last 0.4 s, after the words, is \
            quiet room sound (RMS about 200–300), which the canceller's source may pass as near silence, so \
            the endpoint can come sooner than on the raw microphone; the latency is still measured from the \
            recording's last sample.
            """)
        report.add("")
        let endpoint = Double(endpointMilliseconds), yield = Double(Self.yieldMilliseconds)
        let rows = [
            latencyRow("parley, PocketSphinx: automatic endpoint, defaults (echo canceller on)", automatic.defaults.latencies, window: endpoint),
            latencyRow("parley, PocketSphinx: automatic endpoint, `--echo-cancel off`", automatic.echoOff.latencies, window: endpoint),
            latencyRow("parley, Whisper (the default): automatic endpoint, defaults (echo canceller on; the translation waits "
                       + "for the \(Self.yieldMilliseconds) ms yield silence) (target ≤ 0.5 s beyond it, median)",
                       whisper.defaults.latencies, window: yield),
            latencyRow("parley, Whisper (the default): automatic endpoint, `--echo-cancel off` (target ≤ 0.5 s beyond it, median)",
                       whisper.echoOff.latencies, window: endpoint),
            latencyRow("parley, PocketSphinx: end-of-turn key (Enter as the recording ends), defaults (echo canceller on)",
                       key.defaults.latencies, window: nil),
            latencyRow("parley, PocketSphinx: end-of-turn key (Enter as the recording ends), `--echo-cancel off`",
                       key.echoOff.latencies, window: nil),
        ]
        let naiveLabel = "naive: `pocketsphinx_continuous -inmic yes` → `apertium -u eng-spa` → `espeak-ng --stdout` → "
            + "`paplay`, processes per line"
        report.addTable(header: ["turn ends by", "latency median", "p90", "beyond the silence window, median", "p90"],
                        rows: rows + [latencyRow(naiveLabel, naive, window: endpoint)])
        report.add("The silence window is the endpoint's, except where the translation waits for the yield silence: "
                   + "with Whisper and the defaults, on the microphone both sides share, a request in both languages "
                   + "listens on after each turn, and the translation plays once nobody has been heard for "
                   + "`--yield-ms` (\(Self.yieldMilliseconds) ms, parley's default), above the pauses between one "
                   + "person's sentences. PocketSphinx hears one language at a time: no request listens on, and the "
                   + "translation plays at the endpoint.")
        report.add("")
        if naiveSilent > 0 {
            report.add("The naive pipeline spoke nothing within 30 s in \(naiveSilent) more turns (not in the figures).")
            report.add("")
        }
        report.add("With the key, Enter is sent when `paplay` has finished playing the recording into the "
                   + "microphone, so the key's latency includes that notice.")
        report.add("")
        report.add("Ratio naive / parley (median latency), defaults and `--echo-cancel off`: automatic endpoint "
                   + "\(ratio(naive.median, automatic.defaults.latencies.median)) and "
                   + "\(ratio(naive.median, automatic.echoOff.latencies.median)), end-of-turn key "
                   + "\(ratio(naive.median, key.defaults.latencies.median)) and \(ratio(naive.median, key.echoOff.latencies.median)).")
        report.add("")
        report.add("The naive pipeline is started afresh for each turn, three seconds before the recording plays, "
                   + "so its model load is not timed and a backlog cannot build up.")
        report.add("")
        report.add("All samples (ms), defaults / `--echo-cancel off`: automatic \(list(automatic.defaults.latencies)) / "
                   + "\(list(automatic.echoOff.latencies)); key \(list(key.defaults.latencies)) / \(list(key.echoOff.latencies)); "
                   + "Whisper \(list(whisper.defaults.latencies)) / \(list(whisper.echoOff.latencies)); naive \(list(naive)).")
        report.add("")
    }

    /// A row of the latency table, with the figures beyond `window` ms of silence where one ends the turn.
    private func latencyRow(_ label: String, _ latencies: Timings, window: Double?) -> [String] {
        guard let window else { return [label, ms(latencies.median), ms(latencies.p90), "—", "—"] }
        let beyond = Timings(latencies.samples.map { $0 - window })
        return [label, ms(latencies.median), ms(latencies.p90), ms(beyond.median), ms(beyond.p90)]
    }

    /// parley's default `--yield-ms`: the silence a translation waits for where a request listens on.
    static let yieldMilliseconds = 1500

    func addMemory(to report: inout BenchmarkReport, spoken: [SpokenRun], whisper: SpokenRun, typed: MemoryRun,
                   naive: [(stage: String, peak: Int)]) {
        let spokenPeak = spoken.compactMap(\.memory?.peak).max() ?? 0
        let first = typed.samples.first { $0.turns == memoryInterval }?.resident ?? 0
        let last = typed.samples.last?.resident ?? 0
        report.add("""
            Memory: peak resident (VmHWM) of `parley dialog` over each spoken run above \
            (speaking; the Whisper rows from the runs with the defaults), and resident memory (VmRSS) every \(memoryInterval) turns over \
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
