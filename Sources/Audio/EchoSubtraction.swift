import Foundation
import ParleyCore

/// Pairs the microphone behind the server's canceller with the speaker's monitor (what the
/// speaker plays, recorded as the microphone is) and takes the echo out of the microphone with
/// an `EchoSubtractor`, block by block.
///
/// Both are record streams of one server at 16 kHz, so each is a steady count of samples: once
/// both have run `alignmentSeconds`, the earliest arrival time less the samples before it gives
/// each stream's origin, and their difference places the monitor against the microphone. That
/// placement is kept for the pair's life (the subtractor learns the echo path relative to it);
/// the monitor is read `leadSeconds` ahead of it, so the subtractor also models an echo that
/// the placement puts up to that much too early. A microphone block waits for the monitor's
/// block, at most `waitSeconds`; past that, what is missing counts as silence.
///
/// While nothing has played for the length of the subtractor's path, the microphone passes as
/// it is and the subtractor is not run.
struct EchoSubtraction {
    static let alignmentSeconds = 0.5
    static let leadSeconds = 0.04
    static let waitSeconds = 0.25
    /// The most of the monitor kept ahead of the microphone.
    static let keptSeconds = 5.0

    private let subtractor = EchoSubtractor()
    private let rate = Double(AudioFormat.recognition.sampleRate)
    private var microphoneCount = 0, referenceCount = 0
    private var microphoneOrigin = Double.infinity, referenceOrigin = Double.infinity
    private var firstArrival: Double?
    /// Where the monitor's sample for microphone sample `m` is: `m + offset`; nil until placed.
    private(set) var offset: Int?
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

    /// Once `every` blocks with playback have passed since the last report: how much the
    /// subtraction took out over them, in dB, how often the foreground was renewed and the
    /// filters forgotten so far, and where the monitor is placed; nil before that.
    mutating func takeReport(every: Int) -> Report? {
        guard activeBlocks >= every, leftEnergy > 0 else { return nil }
        defer { (heardEnergy, leftEnergy, activeBlocks) = (0, 0, 0) }
        return Report(decibels: 10 * log10(heardEnergy / leftEnergy), blocks: activeBlocks, promotions: subtractor.promotions,
                      forgotten: subtractor.forgotten, offset: offset, directPath: subtractor.directPathFound)
    }

    /// What the subtraction did over the blocks since the last report (`takeReport`).
    struct Report: CustomStringConvertible {
        let decibels: Double, blocks: Int, promotions: Int, forgotten: Int, offset: Int?
        let directPath: EchoDirectPath.Found?

        var description: String {
            let direct = directPath.map {
                String(format: "%@ direct path %.0f samples late at %.2f (%.1f %% of the microphone; searched in %@)",
                       $0.taps == nil ? "no" : "a", $0.delay, $0.gain, 100 * $0.explained, "\($0.took)")
            } ?? "no direct path searched"
            return String(format: "%.1f dB less over %d blocks with playback, ", decibels, blocks)
                + "\(promotions) renewals, \(forgotten) forgotten, monitor placed \(offset ?? 0) samples on, \(direct)"
        }
    }

    /// Monitor samples that arrived at `time`.
    mutating func referenceArrived(_ samples: UnsafeBufferPointer<Int16>, at time: Double) {
        referenceCount += samples.count
        referenceOrigin = min(referenceOrigin, time - Double(referenceCount) / rate)
        if offset != nil {
            reference.append(contentsOf: samples.lazy.map { Double($0) / 32_768 })
            // A microphone that stopped arriving leaves the monitor behind: keep a few seconds.
            let excess = reference.count - Int(Self.keptSeconds * rate)
            if excess > 0 {
                reference.removeFirst(excess)
                referenceBase += excess
            }
        }
        placeIfReady(at: time)
    }

    /// Microphone samples that arrived at `time`; returns the microphone samples ready to be
    /// delivered, in order: as they are until the streams are placed, then without their echo.
    mutating func microphoneArrived(_ samples: UnsafeBufferPointer<Int16>, at time: Double, person: Bool = false) -> [Int16] {
        microphoneCount += samples.count
        microphoneOrigin = min(microphoneOrigin, time - Double(microphoneCount) / rate)
        guard offset != nil else {
            placeIfReady(at: time)
            if offset != nil { microphoneBase = microphoneCount }  // from here on, block by block
            return Array(samples)
        }
        microphone.append(contentsOf: samples.lazy.map { Double($0) / 32_768 })
        if person { personUntil = microphoneBase + microphone.count }
        return processReady()
    }

    private mutating func placeIfReady(at time: Double) {
        guard offset == nil else { return }
        if firstArrival == nil { firstArrival = time }
        guard let firstArrival, time - firstArrival >= Self.alignmentSeconds, microphoneCount > 0, referenceCount > 0,
              microphoneOrigin.isFinite, referenceOrigin.isFinite else { return }
        offset = Int(((microphoneOrigin - referenceOrigin) * rate).rounded()) + Int(Self.leadSeconds * rate)
        referenceBase = referenceCount
        microphoneBase = microphoneCount
    }

    /// Processes every microphone block whose monitor block has arrived (or waited too long).
    private mutating func processReady() -> [Int16] {
        guard let offset else { return [] }
        let block = EchoSubtractor.blockSize
        var ready: [Int16] = []
        let patience = Int(Self.waitSeconds * rate)
        while microphone.count >= block {
            let start = microphoneBase + offset  // the monitor's index of this block's first sample
            let available = referenceBase + reference.count
            guard available >= start + block || microphone.count >= patience else { break }
            var referenceBlock = [Double](repeating: 0, count: block)
            for index in 0..<block {
                let at = start + index - referenceBase
                if at >= 0 && at < reference.count { referenceBlock[index] = reference[at] }
            }
            let consumed = max(0, min(reference.count, start + block - referenceBase))
            reference.removeFirst(consumed)
            referenceBase += consumed
            let microphoneBlock = Array(microphone.prefix(block))
            ready += subtract(microphoneBlock, referenceBlock)
            microphone.removeFirst(block)
            microphoneBase += block
        }
        return ready
    }

    private mutating func subtract(_ microphoneBlock: [Double], _ referenceBlock: [Double]) -> [Int16] {
        silentBlocks = referenceBlock.contains { $0 != 0 } ? 0 : silentBlocks + 1
        guard silentBlocks <= EchoSubtractor.partitions else {
            return microphoneBlock.map { Int16(($0 * 32_768).rounded()) }
        }
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
        heardEnergy += microphoneBlock.reduce(0) { $0 + $1 * $1 }
        leftEnergy += output.reduce(0) { $0 + $1 * $1 }
        return output.map { Int16(max(-32_768, min(32_767, ($0 * 32_768).rounded()))) }
    }
}
