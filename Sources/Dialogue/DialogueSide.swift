public import ParleyCore

/// One of the two people in the conversation.
public enum DialogueSide: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case a = "A"
    case b = "B"

    /// The person listening while this one speaks.
    public var other: DialogueSide { self == .a ? .b : .a }

    /// The side as a party of the conversation, from 0: A is the first.
    public var index: Int { self == .a ? 0 : 1 }

    /// Parses `A`, `a`, `B` or `b`.
    public init?(argument: String) {
        self.init(rawValue: argument.uppercased())
    }

    public var description: String { rawValue }
}

/// How one side of the conversation is heard and spoken.
public struct SideSettings: Sendable, Hashable {
    /// The locale this person speaks and hears.
    public var locale: LocaleTag
    /// The voice that speaks translations to this person; nil picks the best voice for `locale`.
    public var voice: VoiceSelection?
    /// Speaking rate on the 0…1 scale of `Utterance.rate`.
    public var rate: Double

    /// Creates settings with the locale's default voice and normal rate.
    public init(locale: LocaleTag, voice: VoiceSelection? = nil, rate: Double = Utterance.defaultRate) {
        self.locale = locale
        self.voice = voice
        self.rate = rate
    }

    /// The voice actually used: the chosen one, or the best one for the locale.
    public var effectiveVoice: VoiceSelection { voice ?? .locale(locale) }
}

/// When the microphone opens for a turn.
public enum TurnMode: String, Sendable, Hashable, CaseIterable {
    /// Hands-free: each turn starts listening at once and ends at the recognizer's endpoint.
    case automatic = "auto"
    /// Push-to-talk: the end-of-turn key opens the microphone and closes it again.
    case manual
}

/// Everything about a conversation that a person can change while it runs.
public struct DialogueConfiguration: Sendable, Hashable {
    /// Side A, who speaks first.
    public var sideA: SideSettings
    /// Side B.
    public var sideB: SideSettings
    /// Trailing silence, in milliseconds, that ends a spoken turn (`--endpoint-ms`).
    public var endpointMilliseconds: Int
    /// Whether turns listen by themselves or wait for the key.
    public var mode: TurnMode
    /// Whether recognized text is offered for editing before it is translated.
    public var correction: Bool
    /// Whether translations are spoken (false with `--mute`: printed only).
    public var speaksTranslations: Bool
    /// Whether the microphone is used at all (false with `--typed-only`).
    public var usesMicrophone: Bool
    /// Strict alternation, or either side may speak (`--turns`).
    public var turnTaking: TurnTaking = .alternate
    /// Whether a person may interrupt a translation by speaking over it (`--barge-in`, `:barge-in`).
    public var bargeIn = false
    /// Why barge-in cannot work in this conversation (no echo cancellation), or nil when it can.
    public var bargeInUnavailable: String?
    /// Whether a side's speech is interpreted while it is spoken, clause by clause
    /// (`--simultaneous`, `:simultaneous`).
    public var simultaneous = false
    /// Why simultaneous interpretation cannot work here (the microphone would hear the
    /// speaker), or nil when it can.
    public var simultaneousUnavailable: String?
    /// How words are committed while a side speaks.
    public var commitPolicy: CommitPolicy = .localAgreement
    /// On the microphone both sides share, the silence in milliseconds that hands the floor
    /// on (`--yield-ms`); a shorter pause ends a clause or a sentence. Interpreting
    /// simultaneously, it ends the side's turn; turn by turn, while a request listens on, a
    /// turn's translation waits for it. Nil, or no more than `endpointMilliseconds`: the
    /// endpoint ends the turn, and the translation plays at once.
    public var yieldMilliseconds: Int? = DialogueConfiguration.defaultYieldMilliseconds

    /// Interpreting simultaneously on the microphone both sides share, how many decibels
    /// quieter a clause's translation plays while its speaker still holds the floor
    /// (`--duck-db`), so that the microphone hears the speaker over it; clauses spoken after
    /// the speaker yields play at full level. 0: every clause at full level.
    public var duckDecibels = DialogueConfiguration.defaultDuckDecibels

    /// `--duck-db` when not given: BENCHMARKS.md § Simultaneous interpretation, --pauses natural --duck-db 10 and --duck-db 0.
    public static let defaultDuckDecibels = 10.0

    /// The yield silence with no `--yield-ms`: above the 0.6–1.0 s pauses between one
    /// person's sentences, below the time a listener waits before answering a translation
    /// that has ended.
    public static let defaultYieldMilliseconds = 1500

    /// Creates a configuration; the defaults are those of `parley` with no options.
    public init(sideA: SideSettings, sideB: SideSettings, endpointMilliseconds: Int = 500,
                mode: TurnMode = .automatic, correction: Bool = false,
                speaksTranslations: Bool = true, usesMicrophone: Bool = true) {
        self.sideA = sideA
        self.sideB = sideB
        self.endpointMilliseconds = endpointMilliseconds
        self.mode = mode
        self.correction = correction
        self.speaksTranslations = speaksTranslations
        self.usesMicrophone = usesMicrophone
    }

    /// The settings of `side`.
    public subscript(side: DialogueSide) -> SideSettings {
        get { side == .a ? sideA : sideB }
        set { if side == .a { sideA = newValue } else { sideB = newValue } }
    }
}

extension DialogueConfiguration {
    /// The options of the request that hears `side`'s turn. A simultaneous turn goes on across
    /// the speaker's pauses: a pause ends a clause, and only the yield silence ends the turn
    /// (with a microphone each too: the other side's microphone is heard only on its turn, and
    /// what the speaker says after a pause that ended the turn would be heard by no one). On
    /// the microphone both sides share (`sharedMicrophone`), each of its clauses tells how much
    /// it sounded like the other side's language, for the transcript.
    func listeningOptions(for side: DialogueSide, simultaneous: Bool, sharedMicrophone: Bool) -> RecognitionOptions {
        let yield = simultaneous ? yieldMilliseconds : nil
        var options = RecognitionOptions.conversation(endpointMilliseconds: max(endpointMilliseconds, yield ?? 0),
                                                      interpreting: simultaneous ? commitPolicy : nil)
        if simultaneous, sharedMicrophone { options.otherLocale = self[side.other].locale }
        return options
    }
}
