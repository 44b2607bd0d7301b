public import Foundation

/// Paths to the real data the tests use.
public enum Fixtures {
    /// The repository root.
    public static let repository: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // TestSupport, Tests, repository
        return url
    }()

    /// The shipped data directory, `dictionaries/`.
    public static let dataDirectory = repository.appendingPathComponent("dictionaries").path

    /// Human recordings with reference transcripts, from Debian's pocketsphinx-testdata.
    public static let recordings = "/usr/share/pocketsphinx/test/data"

    /// A recording by its path under `recordings`, e.g. `goforward.raw`.
    public static func recording(_ name: String) -> String { "\(recordings)/\(name)" }

    /// The packaged US English speech model.
    public static let englishModel = "/usr/share/pocketsphinx/model/en-us"

    /// A fresh temporary directory, removed by the caller when it likes.
    public static func temporaryDirectory(_ label: String = "parley-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Reads headerless 16-bit little-endian mono PCM, as `goforward.raw` is.
    public static func rawSamples(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { buffer in
            buffer.bindMemory(to: Int16.self).map { Int16(littleEndian: $0) }
        }
    }
}
