import Foundation
import Testing
import TestSupport

/// `--echo-cancel on` in a conversation, on the real server: the microphone is heard through
/// the server's canceller, which goes when Parley leaves (end of input, SIGTERM), and a
/// canceller a killed Parley left behind is removed by the next start.
@Suite("Echo-cancelled dialogue", .serialized)
struct EchoCancelDialogueTests {
    static let recordingName = "librivox/sense_and_sensibility_01_austen_64kb-0930.wav"

    @Test("a spoken turn is heard through the canceller, within stock Whisper's errors plus one; the canceller goes at the end")
    func spokenTurnThroughTheCanceller() throws {
        let (microphone, speaker) = (try LoopbackDevice(label: "ecdmic"), try LoopbackDevice(label: "ecdspk"))
        let run = try start(microphone, speaker)
        let canceller = try #require(try names("sources").first { $0.hasPrefix(try owned(by: run)) && $0.hasSuffix(".source") },
                                     "the conversation's canceller is loaded").dropLast(".source".count)
        let devices = try ProcessRunner.parley(["devices"]).stdout.split(separator: "\n")
        for name in ["\(canceller).source", "\(canceller).sink"] {
            #expect(devices.contains { $0.hasPrefix(name + " ") && $0.contains("Parley's echo canceller") }, "\(devices)")
        }
        Thread.sleep(forTimeInterval: 0.5)
        try microphone.play(Fixtures.recording(Self.recordingName))
        try run.waitForLine(timeout: 90) { $0.hasPrefix("B (es-ES), your turn") }
        #expect(try run.finish() == 0, "\(run.stderr)")
        let line = try #require(run.lines.first { $0.hasPrefix("A en-US: ") && $0.contains(" (heard") }, "\(run.stdout)")
        let heard = String(line.dropFirst("A en-US: ".count).prefix { $0 != "(" }).trimmingCharacters(in: .whitespaces)
        let reference = try StockReadings.transcript(Self.recordingName)
        let errors = SpokenWords.errors(heard, reference: reference, language: "en")
        #expect(errors <= (try StockReadings.whisperErrors(Self.recordingName)) + 1, "heard '\(heard)' for '\(reference)'")
        #expect(try !names("sources").contains { $0.hasPrefix(canceller) }, "the canceller went with the conversation")
        #expect(try !names("sinks").contains { $0.hasPrefix(canceller) })
    }

    @Test("SIGTERM and SIGHUP remove the canceller; after kill -9 it stays until the next start removes it")
    func signalsAndLeftovers() throws {
        let (microphone, speaker) = (try LoopbackDevice(label: "ecsmic"), try LoopbackDevice(label: "ecsspk"))
        for signal in [SIGTERM, SIGHUP] {
            let signalled = try start(microphone, speaker)
            let owner = try owned(by: signalled)
            #expect(try names("sources").contains { $0.hasPrefix(owner) })
            kill(signalled.processIdentifier, signal)
            _ = try? signalled.finish(timeout: 30)
            #expect(try !names("sources").contains { $0.hasPrefix(owner) }, "signal \(signal) unloads the canceller")
        }

        let killed = try start(microphone, speaker)
        let left = try owned(by: killed)
        kill(killed.processIdentifier, SIGKILL)
        _ = try? killed.finish(timeout: 30)
        #expect(try names("sources").contains { $0.hasPrefix(left) }, "a killed Parley cannot unload its canceller")
        let next = try start(microphone, speaker)
        #expect(try !names("sources").contains { $0.hasPrefix(left) }, "the next start removed the leftover")
        #expect(try next.finish() == 0, "\(next.stderr)")
    }

    /// A conversation with `--echo-cancel on` between the two devices, waiting for A's first turn.
    private func start(_ microphone: LoopbackDevice, _ speaker: LoopbackDevice) throws -> DialogueRun {
        let run = try DialogueRun(["dialog", "en-US", "es-ES", "--echo-cancel", "on", "--no-history", "--no-transcript",
                                   "--source", microphone.monitor, "--sink", speaker.sink])
        try run.waitForLine(timeout: 90) { $0.hasPrefix("A (en-US), your turn") }
        return run
    }

    /// The device names `pactl list short KIND` lists.
    private func names(_ kind: String) throws -> [String] {
        let output = try ProcessRunner.run(["pactl", "list", "short", kind], environment: TestAudioServer.environment())
        return output.stdout.split(separator: "\n").compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) }
    }

    /// How the names of `run`'s canceller begin: `parley_ec.HOST.PID.` (this host's name with
    /// letters, digits and `-` only).
    private func owned(by run: DialogueRun) throws -> String {
        let host = String(ProcessInfo.processInfo.hostName.prefix { $0 != "." }.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "-" })
        return "parley_ec.\(host).\(run.processIdentifier)."
    }
}
