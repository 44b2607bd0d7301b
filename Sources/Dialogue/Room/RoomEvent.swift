public import ParleyCore

/// What a party said, as the room hears it.
public struct RoomUtterance: Sendable, Equatable {
    /// Its number in the room, from 1, in the order utterances were recognized or typed.
    public var number: Int
    /// The party who said it, from 1.
    public var party: Int
    /// Their language.
    public var locale: LocaleTag
    /// What they said.
    public var text: String
    /// Spoken (with the recognizer's confidence) or typed.
    public var input: InputKind
    /// The recognizer's confidence, 0…1; nil when typed.
    public var confidence: Double?
    /// On the room's clock: when the speech started and ended (the time it was typed for
    /// both, when typed), and when its text was known.
    public var speechStart: Double
    public var speechEnd: Double
    public var recognized: Double
}

/// One translation of an utterance, heard by every party whose language it is in.
public struct RoomTranslation: Sendable, Equatable {
    /// The parties it is for.
    public var parties: [Int]
    /// Their language.
    public var locale: LocaleTag
    /// The translation; nil when it could not be made.
    public var text: String?
    /// The languages it went through (`["es"]` for fr → es → en).
    public var pivots: [String]
    /// Words the translator did not know.
    public var unknownWords: [String]
    /// Why there is none, when `text` is nil.
    public var failure: String?
    /// When it was known, on the room's clock.
    public var translated: Double
}

/// What a room reports, in order, for the REPL to show.
public enum RoomEvent: Sendable, Equatable {
    /// Party `party` is in the room, speaking `locale`; typed-only with why, or not.
    case joined(party: Int, locale: LocaleTag, place: String, typedOnlyReason: String?)
    /// The room is ready: every party listens.
    case ready
    /// Party `party` started speaking.
    case speechStarted(party: Int)
    /// What the recognizer has of party `party`'s speech so far.
    case partial(party: Int, text: String)
    /// A clause of utterance `number`, ended while party `party` still speaks, and its
    /// translations (`RoomSettings.simultaneous`); the utterance follows as a whole at its end.
    case clause(number: Int, party: Int, text: String, translations: [RoomTranslation])
    /// An utterance, spoken or typed.
    case heard(RoomUtterance)
    /// A translation of utterance `number`.
    case translated(number: Int, RoomTranslation)
    /// The translation of utterance `number` started playing on party `party`'s speaker.
    case speaking(number: Int, party: Int)
    /// Party `party` started speaking over the translation they hear: it is held until their
    /// words decide (`RoomSettings.bargeIn`).
    case bargeIn(party: Int)
    /// Their words were no interruption (why: no words, a backchannel): the translation plays on.
    case bargeInDismissed(party: Int, reason: String)
    /// Party `party` interrupted the translation of utterance `number` after `playedSeconds`
    /// of it: it stops, and what is still queued of it is not spoken to them.
    case interrupted(number: Int, party: Int, playedSeconds: Double)
    /// The translation of utterance `number` was not spoken to `party`: why.
    case notSpoken(number: Int, party: Int, reason: String)
    /// Party `party`'s audio server is gone: they are away, the room goes on.
    case away(party: Int, reason: String)
    /// Party `party`'s audio server is back, and so are they.
    case back(party: Int)
    /// Information for the people in the room.
    case notice(String)
    /// Something failed; the room goes on.
    case error(String)
    /// The room has ended; nothing follows.
    case ended
}
