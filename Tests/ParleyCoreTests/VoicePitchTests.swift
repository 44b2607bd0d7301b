import Foundation
@testable import ParleyCore
import ParleyCoreFakes
import Testing

/// The pitch of synthetic voices whose fundamental is known, and the profiles that tell two
/// parties apart by it. Real voices (eSpeak NG's, a LibriVox reader's) are measured in
/// RecognitionTests' `VoicePitchRecordingsTests`.
@Suite struct VoicePitchTests {
    static func voiced(_ hertz: Double, seconds: Double = 0.6) -> [Int16] {
        VoicedSound.samples(hertz, seconds: seconds)
    }

    @Test("a voiced sound's pitch is found within a quarter of a semitone, from a low man's to a child's",
          arguments: [75.0, 110, 140, 210, 320])
    func knownPitch(hertz: Double) throws {
        let found = try #require(VoicePitch.median(of: Self.voiced(hertz), sampleRate: 16_000))
        #expect(abs(VoicePitch.semitones(found) - VoicePitch.semitones(hertz)) < 0.25, "\(found) Hz for \(hertz) Hz")
    }

    @Test("silence, noise and a sound too short to tell have no pitch")
    func noPitch() {
        #expect(VoicePitch.median(of: Array(repeating: 0, count: 16_000), sampleRate: 16_000) == nil)
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<16_000).map { _ in Int16.random(in: -6000...6000, using: &generator) }
        #expect(VoicePitch.median(of: noise, sampleRate: 16_000) == nil)
        #expect(VoicePitch.median(of: Self.voiced(140, seconds: 0.05), sampleRate: 16_000) == nil)
        // A steady level, such as a microphone's offset, is no voice either.
        #expect(VoicePitch.median(of: Array(repeating: 8192, count: 16_000), sampleRate: 16_000) == nil)
    }

    @Test("the heard voice keeps the end of a long utterance")
    func heardVoiceKeepsTheEnd() throws {
        var heard = HeardVoice()
        heard.keep(PCMChunk(format: .recognition, samples: Self.voiced(110, seconds: 6)))
        heard.keep(PCMChunk(format: .recognition, samples: Self.voiced(220, seconds: 4)))
        let pitch = try #require(heard.pitch)
        #expect(abs(VoicePitch.semitones(pitch) - VoicePitch.semitones(220)) < 0.25, "\(pitch) Hz")
        #expect(heard.framePitches.count == HeardVoice.keptFrames)
    }

    @Test("heard chunk by chunk, of any length, a voice has the pitch it has whole")
    func chunkByChunk() throws {
        let voice = Self.voiced(140, seconds: 1)
        var heard = HeardVoice(), start = 0
        for length in [1, 1599, 801, 3, 1600, 2400, 5] + Array(repeating: 1600, count: 10) where start < voice.count {
            let end = min(voice.count, start + length)
            heard.keep(PCMChunk(format: .recognition, samples: Array(voice[start..<end])))
            start = end
        }
        let whole = try #require(VoicePitch.median(of: voice, sampleRate: 16_000))
        let chunked = try #require(heard.pitch)
        #expect(abs(VoicePitch.semitones(whole) - VoicePitch.semitones(chunked)) < 0.05, "\(whole) Hz, \(chunked) Hz")
        let frames = VoicePitch.framePitches(of: VoicePitch.halved(voice), rate: 8_000).pitches.count
        #expect(abs(heard.framePitches.count - frames) <= 1, "\(heard.framePitches.count) frames against \(frames)")
    }

    @Test("two steady voices apart tell a stretch's party; before both are learned they tell nothing")
    func profilesTell() {
        var profiles = VoiceProfiles()
        profiles.learn(110, party: 0)
        profiles.learn(220, party: 1)
        #expect(profiles.party(forHertz: 112) == nil, "one stretch each is not yet a voice")
        profiles.learn(118, party: 0)
        profiles.learn(205, party: 1)
        #expect(profiles.party(forHertz: 112) == 0)
        #expect(profiles.party(forHertz: 230) == 1)
        // Half-way between (in semitones) is nearer neither by the margin.
        #expect(profiles.party(forHertz: 155) == nil)
    }

    @Test("voices too close, or a party whose stretches are not one steady voice, tell nothing")
    func profilesAbstain() {
        var close = VoiceProfiles()
        for hertz in [110.0, 115] { close.learn(hertz, party: 0) }
        for hertz in [128.0, 132] { close.learn(hertz, party: 1) }  // about 2.5 semitones apart
        #expect(close.party(forHertz: 110) == nil)

        var twoPeople = VoiceProfiles()
        for hertz in [110.0, 220, 115, 225] { twoPeople.learn(hertz, party: 0) }  // a man and a woman on one side
        for hertz in [300.0, 310] { twoPeople.learn(hertz, party: 1) }
        #expect(twoPeople.voices[0] == nil)
        #expect(twoPeople.party(forHertz: 110) == nil)
    }

    @Test("one stretch the language gave the wrong side is outvoted; once the voices tell, such a stretch teaches neither")
    func wrongSide() {
        var profiles = VoiceProfiles()
        for hertz in [110.0, 225, 116] { profiles.learn(hertz, party: 0) }  // 225 Hz was B's
        for hertz in [220.0, 230] { profiles.learn(hertz, party: 1) }
        #expect(profiles.voices[0].map { abs($0 - VoicePitch.semitones(116)) < 0.01 } == true)
        #expect(profiles.party(forHertz: 112) == 0)
        let wrong = profiles.learn(228, party: 0), right = profiles.learn(113, party: 0)
        #expect(!wrong, "the voices say B")
        #expect(right)
        #expect(profiles.voices[0].map { abs($0 - VoicePitch.semitones(116)) < 0.5 } == true, "228 Hz did not join A")
        #expect(!profiles.trusted, "the voices disagreed with the language: they tell nothing for a while")
    }

    @Test("a voice that disagreed with a sure language decision says nothing until it has agreed with the last five")
    func distrust() {
        var profiles = VoiceProfiles()
        for hertz in [110.0, 116] { profiles.learn(hertz, party: 0) }
        for hertz in [220.0, 230] { profiles.learn(hertz, party: 1) }
        #expect(profiles.trusted && profiles.party(forHertz: 112) == 0)
        profiles.learn(112, party: 1)  // the language gave a man's voice to the woman's side
        #expect(!profiles.trusted && profiles.party(forHertz: 112) == nil)
        for index in 0..<VoiceProfiles.checksKept {
            #expect(profiles.party(forHertz: 225) == nil, "after \(index) agreements")
            profiles.learn(index % 2 == 0 ? 113 : 224, party: index % 2)
        }
        #expect(profiles.trusted && profiles.party(forHertz: 225) == 1)
    }

    @Test("a stretch forgotten by one party (a flip) and learned by the other moves their voices")
    func forgetMoves() {
        var profiles = VoiceProfiles()
        for hertz in [110.0, 116] { profiles.learn(hertz, party: 0) }
        profiles.learn(220, party: 1)
        let learned = profiles.learn(225, party: 0)
        #expect(learned, "B is not yet a voice: nothing says it was not A's")
        #expect(profiles.party(forHertz: 225) == nil)
        profiles.forget(225, party: 0)
        profiles.learn(225, party: 1)
        #expect(profiles.party(forHertz: 113) == 0)
        #expect(profiles.party(forHertz: 225) == 1)
    }

    @Test("only the latest stretches count: a party whose voice changes is learned again")
    func latestOnly() {
        var profiles = VoiceProfiles()
        for hertz in [110.0, 112] { profiles.learn(hertz, party: 0) }
        for _ in 0..<VoiceProfiles.kept { profiles.learn(300, party: 1) }
        for _ in 0..<VoiceProfiles.kept { profiles.learn(200, party: 1) }
        #expect(profiles.voices[1].map { abs($0 - VoicePitch.semitones(200)) < 0.01 } == true)
    }
}
