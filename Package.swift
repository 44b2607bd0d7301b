// swift-tools-version:6.0
// Parley: an offline spoken-dialogue translator for the Linux terminal.
//
// The targets read like the pipeline: C libraries at the bottom, a core of
// plain types and stage protocols, one module per job, and a thin executable
// that wires the real parts together.
import PackageDescription

/// Swift settings shared by every Swift target.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

/// A system library target for one Debian C library.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

var targets: [Target] = [
    // MARK: C libraries
    systemLibrary("CPulseAudio", pkgConfig: "libpulse", apt: ["libpulse-dev"]),
    systemLibrary("CESpeakNG", pkgConfig: "espeak-ng", apt: ["libespeak-ng-dev"]),
    systemLibrary("CPocketSphinx", pkgConfig: "pocketsphinx", apt: ["libpocketsphinx-dev", "libsphinxbase-dev"]),
    systemLibrary("CReadline", pkgConfig: "readline", apt: ["libreadline-dev"]),
    systemLibrary("CSndFile", pkgConfig: "sndfile", apt: ["libsndfile1-dev"]),
    systemLibrary("CSampleRate", pkgConfig: "samplerate", apt: ["libsamplerate0-dev"]),
    systemLibrary("CFFTW", pkgConfig: "fftw3", apt: ["libfftw3-dev"]),

    // MARK: Core — plain types and stage protocols, no C
    .target(name: "ParleyCore", swiftSettings: strict),
    .testTarget(name: "ParleyCoreTests", dependencies: ["ParleyCore", "ParleyCoreFakes"], swiftSettings: strict),
    // In-memory implementations of every ParleyCore stage protocol, for tests of the logic.
    .target(name: "ParleyCoreFakes", dependencies: ["ParleyCore"], path: "Tests/ParleyCoreFakes", swiftSettings: strict),

    // MARK: Child processes — spawning, pipes, framing and ending of every child Parley drives
    .target(name: "CProcessSpawn"),
    .target(name: "ChildProcesses", dependencies: ["CProcessSpawn"], swiftSettings: strict),
    .testTarget(name: "ChildProcessesTests", dependencies: ["ChildProcesses"], swiftSettings: strict),

    // MARK: Locales
    .target(name: "Locales", dependencies: ["ParleyCore"], swiftSettings: strict),
    .testTarget(name: "LocalesTests", dependencies: ["Locales", "TestSupport"], swiftSettings: strict),

    // MARK: Audio
    .target(
        name: "Audio",
        dependencies: ["ParleyCore", "CPulseAudio", "CFFTW", .product(name: "Logging", package: "swift-log")],
        swiftSettings: strict),
    .testTarget(
        name: "AudioTests",
        dependencies: ["Audio", "TestSupport", .product(name: "Logging", package: "swift-log")],
        swiftSettings: strict),

    // MARK: Synthesis
    .target(
        name: "Synthesis",
        dependencies: ["ParleyCore", "Locales", "CESpeakNG", "CSndFile", .product(name: "Logging", package: "swift-log")],
        swiftSettings: strict),
    .testTarget(name: "SynthesisTests", dependencies: ["Synthesis", "TestSupport"], swiftSettings: strict),

    // MARK: Recognition
    // What both engines share: the router, file input, resampling, and the voice activity
    // detector's protocol (SpeechDetector). Its implementation, sphinxbase's front end (fe_t),
    // is in PocketSphinxRecognition; the executables hand it to Whisper.
    .target(
        name: "Recognition",
        dependencies: ["ParleyCore", "Locales", "CSndFile", "CSampleRate"],
        swiftSettings: strict),
    // One target per engine: a change to one does not recompile the other.
    .target(
        name: "PocketSphinxRecognition",
        dependencies: ["ParleyCore", "Locales", "Recognition", "CPocketSphinx", .product(name: "Logging", package: "swift-log")],
        swiftSettings: strict),
    .target(
        name: "WhisperRecognition",
        dependencies: ["ParleyCore", "Locales", "Recognition", "ChildProcesses", "CFFTW", .product(name: "Logging", package: "swift-log")],
        swiftSettings: strict),
    // Recognition and voices from Wyoming servers (wyoming:tcp://HOST:PORT), on this machine or another.
    .target(
        name: "Wyoming",
        dependencies: ["ParleyCore", "Recognition", .product(name: "Logging", package: "swift-log")],
        swiftSettings: strict),
    .testTarget(
        name: "WyomingTests",
        dependencies: ["Wyoming", "Recognition", "PocketSphinxRecognition", "RecognitionTestSupport", "TestSupport"],
        swiftSettings: strict),
    // The recordings, transcripts and word errors the recognition tests compare against.
    .target(
        name: "RecognitionTestSupport", dependencies: ["ParleyCore", "TestSupport"], path: "Tests/RecognitionTestSupport",
        swiftSettings: strict),
    .testTarget(
        name: "RecognitionTests", dependencies: ["Recognition", "RecognitionTestSupport", "TestSupport"],
        swiftSettings: strict),
    .testTarget(
        name: "PocketSphinxRecognitionTests",
        dependencies: ["PocketSphinxRecognition", "Recognition", "RecognitionTestSupport", "ParleyCoreFakes", "TestSupport"],
        swiftSettings: strict),
    .testTarget(
        name: "WhisperRecognitionTests",
        // PocketSphinxRecognition for the detector a Whisper recognizer is given.
        dependencies: [
            "WhisperRecognition", "Recognition", "PocketSphinxRecognition", "ChildProcesses", "RecognitionTestSupport",
            "TestSupport",
        ],
        swiftSettings: strict),

    // MARK: Translation
    .target(
        name: "Translation",
        dependencies: ["ParleyCore", "Locales", "ChildProcesses", .product(name: "Logging", package: "swift-log")],
        swiftSettings: strict),
    .testTarget(
        name: "TranslationTests", dependencies: ["Translation", "Locales", "TestSupport"],
        exclude: ["Sentences"], swiftSettings: strict),

    // MARK: Pronunciation
    .target(name: "Pronunciation", dependencies: ["ParleyCore", "Locales"], swiftSettings: strict),
    .testTarget(
        name: "PronunciationTests",
        dependencies: ["Pronunciation", "Synthesis", "ParleyCoreFakes", "TestSupport", "parley"],
        swiftSettings: strict),

    // MARK: Dialogue
    .target(name: "Dialogue", dependencies: ["ParleyCore"], swiftSettings: strict),
    .target(
        name: "DialogueTestSupport", dependencies: ["Dialogue", "ParleyCoreFakes"], path: "Tests/DialogueTestSupport",
        swiftSettings: strict),
    .testTarget(
        name: "DialogueTests", dependencies: ["Dialogue", "ParleyCoreFakes", "DialogueTestSupport", "ChildProcesses"],
        swiftSettings: strict),

    // MARK: REPL
    .target(name: "REPL", dependencies: ["ParleyCore", "Dialogue", "CReadline"], swiftSettings: strict),
    .executableTarget(
        name: "parley-repl-harness",
        dependencies: ["ParleyCore", "Dialogue", "REPL", "ParleyCoreFakes"],
        path: "Tests/REPLHarness",
        swiftSettings: strict),
    .testTarget(
        name: "REPLTests",
        dependencies: [
            "REPL", "Dialogue", "ParleyCoreFakes", "DialogueTestSupport", "TestSupport", "TranslationReference", "parley",
            "parley-repl-harness",
        ],
        swiftSettings: strict),

    // MARK: Executable
    .executableTarget(
        name: "parley",
        dependencies: [
            "ParleyCore", "Locales", "Audio", "Synthesis", "Recognition", "PocketSphinxRecognition",
            "WhisperRecognition", "Wyoming", "Translation", "ChildProcesses", "Pronunciation", "Dialogue", "REPL",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ],
        swiftSettings: strict),

    // MARK: Benchmarks
    .executableTarget(
        name: "parley-bench",
        dependencies: [
            "ParleyCore", "Locales", "Audio", "Synthesis", "Recognition", "PocketSphinxRecognition",
            "WhisperRecognition", "Wyoming", "Translation", "ChildProcesses", "ProcessHarness",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ],
        swiftSettings: strict),

    // MARK: Test support and end-to-end tests
    // Child processes and null sinks, for the tests and the benchmarks alike.
    .target(name: "ProcessHarness", dependencies: ["ChildProcesses"], path: "Tests/ProcessHarness", swiftSettings: strict),
    .testTarget(name: "ProcessHarnessTests", dependencies: ["ProcessHarness"], swiftSettings: strict),
    .target(
        name: "TestSupport", dependencies: ["ParleyCore", "ProcessHarness", "ChildProcesses"], path: "Tests/TestSupport",
        swiftSettings: strict),
    .target(name: "TranslationReference", dependencies: ["Locales", "Translation", "ProcessHarness"],
            path: "Tests/TranslationReference", swiftSettings: strict),
    .testTarget(
        name: "SystemLibraryTests",
        dependencies: [
            "CPulseAudio", "CPocketSphinx", "CReadline", "Audio", "TestSupport",
            .product(name: "Logging", package: "swift-log"),
        ],
        swiftSettings: strict),
    .testTarget(name: "ParleyCommandTests", dependencies: ["parley", "TestSupport", "TranslationReference"], swiftSettings: strict),
]

let package = Package(
    name: "Parley",
    platforms: [.macOS(.v14)],
    products: [.executable(name: "parley", targets: ["parley"])],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    ],
    targets: targets
)
