import ArgumentParser
import Foundation
import Locales
import ParleyCore
import Synthesis
import Wyoming

/// `parley say`: speaks text with eSpeak NG, to the speaker or a WAV file.
struct SayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Speak text aloud, or write it to a WAV file.",
        discussion: """
            The text comes from the arguments, or from standard input when none is given. \
            The voice is chosen by --voice (an identifier from `parley voices`) or by --locale \
            (a locale or language: `es` speaks as es-ES); the default is English. \
            Rate uses the 0…1 scale where 0.5 is normal speed; below about 0.23 eSpeak NG \
            cannot go slower and speaks at its slowest (80 words per minute).

            Examples:
              parley say --locale es "¿Cómo estás?"
              parley say --voice en-gb --rate 0.6 --out hello.wav "Hello there."
              parley say --voice 'wyoming:tcp://127.0.0.1:10200#en_US-joe-medium' "Hello there."
              echo "Bonjour" | parley say --locale fr --gender female
            """)

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("Locale or language to speak (en-US, es, Spanish).", valueName: "locale"))
    var locale: String?

    @Option(help: ArgumentHelp("Voice identifier, e.g. en-us, es-419, roa/es, en-us+f3, or a Wyoming server's voice, wyoming:tcp://HOST:PORT#NAME (docs/remote-engines.md).",
                               valueName: "id"))
    var voice: String?

    @Option(help: ArgumentHelp("Preferred voice gender.", valueName: "male|female"))
    var gender: GenderOption?

    @Option(parsing: .unconditional,  // a negative value reaches the range check
            help: ArgumentHelp("Speaking rate, 0…1; 0.5 is normal, 1 is four times as fast.", valueName: "rate"))
    var rate: Double = Utterance.defaultRate

    @Option(help: ArgumentHelp("Pitch multiplier, 0.5…2; 1 is the voice's own.", valueName: "pitch"))
    var pitch: Double = 1

    @Option(help: ArgumentHelp("Volume, 0…1.", valueName: "volume"))
    var volume: Double = 1

    @Option(help: ArgumentHelp("Write a WAV file instead of playing.", valueName: "file.wav"))
    var out: String?

    @Argument(help: "The text to speak (default: standard input).")
    var text: [String] = []

    /// A voice gender a person can ask for.
    enum GenderOption: String, ExpressibleByArgument, CaseIterable {
        case male, female

        var gender: VoiceGender { self == .male ? .male : .female }
    }

    func validate() throws {
        if locale != nil, voice != nil { throw ValidationError("give --locale or --voice, not both") }
        if let voice {
            do { _ = try WyomingSynthesizer.parse(voice) } catch { throw ValidationError(error.description) }
        }
        if voice != nil, gender != nil { throw ValidationError("--gender picks among the voices of a locale; use it with --locale, not --voice") }
        try check("--rate", rate, 0...1)
        try check("--pitch", pitch, 0.5...2)
        try check("--volume", volume, 0...1)
    }

    private func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws {
        guard value.isFinite, range.contains(value) else {
            throw ValidationError("\(name) \(value) is out of range; use a value from \(range.lowerBound) to \(range.upperBound)")
        }
    }

    func run() async throws {
        try await reportingFailure {
            let directories = try common.directories()
            let voice = try await selection(directories)
            let synthesizer: any SpeechSynthesizer
            if case let .identifier(identifier) = voice, try WyomingSynthesizer.parse(identifier) != nil {
                let router = VoiceRouter(local: nil, voices: [identifier])
                if let reason = await router.unavailability(of: identifier) {
                    throw StartRefused(description: "the voice \(identifier) cannot speak: \(reason)")
                }
                synthesizer = router
            } else {
                synthesizer = try ESpeakSynthesizer(
                    dataDirectories: directories.layered,
                    overrides: loadPronunciationOverrides(directories, languages: [try await language(of: voice, directories)]))
            }
            let utterance = Utterance(text: try spokenText(), voice: voice,
                                      rate: rate, pitchMultiplier: pitch, volume: volume)
            let output = try await SpeechOutput(file: out, common: common)
            if RateScale.isClamped(rate) {
                printError("note: rate \(rate) is slower than eSpeak NG can speak; speaking at its slowest, \(RateScale.floorWordsPerMinute) words per minute")
            }
            try await synthesizer.speak(utterance, to: output.sink)
            try await output.close()
            if let file = output.file {
                let seconds = AudioFormat.synthesis.duration(ofSamples: file.framesWritten)
                try StandardOutput.print("wrote \(file.framesWritten) samples (\(String(format: "%.2f", seconds)) s, \(AudioFormat.synthesis)) to \(file.path)")
            }
        }
    }

    /// The voice selection from --voice, or --locale (default English) and --gender.
    private func selection(_ directories: DataDirectories) async throws -> VoiceSelection {
        if let voice { return .identifier(voice) }
        var registry = try LocaleRegistry.load(from: directories.layered)
        if let installed = try? await SynthesisInventoryProbe.probe() {
            registry.names.extraLanguages = Inventory.voiceLanguages(installed.voices)
        }
        let tag = try registry.resolve(locale ?? "en", for: .synthesis)
        return .locale(tag, gender: gender?.gender ?? .unspecified)
    }

    /// The language whose pronunciation dictionary applies to `voice`.
    private func language(of voice: VoiceSelection, _ directories: DataDirectories) async throws -> String {
        switch voice {
        case let .locale(tag, _):
            return tag.language
        case let .identifier(identifier):
            let voices = await ESpeakSynthesizer(registry: try LocaleRegistry.load(from: directories.layered)).voices()
            return voices.first { $0.identifier == identifier }?.language
                ?? String(identifier.prefix { $0.isLetter })
        }
    }

    /// The arguments joined, or all of standard input.
    private func spokenText() throws -> String {
        let text: String
        if self.text.isEmpty {
            guard let input = String(validating: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) else {
                throw NotText()
            }
            text = input
        } else {
            text = self.text.joined(separator: " ")
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ValidationError("nothing to say: give the text as an argument or on standard input")
        }
        return text
    }
}

/// Standard input that is not UTF-8 text.
struct NotText: Error, CustomStringConvertible {
    var description: String {
        "standard input is not UTF-8 text; \(TextInput.conversionHint)"
    }
}
