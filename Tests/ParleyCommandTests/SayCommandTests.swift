import Foundation
import Testing
import TestSupport

@Suite("parley say and parley voices")
struct SayCommandTests {
    @Test("say --out writes a valid WAV file whose length is the samples produced")
    func sayToWAV() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("say.wav").path
        let result = try ProcessRunner.parley(["say", "--locale", "es", "--out", path, "¿Cómo estás, señor Núñez?"])
        #expect(result.status == 0, "\(result.stderr)")
        let reported = try #require(result.stdout.split(separator: " ").dropFirst().first.flatMap { Int($0) })

        // Read back with sox, independently of Parley's writer.
        func soxi(_ flag: String) throws -> String {
            try ProcessRunner.run(["soxi", flag, path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try soxi("-t") == "wav")
        #expect(try soxi("-r") == "22050")
        #expect(try soxi("-c") == "1")
        #expect(try soxi("-b") == "16")
        #expect(try Int(soxi("-s")) == reported)
        #expect(reported > 22_050)  // more than a second of speech
        let stats = try ProcessRunner.run(["sox", path, "-n", "stat"]).stderr
        let amplitude = stats.split(separator: "\n").first { $0.hasPrefix("Maximum amplitude") }
            .flatMap { Double($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) }
        #expect((amplitude ?? 0) > 0.1)
    }

    @Test("say applies the pronunciation dictionary of --dictionaries")
    func sayAppliesOverrides() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func samples(_ name: String) throws -> Data {
            let path = directory.appendingPathComponent(name).path
            let output = try ProcessRunner.parley(["say", "--dictionaries", directory.path, "--out", path, "I say tomato"])
            #expect(output.status == 0, "say failed: \(output.stderr)")
            return try Data(contentsOf: URL(fileURLWithPath: path))
        }
        let before = try samples("before.wav")
        let added = try ProcessRunner.parley(["dict", "add", "en", "tomato", "təˈmɑːtəʊ", "--dictionaries", directory.path])
        #expect(added.status == 0, "dict add failed: \(added.stderr)")
        let after = try samples("after.wav")
        #expect(before != after)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("en.dict"))
        #expect(try samples("again.wav") == before)
    }

    @Test("stdin is spoken when no text is given")
    func sayFromStandardInput() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        func say(_ name: String, _ arguments: [String], input: String? = nil) throws -> (wav: Data, samples: Int) {
            let path = directory.appendingPathComponent(name).path
            let result = try ProcessRunner.parley(["say", "--out", path] + arguments, input: input.map { Data($0.utf8) })
            #expect(result.status == 0, "\(result.stderr)")
            let samples = try ProcessRunner.run(["soxi", "-s", path]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            return (try Data(contentsOf: URL(fileURLWithPath: path)), Int(samples) ?? 0)
        }
        let piped = try say("stdin.wav", [], input: "Hello from a pipe.")
        let argument = try say("argument.wav", ["Hello from a pipe."])
        #expect(piped.wav == argument.wav, "standard input is spoken as the same text given as an argument")
        // Every line of standard input is spoken, not only the first.
        let twoLines = try say("lines.wav", [], input: "Hello from a pipe.\nAnd a second line that is spoken too.\n")
        #expect(twoLines.samples > piped.samples + 22_050, "\(twoLines.samples) vs \(piped.samples)")
    }

    @Test("an unknown voice is a runtime failure naming close matches; a bad rate a usage error")
    func errors() throws {
        let unknown = try ProcessRunner.parley(["say", "--voice", "en-usa", "--out", "/tmp/never.wav", "hi"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("no voice 'en-usa'; did you mean en-us"))
        let rate = try ProcessRunner.parley(["say", "--rate", "1.5", "hi"])
        #expect(rate.status == 64)
        #expect(rate.stderr.contains("--rate 1.5 is out of range"))
        let latin1 = try ProcessRunner.parley(["say", "--out", "/tmp/never.wav"], input: Data([0x63, 0x61, 0x66, 0xE9]))
        #expect(latin1.status == 1)
        #expect(latin1.stderr == "parley: standard input is not UTF-8 text; convert it to UTF-8 first (for example iconv -f LATIN1 -t UTF-8)\n")
        // A negative number is the option's value, checked like any other, not a missing one.
        let negative = try ProcessRunner.parley(["say", "--rate", "-1", "hi"])
        #expect(negative.status == 64)
        #expect(negative.stderr.hasPrefix("Error: --rate -1.0 is out of range"), "\(negative.stderr)")
        let endpoint = try ProcessRunner.parley(["listen", "--endpoint-ms", "-5", "--file", "x.wav"])
        #expect(endpoint.status == 64)
        #expect(endpoint.stderr.hasPrefix("Error: --endpoint-ms must be between 10 and 10000 milliseconds"), "\(endpoint.stderr)")
    }

    @Test("without --out, say speaks through the audio session into the chosen sink")
    func sayThroughTheSpeaker() throws {
        let speaker = try LoopbackDevice(label: "say")
        let capture = try speaker.startRecording()
        let result = try ProcessRunner.parley(["say", "--sink", speaker.sink, "Hello there, how are you today?"])
        let recorded = try capture.stop()
        #expect(result.status == 0, "say failed: \(result.stderr)")
        let loud = recorded.filter { abs(Int($0)) > 1_000 }.count
        #expect(loud > 8_000, "expected about two seconds of speech on the sink's monitor, found \(loud) loud samples")
    }

    @Test("without --out and without a server, say fails with one sentence")
    func sayWithoutAServer() throws {
        let result = try ProcessRunner.parley(["say", "--server", "unix:/nonexistent/parley/native", "hi"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("parley: no PulseAudio server at unix:/nonexistent/parley/native"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("voices lists espeak's voices, filtered by language, as a table or JSON")
    func voices() throws {
        let table = try ProcessRunner.parley(["voices", "--language", "Spanish"])
        #expect(table.status == 0)
        let rows = table.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first.map(String.init) }
        #expect(rows == ["es", "es-419"])
        let json = try ProcessRunner.parley(["voices", "--json"])
        let voices = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        let english = voices?.first { $0["identifier"] as? String == "en-us" }
        #expect(english?["locale"] as? String == "en-US")
        #expect(english?["gender"] as? String == "male")
    }
}
