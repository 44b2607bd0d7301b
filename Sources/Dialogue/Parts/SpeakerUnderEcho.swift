import ParleyCore

/// Whether the speaker of a simultaneous turn on a shared microphone goes on under their own
/// clauses, as the echo guard tells it chunk by chunk.
///
/// The clauses play while the speaker talks, so what reaches the recognizer is the speaker
/// with the clauses' residue under them; once the speaker stops, it is the residue alone, and
/// the recognizer would keep the turn open on it and commit words nobody said. The guard's
/// `.echo` marks a stretch as no louder than the clauses' echo can be; a speaker's pause
/// (0.6–1.0 s in natural speech) is such a stretch too, and so is a person the guard cannot
/// tell from an echo as loud as they are. So the speaker counts as yielded only when the guard
/// has heard them over the clauses this turn (it tells them apart in this room), and has since
/// heard nobody for longer than the silence that ends the turn: only the echo, or quiet with
/// nothing played (a clause that begins just short of the yield silence finds it nearly
/// spent). Then the speaker has stopped, and what follows under the clauses is echo until the
/// guard hears a person again.
///
/// A stretch with nothing played that sounds above `soundFloor` is a person, with or without
/// the guard: it starts the count again. A stretch the guard calls echo that sounds at half the
/// speaker's own level or more (the mean of what it heard as them this turn) may be the
/// speaker it could not tell from a loud clause, as the tail of their sentence often is: it
/// neither adds to the count nor starts it again, so that a sentence's tail and the pause
/// after it do not make the yield silence together.
struct SpeakerUnderEcho: Sendable {
    /// The silence that ends the turn, in seconds (infinite: the speaker never counts as yielded).
    var yieldSeconds = Double.infinity
    /// Whether the guard has heard a person over the clauses this turn.
    private(set) var heardOverEcho = false
    /// Seconds of audio in which nobody was heard (the echo alone, or quiet with nothing
    /// played) since the guard last heard a person.
    private(set) var unheardSeconds = 0.0
    /// The RMS of the chunks the guard heard as the speaker this turn, summed, and how many.
    private var speakerLevels = (sum: 0.0, count: 0)

    /// RMS of full scale above which a chunk with nothing played is someone's sound (−40 dBFS,
    /// the echo guard's floor).
    static let soundFloor = 0.01
    /// The share of the speaker's mean level at and above which an echo verdict may be the speaker.
    static let speakerShare = 0.5

    /// The level at and above which a chunk the guard calls echo may be the speaker; nil before
    /// it has heard them.
    var speakerFloor: Double? {
        speakerLevels.count == 0 ? nil : Self.speakerShare * speakerLevels.sum / Double(speakerLevels.count)
    }

    /// Notes the guard's verdict on `chunk`.
    mutating func note(_ chunk: PCMChunk) {
        switch chunk.echo {
        case .person:
            heardOverEcho = true
            unheardSeconds = 0
            speakerLevels = (speakerLevels.sum + chunk.level.rms, speakerLevels.count + 1)
        case .echo:
            if chunk.level.rms < speakerFloor ?? .infinity { unheardSeconds += chunk.duration }
        case .noPlayback:
            unheardSeconds = chunk.level.rms > Self.soundFloor ? 0 : unheardSeconds + chunk.duration
        }
    }

    /// Whether the speaker has yielded under their clauses: heard over them this turn, and
    /// nobody for longer than the yield silence since.
    var yielded: Bool { heardOverEcho && unheardSeconds > yieldSeconds }
}

