import ArgumentParser
import Foundation
import Locales
import ProcessHarness
import PocketSphinxRecognition
import Translation
import WhisperRecognition

/// One file's result from stock faster-whisper.
struct StockResult: Decodable {
    var path: String
    var text: String
    var pass: Int
    var seconds: Double
    var segments: [[Double]]
}

extension [StockResult] {
    /// Texts by clip name (the raw file is named after the clip's index).
    func byName(_ set: [RecognitionCorpus.Clip]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: zip(set.map(\.name), map(\.text)))
    }
}

/// The installed Whisper parts, and the stock baseline run with the worker's own environment.
struct WhisperBenchSetup {
    var installation: WhisperInstallation

    static func discover() throws -> WhisperBenchSetup {
        let repository = FileManager.default.currentDirectoryPath
        let installation = WhisperInstallation.discover(shipped: "\(repository)/dictionaries",
                                                        models: DataDirectories.defaultModels(),
                                                        dataHome: DataDirectories.personalData())
        if let problem = installation.problem { throw ValidationError("\(problem) is missing; run make models") }
        return WhisperBenchSetup(installation: installation)
    }

    /// Runs `benchmarks/stock_whisper.py` over the clips, written as raw files in a temporary folder,
    /// with `environment` added to this process's.
    func stock(_ set: [RecognitionCorpus.Clip], passes: Int, environment: [String: String] = [:]) throws -> [StockResult] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parley-whisper-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = try set.enumerated().map { index, clip in
            let path = directory.appendingPathComponent("\(index).raw").path
            let samples = clip.audio.samples + (clip.tail ?? [])
            try samples.withUnsafeBufferPointer { Data(buffer: $0) }.write(to: URL(fileURLWithPath: path))
            return path
        }
        let output = try ProcessRunner.run([installation.python, "benchmarks/stock_whisper.py", "--passes", String(passes),
                                            installation.models[0].path] + paths,
                                        environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                                        timeout: 3600)
        guard output.status == 0 else { throw ValidationError("stock_whisper.py failed: \(output.stderr)") }
        let data = Data(output.stdout.utf8)
        return try data.split(separator: UInt8(ascii: "\n")).map { try JSONDecoder().decode(StockResult.self, from: Data($0)) }
    }
}

/// What deciding a side takes, as a dialogue decides it: the Whisper worker, a dialogue's
/// recognizer on it (started), and Apertium over the source tree's locales.
struct SideDecisionEngines {
    let worker: WhisperWorker
    let recognizer: WhisperRecognizer
    let translator: ApertiumTranslator

    static func start(_ setup: WhisperBenchSetup) async throws -> SideDecisionEngines {
        let worker = WhisperWorker(launch: try setup.installation.launch())
        let recognizer = WhisperRecognizer(worker: worker, detector: SphinxSpeechDetector.make)
        let registry = try LocaleRegistry.load(from: [DataDirectories.sourceTreeDataDirectory])
        let engines = SideDecisionEngines(worker: worker, recognizer: recognizer,
                                          translator: ApertiumTranslator(locales: registry.catalog))
        try await recognizer.start()
        return engines
    }

    func shutdown() async {
        await worker.shutdown()
        await translator.shutdown()
    }
}
