/// Who a voice is, told by its pitch: each party's pitch, learned from the stretches their
/// language gave them, and the party a stretch with no language sounds like.
///
/// The language tells the sides apart where the words do; the same short word in both
/// languages ("no", "ok") has none, and the turn order gives it its side. Where each side is
/// one person whose voice is steady, and the two voices lie apart, the pitch tells instead.
/// It says nothing (nil) until every party has been heard `fewestLearned` times, while a
/// party's stretches are not one voice (more than a third of them further than half of
/// `steadiest` from their median: two people on one side, or a voice too expressive to go
/// by), where the parties' voices are too close (`fewestApart`), and for a stretch not
/// clearly nearer one of them (`margin`). One stretch the language gave the wrong side is
/// outvoted by the others; once the voices tell, a stretch they place on the other side
/// teaches neither (`learn`). And the voice says nothing while it disagreed with any of the
/// last `checksKept` stretches the language gave surely: where a side speaks in several
/// voices, their median can look like one voice and still not be the side's.
public struct VoiceProfiles: Sendable, Hashable {
    /// The stretches kept per party, the latest.
    public static let kept = 5
    /// Stretches a party needs before their voice tells.
    public static let fewestLearned = 2
    /// The widest spread of one party's stretches, in semitones, that is still one voice.
    public static let steadiest = 6.0
    /// How far apart the parties' voices must lie, in semitones.
    public static let fewestApart = 6.0
    /// How much nearer one party than the next a stretch must be, in semitones.
    public static let margin = 3.0
    /// How sure the language must have been of a stretch for it to teach its party's voice.
    public static let learningConfidence = 0.9

    /// How many of the latest checks count: stretches the language gave surely, where the voices
    /// told a party too.
    public static let checksKept = 5

    /// Each party's latest stretches, in semitones (`VoicePitch.semitones`).
    private var pitches: [[Double]]
    /// Whether the voices agreed with the language, for the latest checks.
    private var checks: [Bool] = []

    /// Profiles of `parties` parties, none heard yet.
    public init(parties: Int = 2) {
        pitches = Array(repeating: [], count: parties)
    }

    /// A stretch at `hertz` was party `party`'s, by its language; false where the voices say it
    /// was another party's, and it teaches nothing (the language may have erred).
    @discardableResult
    public mutating func learn(_ hertz: Double, party: Int) -> Bool {
        guard pitches.indices.contains(party), hertz > 0 else { return false }
        if let heard = voiceParty(forHertz: hertz) {
            checks.append(heard == party)
            if checks.count > Self.checksKept { checks.removeFirst() }
            if heard != party { return false }
        }
        pitches[party].append(VoicePitch.semitones(hertz))
        if pitches[party].count > Self.kept { pitches[party].removeFirst() }
        return true
    }

    /// A stretch at `hertz` learned as party `party`'s was not theirs (`:flip`).
    public mutating func forget(_ hertz: Double, party: Int) {
        guard pitches.indices.contains(party), hertz > 0,
              let index = pitches[party].lastIndex(of: VoicePitch.semitones(hertz)) else { return }
        pitches[party].remove(at: index)
    }

    /// Each party's voice, in semitones: the median of their stretches; nil for a party not
    /// heard often enough, or whose stretches are not one steady voice.
    public var voices: [Double?] {
        pitches.map { stretches in
            guard stretches.count >= Self.fewestLearned else { return nil }
            let sorted = stretches.sorted(), middle = sorted.count / 2
            let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            let strays = stretches.filter { abs($0 - median) > Self.steadiest / 2 }.count
            return strays * 3 <= stretches.count ? median : nil
        }
    }

    /// Whether the voices agreed with the language on each of the latest checks.
    public var trusted: Bool { !checks.contains(false) }

    /// The party whose voice a stretch at `hertz` is, or nil where the voices cannot tell or
    /// are not `trusted`.
    public func party(forHertz hertz: Double) -> Int? {
        trusted ? voiceParty(forHertz: hertz) : nil
    }

    /// The party whose voice a stretch at `hertz` is, trusted or not.
    private func voiceParty(forHertz hertz: Double) -> Int? {
        let voices = self.voices.compactMap { $0 }
        guard hertz > 0, voices.count == pitches.count, voices.count >= 2 else { return nil }
        let ordered = voices.sorted()
        guard zip(ordered, ordered.dropFirst()).allSatisfy({ $1 - $0 >= Self.fewestApart }) else { return nil }
        let pitch = VoicePitch.semitones(hertz)
        let distances = voices.enumerated().map { (party: $0.offset, distance: abs($0.element - pitch)) }
            .sorted { $0.distance < $1.distance }
        guard distances[1].distance - distances[0].distance >= Self.margin else { return nil }
        return distances[0].party
    }
}
