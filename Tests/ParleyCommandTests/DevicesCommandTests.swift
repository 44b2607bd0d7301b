import Foundation
import Testing
import TestSupport

/// `parley devices`, and the audio row of `parley doctor`, against the test server.
@Suite struct DevicesCommandTests {
    @Test func listsTheTestServersDevicesAsJSON() throws {
        let output = try ProcessRunner.parley(["devices", "--json"])
        #expect(output.status == 0)
        let devices = try output.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        let speaker = devices.first { $0["name"] as? String == TestAudioServer.speakerSink }
        #expect(speaker?["kind"] as? String == "sink")
        #expect(speaker?["isDefault"] as? Bool == true)
        let microphone = devices.first { $0["name"] as? String == TestAudioServer.microphoneSource }
        #expect(microphone?["isMonitor"] as? Bool == true)
    }

    @Test func noServerIsOneSentenceAndStatusOne() throws {
        let output = try ProcessRunner.parley(["devices", "--server", "unix:/nonexistent/parley/native"])
        #expect(output.status == 1)
        #expect(output.stderr.hasPrefix("parley: no PulseAudio server at unix:/nonexistent/parley/native"))
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test func doctorMeasuresActivationOnTheChosenDevices() throws {
        let output = try ProcessRunner.parley(["doctor", "--source", TestAudioServer.speakerSource,
                                               "--sink", TestAudioServer.microphoneSink])
        let row = output.stdout.split(separator: "\n").first { $0.hasPrefix("PulseAudio") } ?? ""
        #expect(row.contains(" ok "))
        #expect(row.contains("source \(TestAudioServer.speakerSource)"))
        #expect(row.contains("activation ") && row.contains(" ms"))
    }

    @Test func doctorNamesAMissingSink() throws {
        let output = try ProcessRunner.parley(["doctor", "--sink", "parley_no_such_sink"])
        #expect(output.status == 1)
        #expect(output.stdout.contains("there is no sink named parley_no_such_sink"))
    }
}
