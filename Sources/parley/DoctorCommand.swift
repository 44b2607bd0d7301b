import ArgumentParser
import Audio
import REPL
import Foundation
import Logging
import ParleyCore
import Synthesis
import Translation
import PocketSphinxRecognition
import WhisperRecognition
import Wyoming

/// `parley doctor`: checks every engine and the audio server.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check every engine and the audio server, and say what to install.",
        discussion: """
            Prints one row per part: the PulseAudio server, eSpeak NG, PocketSphinx, the Whisper \
            worker (started for real: its model is verified by SHA-256 and loaded), Apertium and readline, \
            and each Wyoming server given with --recognizer or --voice (what it serves, its round trip, \
            and a voice's first audio). Exits 0 \
            when everything required is there, 1 otherwise.
            """)

    @OptionGroup var common: CommonOptions

    @Option(name: .customLong("recognizer"),
            help: ArgumentHelp("A Wyoming server to check, wyoming:tcp://HOST:PORT (repeat it for several).", valueName: "server"))
    var servers: [String] = []

    @Option(name: .customLong("voice"),
            help: ArgumentHelp("A Wyoming server's voice to check, wyoming:tcp://HOST:PORT#NAME (repeat it for several).", valueName: "voice"))
    var voices: [String] = []

    func validate() throws {
        for server in servers {
            do { _ = try WyomingAddress(server) } catch { throw ValidationError(error.description) }
        }
        for voice in voices {
            do {
                guard try WyomingSynthesizer.parse(voice) != nil else {
                    throw ValidationError("--voice \(voice) is not a Wyoming server's voice; write wyoming:tcp://HOST:PORT#NAME")
                }
            } catch let error as WyomingAddressError {
                throw ValidationError(error.description)
            }
        }
    }

    /// One checked part.
    struct Check {
        var part: String
        var ok: Bool
        var detail: String
        var remedy: String
        /// Whether Parley needs the part; a part it can do without reads "unavailable", not MISSING.
        var required = true
    }

    func run() async throws {
        let checks = try await reportingFailure { try await gatherChecks() }
        let table = TextTable(header: ["part", "status", "detail"])
        for check in checks {
            table.add([check.part, check.ok ? "ok" : check.required ? "MISSING" : "unavailable", check.detail])
        }
        try StandardOutput.print(table.render(), terminator: "")
        let missing = checks.filter { !$0.ok && $0.required }
        if let failed = missing.first {
            printError("\(missing.map(\.part).joined(separator: ", ")) not usable: \(failed.remedy)")
            throw ExitCode.failure
        }
    }

    private func gatherChecks() async throws -> [Check] {
        let inventory = try await Inventory.gather(common)
        var checks = [await audioCheck(), echoCancellerCheck(), synthesisCheck(inventory), recognitionCheck(inventory),
                      await whisperCheck(inventory), translationCheck(inventory), readlineCheck()]
        for server in servers { checks.append(await wyomingCheck(try WyomingAddress(server))) }
        for voice in voices { checks.append(await wyomingVoiceCheck(voice)) }
        return checks
    }

    /// Asks a Wyoming server for a voice and times its first audio, from `synthesize`.
    private func wyomingVoiceCheck(_ identifier: String) async -> Check {
        guard let (address, name) = try? WyomingSynthesizer.parse(identifier) else {
            return Check(part: "Wyoming voice", ok: false, detail: "not a voice: \(identifier)", remedy: "")
        }
        let part = "Wyoming voice \(address.host):\(address.port)"
        let remedy = "start the server, or reach it through an SSH tunnel (docs/remote-engines.md)"
        let synthesizer = WyomingSynthesizer(address: address)
        do {
            let voices = try await synthesizer.describe()
            let started = Date()
            var first: Int?
            for try await event in synthesizer.speak(Utterance(text: "Parley.", voice: .identifier(identifier))) {
                guard case .audio = event, first == nil else { continue }
                first = Int((Date().timeIntervalSince(started) * 1000).rounded())
            }
            return Check(part: part, ok: first != nil,
                         detail: "\(name ?? "its first voice") of \(voices.count) listed; first audio \(first.map { "\($0) ms" } ?? "never") after synthesize",
                         remedy: remedy)
        } catch {
            return Check(part: part, ok: false, detail: "\(error)", remedy: remedy)
        }
    }

    /// Asks a Wyoming server what it serves (`describe`), and times the round trip.
    private func wyomingCheck(_ address: WyomingAddress) async -> Check {
        let started = Date()
        do {
            let info = try await WyomingRecognizer(address: address, detector: SphinxSpeechDetector.make).describe()
            let milliseconds = Int((Date().timeIntervalSince(started) * 1000).rounded())
            return Check(part: "Wyoming \(address.host):\(address.port)", ok: true,
                         detail: "\(info.summary); \(info.languages.count) languages; round trip \(milliseconds) ms",
                         remedy: "")
        } catch {
            return Check(part: "Wyoming \(address.host):\(address.port)", ok: false, detail: "\(error)",
                         remedy: "start the server, or reach it through an SSH tunnel (docs/remote-engines.md)")
        }
    }

    private func audioCheck() async -> Check {
        let server = common.server ?? ProcessInfo.processInfo.environment["PULSE_SERVER"]
        do {
            let info = try ServerProbe.probe(server: server)
            let latency = try await ActivationProbe.measure(options: common.audioSessionOptions())
            return Check(part: "PulseAudio", ok: true,
                         detail: "\(info.serverName) \(info.version); sink \(common.sink ?? info.defaultSink); "
                             + "source \(common.source ?? info.defaultSource); activation \(latency)",
                         remedy: "")
        } catch {
            return Check(part: "PulseAudio", ok: false, detail: "\(error)",
                         remedy: "apt-get install pulseaudio, start it, check --source and --sink, or use --typed-only")
        }
    }

    /// Loads the server's echo canceller between `--source` and `--sink` (or the defaults) and
    /// unloads it again; on the way, cancellers left by Parley processes that are gone are removed.
    private func echoCancellerCheck() -> Check {
        let server = common.server ?? ProcessInfo.processInfo.environment["PULSE_SERVER"]
        do {
            let canceller = try EchoCanceller.load(server: server, source: common.source, sink: common.sink)
            canceller.unload(server: server)
            return Check(part: "echo canceller", ok: true,
                         detail: "module-echo-cancel (WebRTC) loads; `parley dialog --echo-cancel on` records through it",
                         remedy: "", required: false)
        } catch {
            return Check(part: "echo canceller", ok: false, detail: "\(error)",
                         remedy: "load module-echo-cancel in the audio server, or use --echo-cancel off", required: false)
        }
    }

    private func synthesisCheck(_ inventory: Inventory) -> Check {
        switch inventory.synthesis {
        case let .success(synthesis):
            return Check(part: "eSpeak NG", ok: !synthesis.voices.isEmpty,
                         detail: "\(synthesis.version); data \(synthesis.dataPath); \(synthesis.voices.count) voices",
                         remedy: "apt-get install espeak-ng-data")
        case let .failure(error):
            return Check(part: "eSpeak NG", ok: false, detail: "\(error)", remedy: "apt-get install espeak-ng-data libespeak-ng1")
        }
    }

    private func recognitionCheck(_ inventory: Inventory) -> Check {
        let locales = inventory.models.supportedLocales
        return Check(part: "PocketSphinx", ok: !locales.isEmpty,
                     detail: locales.isEmpty ? "no speech model found"
                         : "models: " + locales.map { "\($0) (\(inventory.models.model(for: $0)!.acousticModel))" }.joined(separator: ", "),
                     remedy: "apt-get install pocketsphinx-en-us")
    }

    /// Starts the worker for real: the environment imports, the model's SHA-256 is checked, the model loads.
    private func whisperCheck(_ inventory: Inventory) async -> Check {
        let remedy = WhisperInstallation.remedy
        do {
            let launch = try inventory.whisper.launch()
            let worker = WhisperWorker(launch: launch)
            let started = Date()
            let languages = try await worker.start()
            await worker.shutdown()
            let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
            return Check(part: "Whisper", ok: true,
                         detail: "model \(launch.model.name) (\(launch.model.pinnedSHA256 == nil ? "not pinned" : "SHA-256 verified")); "
                             + "\(languages.count) languages; worker started in \(seconds) s"
                             + inventory.whisper.unusable.map { "; not used: \($0.problem)" }.joined(), remedy: remedy)
        } catch {
            return Check(part: "Whisper", ok: false, detail: "\(error)", remedy: remedy)
        }
    }

    private func translationCheck(_ inventory: Inventory) -> Check {
        let directions = inventory.translation.directions
        return Check(part: "Apertium", ok: !directions.isEmpty,
                     detail: directions.isEmpty ? "no translation directions in \(ApertiumModes.defaultDirectory)"
                         : "directions: " + directions.map(\.name).joined(separator: ", ") + installable(directions),
                     remedy: "apt-get install apertium apertium-eng-spa")
    }

    /// "; installable: …" naming the Debian pair packages not installed, when the index knows any.
    private func installable(_ directions: [ApertiumDirection]) -> String {
        let directories = (try? common.directories().layered) ?? []
        let missing = ((try? ApertiumPackageIndex.load(from: directories)) ?? ApertiumPackageIndex()).notInstalled(given: directions)
        return missing.isEmpty ? "" : "; installable from Debian (\(missing.count) more pairs): " + missing.joined(separator: ", ")
    }

    private func readlineCheck() -> Check {
        let version = ReadlineLibrary.version
        return Check(part: "readline", ok: true, detail: "GNU Readline \(version)", remedy: "apt-get install libreadline8")
    }
}

