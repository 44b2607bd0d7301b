import Foundation
import ParleyCore

/// Pairs the microphone behind the server's canceller with the speaker's monitor (what the
/// speaker plays, recorded as the microphone is) and takes the echo out of the microphone with
/// an `EchoSubtractor`, block by block.
///
/// The monitor is placed against the microphone by the streams' arrivals (`MonitorPlacement`);
/// the subtractor learns the echo path relative to that placement, and where the monitor is
/// placed again, a new subtractor learns it anew. A microphone block waits for the monitor's
/// block, at most `waitSeconds`; past that, what is missing counts as silence.
///
/// While nothing has played for the length of the subtractor's path, the microphone passes as
/// it is and the subtractor is not run.
///
/// A block the subtraction explains (what is left holds at most `explainedShare` of what the
/// microphone heard) is the echo alone: a person, even one well under the echo, leaves more.
/// Such a block is delivered marked so (`DeliveredRun.echoAlone`), unless a block that was not
/// explained came less than `holdBlocks` before it: what the subtraction leaves of an echo is
/// quiet but shaped like speech, and a recognizer given the speaker's words as its prompt
/// writes them again over it. Until the filters have learned the room nothing is explained.
///
/// The first playback is held while the subtractor keeps and searches it for the echo's direct
/// path (about 0.85 s), and then delivered without that path's echo, in order and all of it (as
/// the filters left it where no path was found, or after `longestHold`): a person who speaks
/// over the first moments of the first translation is heard whole, that once a moment late.
struct EchoSubtraction {
    /// pipewire-pulse hands the monitor over in bursts, on a busy machine up to half a second
    /// behind the microphone: a block that went on without its monitor would teach the filters
    /// an echo of silence.
    static let waitSeconds = 1.0
    /// The most of the monitor kept ahead of the microphone.
    static let keptSeconds = 5.0
    /// The most of the microphone's energy an explained block leaves (−10 dB).
    static let explainedShare = 0.1
    /// The microphone's energy a block must have to be judged (−60 dBFS): under it there is
    /// nothing to explain, and the block goes as the blocks around it (a gap in the echo is
    /// the echo alone where they are).
    static let judgedEnergy = 1e-6 * Double(EchoSubtractor.blockSize)
    /// Blocks after one not explained that still pass (240 ms: a person's quiet syllables).
    static let holdBlocks = 15

    private var subtractor: EchoSubtractor
    private let searchesInPlace: Bool
    private var placement = MonitorPlacement()
    /// How many times the monitor was placed again, its origin having moved.
    var replacements: Int { placement.replacements }
    private let rate = Double(AudioFormat.recognition.sampleRate)
    /// Where the monitor's sample for microphone sample `m` is: `m + offset`; nil until placed.
    var offset: Int? { placement.offset }
    /// The monitor's samples from `referenceBase` on.
    private var reference: [Double] = []
    private var referenceBase = 0
    /// The microphone's index up to which the echo guard heard a person over the echo: the
    /// subtractor learns from those blocks with its cautious step.
    private var personUntil = 0
    /// Microphone samples from `microphoneBase` on, not yet processed.
    private var microphone: [Double] = []
    private var microphoneBase = 0
    /// Blocks in a row whose monitor was silent: past the path's length nothing is predicted.
    private var silentBlocks = EchoSubtractor.partitions
    /// Blocks the subtractor processed.
    var blocks: Int { subtractor.blocks }
    /// Since the last `takeReport`: the microphone's and the output's energy over blocks with
    /// something played, and how many such blocks.
    private var heardEnergy = 0.0, leftEnergy = 0.0, activeBlocks = 0
    /// Microphone blocks processed before all of their monitor block had arrived, so far.
    private var blocksWithoutMonitor = 0
    /// Blocks since the last one not explained (a person, or a room not yet learned).
    private var explainedRun = EchoSubtraction.holdBlocks + 1
    /// Since the last report: blocks delivered as the echo alone.
    private var echoAloneBlocks = 0
    /// The most blocks of the first playback held for its direct path (1.5 s): past that,
    /// they go as the filters left them.
    static let longestHold = Int(1.5 * Double(AudioFormat.recognition.sampleRate)) / EchoSubtractor.blockSize
    /// Blocks of the first playback held while its direct path is searched.
    private var held: [(microphone: [Double], reference: [Double], output: [Double], verdict: EchoVerdict)] = []
    /// The echo guard's verdict with the microphone samples that arrived last, and on the
    /// samples not processed yet: each arrival's verdict up to the microphone index it ends at.
    private var verdict = EchoVerdict.noPlayback
    private var arrivals: [(end: Int, verdict: EchoVerdict)] = []
    /// The monitor before the first held block, and the filters' length of it before this block.
    private var heldBefore: [Double] = [], recentReference: [Double] = []

    /// A subtraction whose direct path is searched beside the audio thread, or, for the
    /// arithmetic's tests, where the first playback is kept whole (`searchesInPlace`).
    init(searchesInPlace: Bool = false) {
        subtractor = EchoSubtractor(searchesInPlace: searchesInPlace)
        self.searchesInPlace = searchesInPlace
    }

    /// Once `every` blocks with playback have passed since the last report: how much the
    /// subtraction took out over them, in dB, how often the foreground was renewed and the
    /// filters forgotten so far, and where the monitor is placed; nil before that.
    mutating func takeReport(every: Int) -> Report? {
        guard activeBlocks >= every, leftEnergy > 0 else { return nil }
        defer { (heardEnergy, leftEnergy, activeBlocks) = (0, 0, 0) }
        defer { echoAloneBlocks = 0 }
        return Report(decibels: 10 * log10(heardEnergy / leftEnergy), blocks: activeBlocks, silenced: echoAloneBlocks,
                      promotions: subtractor.promotions, forgotten: subtractor.forgotten, offset: offset, replacements: replacements,
                      withoutMonitor: blocksWithoutMonitor, directPath: subtractor.directPathFound)
    }

    /// Monitor samples that arrived at `time`.
    mutating func referenceArrived(_ samples: UnsafeBufferPointer<Int16>, at time: Double) {
        let wasPlaced = offset != nil
        let change = placement.referenceArrived(samples.count, at: time, mayMove: held.isEmpty)
        if wasPlaced {
            reference.append(contentsOf: samples.lazy.map { Double($0) / 32_768 })
            // A microphone that stopped arriving leaves the monitor behind: keep a few seconds.
            let excess = reference.count - Int(Self.keptSeconds * rate)
            if excess > 0 {
                reference.removeFirst(excess)
                referenceBase += excess
            }
        }
        follow(change)
    }

    /// Microphone samples that arrived at `time`, with the echo guard's `verdict` on them and
    /// whether a person is heard over the echo (`person`: the cautious step); returns the
    /// microphone samples ready to be delivered, in order, each run with the verdict of its
    /// arrival: as they are until the streams are placed, then without their echo.
    mutating func microphoneArrived(_ samples: UnsafeBufferPointer<Int16>, at time: Double, person: Bool = false,
                                    verdict: EchoVerdict = .noPlayback) -> [DeliveredRun] {
        self.verdict = verdict
        let wasPlaced = offset != nil
        follow(placement.microphoneArrived(samples.count, at: time, mayMove: held.isEmpty))
        guard wasPlaced else { return [DeliveredRun(samples: Array(samples), echoAlone: false, verdict: verdict)] }
        microphone.append(contentsOf: samples.lazy.map { Double($0) / 32_768 })
        arrivals.append((microphoneBase + microphone.count, verdict))
        if person { personUntil = microphoneBase + microphone.count }
        return processReady()
    }

    /// Once placed, both streams go block by block from here on; placed again, the echo path the
    /// filters learned was relative to the old place, and a new subtractor learns it from its
    /// direct path at the next playback (the monitor already kept stays, by its index).
    private mutating func follow(_ change: MonitorPlacement.Change) {
        switch change {
        case .none: break
        case .placed: (referenceBase, microphoneBase) = (placement.referenceCount, placement.microphoneCount)
        case .placedAgain:
            subtractor = EchoSubtractor(searchesInPlace: searchesInPlace)
            explainedRun = 0
        }
    }

    /// Processes every microphone block whose monitor block has arrived (or waited too long).
    private mutating func processReady() -> [DeliveredRun] {
        guard let offset else { return [] }
        let block = EchoSubtractor.blockSize
        var ready: [DeliveredRun] = []
        let patience = Int(Self.waitSeconds * rate)
        while microphone.count >= block {
            let start = microphoneBase + offset  // the monitor's index of this block's first sample
            let available = referenceBase + reference.count
            guard available >= start + block || microphone.count >= patience else { break }
            if available < start + block { blocksWithoutMonitor += 1 }
            var referenceBlock = [Double](repeating: 0, count: block)
            for index in 0..<block {
                let at = start + index - referenceBase
                if at >= 0 && at < reference.count { referenceBlock[index] = reference[at] }
            }
            let consumed = max(0, min(reference.count, start + block - referenceBase))
            reference.removeFirst(consumed)
            referenceBase += consumed
            let microphoneBlock = Array(microphone.prefix(block))
            // The block goes with the verdict its last sample arrived with.
            let end = microphoneBase + block
            verdict = arrivals.first { $0.end >= end }?.verdict ?? verdict
            arrivals.removeAll { $0.end <= end }
            for run in subtract(microphoneBlock, referenceBlock) { DeliveredRun.append(run, to: &ready) }
            microphone.removeFirst(block)
            microphoneBase += block
        }
        return ready
    }

    private mutating func subtract(_ microphoneBlock: [Double], _ referenceBlock: [Double]) -> [DeliveredRun] {
        defer { remember(referenceBlock) }
        silentBlocks = referenceBlock.contains { $0 != 0 } ? 0 : silentBlocks + 1
        let (delivered, echoAlone): ([Double], Bool)
        if silentBlocks > EchoSubtractor.partitions {
            subtractor.takeDirectPath()
            (delivered, echoAlone) = (microphoneBlock, false)
        } else {
            (delivered, echoAlone) = subtracted(microphoneBlock, referenceBlock)
        }
        let this = DeliveredRun(samples: Self.quantized(delivered), echoAlone: echoAlone, verdict: verdict)
        // The first playback is held while its direct path is searched, and then delivered
        // without it: the words said over it are heard whole, a moment late.
        if subtractor.awaitsDirectPath && silentBlocks <= EchoSubtractor.partitions && held.count < Self.longestHold {
            if held.isEmpty { heldBefore = recentReference }
            held.append((microphoneBlock, referenceBlock, delivered, verdict))
            return []
        }
        guard !held.isEmpty else { return [this] }
        defer { held = [] }
        var runs: [DeliveredRun] = []
        for (released, block) in zip(releasedHeld(), held) {
            DeliveredRun.append(DeliveredRun(samples: Self.quantized(released), echoAlone: false, verdict: block.verdict), to: &runs)
        }
        DeliveredRun.append(this, to: &runs)
        return runs
    }

    /// The block without its echo as the subtractor predicts it, and whether the subtraction
    /// explains it (the echo alone).
    private mutating func subtracted(_ microphoneBlock: [Double], _ referenceBlock: [Double]) -> ([Double], Bool) {
        var output = [Double](repeating: 0, count: microphoneBlock.count)
        microphoneBlock.withUnsafeBufferPointer { microphone in
            referenceBlock.withUnsafeBufferPointer { reference in
                output.withUnsafeMutableBufferPointer { output in
                    subtractor.process(microphone: microphone, reference: reference, output: output,
                                       personHeard: microphoneBase <= personUntil)
                }
            }
        }
        activeBlocks += 1
        let heard = microphoneBlock.reduce(0) { $0 + $1 * $1 }, left = output.reduce(0) { $0 + $1 * $1 }
        heardEnergy += heard
        leftEnergy += left
        // A block too quiet to judge (the gaps of the echo, quieter still in a quiet room) neither
        // ends a run of the echo alone nor begins one: it goes as the run it falls in.
        let echoAlone: Bool
        if heard > Self.judgedEnergy {
            let explained = left < Self.explainedShare * heard
            explainedRun = explained ? min(explainedRun + 1, Self.holdBlocks + 1) : 0
            echoAlone = explained && explainedRun > Self.holdBlocks
        } else {
            echoAlone = explainedRun > Self.holdBlocks
        }
        if echoAlone { echoAloneBlocks += 1 }
        return (output, echoAlone)
    }

    /// The held blocks without the direct path's echo where one was found, as the filters
    /// left them where none was; one array a block.
    private func releasedHeld() -> [[Double]] {
        let block = EchoSubtractor.blockSize
        guard let taps = subtractor.directPathFound?.taps, let first = taps.firstIndex(where: { $0 != 0 }),
              let last = taps.lastIndex(where: { $0 != 0 }) else { return held.map(\.output) }
        let reference = heldBefore + held.flatMap(\.reference)
        var output = held.flatMap(\.microphone)
        for index in output.indices {
            let now = heldBefore.count + index
            var echo = 0.0
            for lag in first...last where now - lag >= 0 { echo += taps[lag] * reference[now - lag] }
            output[index] -= echo
        }
        return stride(from: 0, to: output.count, by: block).map { Array(output[$0..<($0 + block)]) }
    }

    /// Keeps the last of the monitor for the held blocks' echo, the filters' length of it.
    private mutating func remember(_ referenceBlock: [Double]) {
        recentReference += referenceBlock
        let excess = recentReference.count - EchoSubtractor.blockSize * EchoSubtractor.partitions
        if excess > 0 { recentReference.removeFirst(excess) }
    }

    private static func quantized(_ samples: [Double]) -> [Int16] {
        samples.map { Int16(max(-32_768, min(32_767, ($0 * 32_768).rounded()))) }
    }
}
