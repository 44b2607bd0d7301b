import Foundation
import ParleyCore
import Recognition
import Testing
import TestSupport

/// The pitch of real voices: eSpeak NG's man's and woman's voices, and a LibriVox reader.
/// What `VoiceProfiles` takes for one person (a steady voice) and for two (voices apart)
/// holds for them.
@Suite("The pitch of real voices")
struct VoicePitchRecordingsTests {
    static let phrases = ["where is the station", "thank you very much", "no"]

    /// The median pitch of each phrase said by eSpeak NG's `voice`.
    static func pitches(_ voice: String, _ phrases: [String] = phrases) throws -> [Double] {
        let directory = try Fixtures.temporaryDirectory("parley-pitch")
        defer { try? FileManager.default.removeItem(at: directory) }
        return try phrases.enumerated().map { index, phrase in
            let path = directory.appendingPathComponent("\(index).wav").path
            let made = try ProcessRunner.run(["espeak-ng", "-v", voice, "-s", "150", "-w", path, phrase])
            try #require(made.status == 0, "\(made.stderr)")
            let audio = try AudioFileReader.read(path)
            let pitch = VoicePitch.median(of: audio.samples, sampleRate: audio.format.sampleRate)
            return try #require(pitch, "\(voice): \(phrase) has no pitch")
        }
    }

    static func spread(_ hertz: [Double]) -> Double {
        let semitones = hertz.map(VoicePitch.semitones)
        return semitones.max()! - semitones.min()!
    }

    @Test("eSpeak NG's voices: each steady from a sentence to a single word, a man's and a woman's apart")
    func espeakVoices() throws {
        let man = try Self.pitches("en-us"), woman = try Self.pitches("es-419+f2")
        #expect(Self.spread(man) <= VoiceProfiles.steadiest, "\(man)")
        #expect(Self.spread(woman) <= VoiceProfiles.steadiest, "\(woman)")
        var profiles = VoiceProfiles()
        for hertz in man.prefix(2) { profiles.learn(hertz, party: 0) }
        for hertz in woman.prefix(2) { profiles.learn(hertz, party: 1) }
        #expect(profiles.party(forHertz: man[2]) == 0, "\(man) against \(woman)")
        #expect(profiles.party(forHertz: woman[2]) == 1, "\(man) against \(woman)")
    }

    @Test("a LibriVox reader's five sentences are one steady voice")
    func oneReader() throws {
        let pitches = try ["870", "880", "890", "920", "930"].map { number in
            let audio = try AudioFileReader.read(
                "\(LongSpeechPassages.recordings)/librivox/sense_and_sensibility_01_austen_64kb-0\(number).wav")
            let pitch = VoicePitch.median(of: audio.samples, sampleRate: audio.format.sampleRate)
            return try #require(pitch, "LibriVox \(number) has no pitch")
        }
        #expect(Self.spread(pitches) <= VoiceProfiles.steadiest, "\(pitches)")
    }
}
