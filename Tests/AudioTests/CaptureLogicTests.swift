@testable import Audio
import ParleyCore
import Synchronization
import Testing

/// The gate and the bounded buffer, without a server.
@Suite struct CaptureGateTests {
    @Test func deliversNothingUntilListening() {
        var gate = CaptureGate(closesDuringPlayback: true)
        #expect(gate.admit(160) == nil)
        gate.isListening = true
        #expect(gate.admit(160) == 0..<160)
    }

    @Test func dropsEverythingWhilePlaybackIsActive() {
        var gate = CaptureGate(closesDuringPlayback: true, listening: true)
        gate.playbackStarted()
        #expect(gate.admit(160) == nil)
        #expect(!gate.isOpen)
    }

    @Test func dropsThePlaybackTailAfterTheDrain() {
        var gate = CaptureGate(closesDuringPlayback: true, listening: true)
        gate.playbackStarted()
        gate.playbackEnded(tailSamples: 250)
        #expect(gate.admit(160) == nil)
        #expect(gate.admit(160) == 90..<160)
        #expect(gate.admit(160) == 0..<160)
    }

    @Test func theTailRunsOutEvenWhileNobodyListens() {
        var gate = CaptureGate(closesDuringPlayback: true)
        gate.playbackStarted()
        gate.playbackEnded(tailSamples: 200)
        #expect(gate.admit(160) == nil)
        #expect(gate.admit(160) == nil)
        gate.isListening = true
        #expect(gate.admit(160) == 0..<160)
    }

    @Test func withoutEchoGatingPlaybackChangesNothing() {
        var gate = CaptureGate(closesDuringPlayback: false, listening: true)
        gate.playbackStarted()
        #expect(gate.admit(160) == 0..<160)
        gate.playbackEnded(tailSamples: 500)
        #expect(gate.admit(160) == 0..<160)
    }
}

@Suite struct CaptureBufferTests {
    private func chunk(_ value: Int16, count: Int = 100) -> PCMChunk {
        PCMChunk(format: .recognition, samples: Array(repeating: value, count: count))
    }

    @Test func dropsTheOldestChunksAndReportsTheCountWhenTheConsumerReturns() async {
        let reports = Mutex<[Int]>([])
        let buffer = CaptureBuffer(capacity: 300) { dropped in reports.withLock { $0.append(dropped) } }
        for value in Int16(1)...5 { buffer.push(chunk(value)) }
        #expect(reports.withLock { $0 }.isEmpty)
        let first = await buffer.next()
        #expect(first?.samples.first == 3)
        #expect(reports.withLock { $0 } == [2])
        #expect(buffer.droppedChunks == 2)
    }

    @Test func clearDropsWhatWasNotConsumed() async {
        let buffer = CaptureBuffer(capacity: 1_000) { _ in }
        buffer.push(chunk(1))
        buffer.clear()
        buffer.push(chunk(2))
        let next = await buffer.next()
        #expect(next?.samples.first == 2)
    }

    @Test func aWaitingConsumerGetsTheNextChunk() async {
        let buffer = CaptureBuffer(capacity: 1_000) { _ in }
        async let received = buffer.next()
        try? await Task.sleep(for: .milliseconds(50))
        buffer.push(chunk(7))
        #expect(await received?.samples.first == 7)
    }

    @Test func finishEndsTheSequenceAfterWhatIsQueued() async {
        let buffer = CaptureBuffer(capacity: 1_000) { _ in }
        buffer.push(chunk(1))
        buffer.finish()
        #expect(await buffer.next()?.samples.first == 1)
        #expect(await buffer.next() == nil)
    }

    @Test func cancellingTheConsumerEndsItsWait() async {
        let buffer = CaptureBuffer(capacity: 1_000) { _ in }
        let consumer = Task { await buffer.next() }
        try? await Task.sleep(for: .milliseconds(50))
        consumer.cancel()
        #expect(await consumer.value == nil)
    }
}

@Suite struct PlaybackQueueTests {
    @Test func handsOverSamplesInOrderAcrossChunks() {
        var queue = PlaybackQueue()
        queue.append([1, 2, 3])
        queue.append([4, 5])
        var written: [Int16] = []
        #expect(queue.dequeue(upTo: 4) { written += $0 } == 4)
        #expect(written == [1, 2, 3, 4])
        #expect(queue.sampleCount == 1)
        #expect(queue.dequeue(upTo: 10) { written += $0 } == 1)
        #expect(written == [1, 2, 3, 4, 5])
        #expect(queue.isEmpty)
    }

    @Test func removeAllEmptiesTheQueue() {
        var queue = PlaybackQueue()
        queue.append([1, 2, 3])
        queue.removeAll()
        #expect(queue.isEmpty)
        #expect(queue.dequeue(upTo: 10) { _ in Issue.record("nothing should be written") } == 0)
    }
}

@Suite struct LevelMeterTests {
    @Test func poolsTheFragmentsSinceTheLastRead() {
        var meter = LevelMeter()
        meter.add(AudioLevel(rms: 0.3, peak: 0.5), sampleCount: 100)
        meter.add(AudioLevel(rms: 0.1, peak: 0.2), sampleCount: 100)
        let reading = meter.read()
        #expect(reading.peak == 0.5)
        #expect(abs(reading.rms - (0.05 as Double).squareRoot()) < 1e-12)  // mean of 0.09 and 0.01
        meter.add(AudioLevel(rms: 0, peak: 0.01), sampleCount: 100)
        #expect(meter.read().peak == 0.01)
    }

    @Test func repeatsTheLastReadingWhenNothingArrived() {
        var meter = LevelMeter()
        #expect(meter.read() == .silent)
        meter.add(AudioLevel(rms: 0.2, peak: 0.4), sampleCount: 10)
        let reading = meter.read()
        #expect(meter.read() == reading)
    }
}

/// Which connected device counts as another than the one asked for (pipewire-pulse connects a
/// stream to the default device where PulseAudio refuses a missing one).
@Suite struct StreamDevicesTests {
    @Test func substitutedDeviceIsNamed() {
        let devices = StreamDevices(AudioSessionOptions(source: "parley_mic.monitor", sink: "parley_speaker"))
        #expect(devices.substitution(record: "parley_mic.monitor", playback: "parley_speaker") == nil)
        #expect(devices.substitution(record: "parley_mic.monitor", playback: "auto_null")
                == .deviceNotFound(kind: "sink", name: "parley_speaker"))
        #expect(devices.substitution(record: "alsa_input.pci", playback: "auto_null")
                == .deviceNotFound(kind: "source", name: "parley_mic.monitor"))
        // A stream whose device name is not known yet proves nothing.
        #expect(devices.substitution(record: nil, playback: nil) == nil)
    }

    @Test func namesTheServerRewritesAreNotSubstitutions() {
        for requested in ["@DEFAULT_SINK@", "3", ""] {
            let devices = StreamDevices(AudioSessionOptions(sink: requested))
            #expect(devices.substitution(record: "any", playback: "auto_null") == nil, "\(requested)")
        }
        #expect(StreamDevices(AudioSessionOptions()).substitution(record: "a", playback: "b") == nil)
    }
}
