public import ParleyCore

/// One person of a room as the coordinator reaches them: their language, and the
/// microphone and speaker of their own audio session (nil where there is none: typed
/// input, printed translations).
public struct RoomMember: Sendable {
    /// The language they speak and hear.
    public var locale: LocaleTag
    /// Their microphone, opened once for the whole room.
    public var source: (any AudioSource)?
    /// Their speaker, opened once for the whole room.
    public var sink: (any AudioSink)?
    /// What their audio session reports on its own: its server lost, back.
    public var audioEvents: AsyncStream<AudioEvent>?
    /// Where they are reached, for the lines that say they are away (`tcp:studio:4713`).
    public var place: String

    /// Creates a member; leave out what is not available.
    public init(locale: LocaleTag, source: (any AudioSource)? = nil, sink: (any AudioSink)? = nil,
                audioEvents: AsyncStream<AudioEvent>? = nil, place: String = "the default server") {
        self.locale = locale
        self.source = source
        self.sink = sink
        self.audioEvents = audioEvents
        self.place = place
    }
}

/// What a room runs on: a member per party and the engines they share.
public struct RoomStages: Sendable {
    /// The parties, numbered from 1 in this order.
    public var members: [RoomMember]
    /// Speech to text, shared: one decode at a time, in the order the parties ask.
    public var recognizer: (any SpeechRecognizer)?
    /// Text to text.
    public var translator: (any Translator)?
    /// Text to speech.
    public var synthesizer: (any SpeechSynthesizer)?
    /// Why parts are missing, one sentence each, reported when the room starts.
    public var limitations: [String]
    /// Called once when the room ends: close the sessions, stop the engines.
    public var shutdown: @Sendable () async -> Void
    /// Told of each wait the room gave up at its bound (a drain never reported, a server
    /// that does not answer), once each, to name it to the person in one line.
    public var waitGivenUp: @Sendable (WaitAbandoned) -> Void = { _ in }

    /// Creates the stages of a room.
    public init(members: [RoomMember], recognizer: (any SpeechRecognizer)? = nil, translator: (any Translator)? = nil,
                synthesizer: (any SpeechSynthesizer)? = nil, limitations: [String] = [],
                shutdown: @escaping @Sendable () async -> Void = {}) {
        self.members = members
        self.recognizer = recognizer
        self.translator = translator
        self.synthesizer = synthesizer
        self.limitations = limitations
        self.shutdown = shutdown
    }
}
