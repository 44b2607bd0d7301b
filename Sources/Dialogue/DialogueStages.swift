public import ParleyCore

/// The stages a conversation runs on, each optional: the dialogue does
/// without what is missing (no audio → typed input and printed translations;
/// no translator → nothing to translate, said on every turn).
///
/// The executable builds this from the real stages; tests from fakes.
///
/// ```swift
/// let stages = DialogueStages(source: session, sink: session, audioEvents: session.events,
///                               recognizer: recognizer, translator: translator, synthesizer: synthesizer)
/// ```
public struct DialogueStages: Sendable {
    /// The microphone, opened once for the whole conversation.
    public var source: (any AudioSource)?
    /// The speaker, opened once for the whole conversation.
    public var sink: (any AudioSink)?
    /// What the audio session reports on its own (server lost, interruptions).
    public var audioEvents: AsyncStream<AudioEvent>?
    /// Side B's own microphone and speaker, when the sides have separate devices (a headset
    /// each, or side B on another server): `source`, `sink` and `audioEvents` are then side A's.
    /// Nil: both sides share `source` and `sink`.
    public var sideB: SideAudio?
    /// Speech to text.
    public var recognizer: (any SpeechRecognizer)?
    /// Text to text.
    public var translator: (any Translator)?
    /// Text to speech.
    public var synthesizer: (any SpeechSynthesizer)?
    /// Why parts are missing, one sentence each, reported when the conversation starts
    /// (e.g. "no audio server: … ; continuing with typed input").
    public var limitations: [String]
    /// Called once when the conversation ends: stop translation processes, close the audio session.
    public var shutdown: @Sendable () async -> Void
    /// Told of each wait the conversation gave up at its bound (a drain never reported, a
    /// server that does not answer), once each, to name it to the person in one line.
    public var waitGivenUp: @Sendable (WaitAbandoned) -> Void = { _ in }

    /// Creates a set of stages; leave out what is not available.
    public init(source: (any AudioSource)? = nil, sink: (any AudioSink)? = nil,
                audioEvents: AsyncStream<AudioEvent>? = nil,
                recognizer: (any SpeechRecognizer)? = nil, translator: (any Translator)? = nil,
                synthesizer: (any SpeechSynthesizer)? = nil, limitations: [String] = [],
                shutdown: @escaping @Sendable () async -> Void = {}) {
        self.source = source
        self.sink = sink
        self.audioEvents = audioEvents
        self.recognizer = recognizer
        self.translator = translator
        self.synthesizer = synthesizer
        self.limitations = limitations
        self.shutdown = shutdown
    }

    /// No stages at all: typed input, and a message that translation is unavailable.
    public static let none = DialogueStages()

    /// Whether each side has its own microphone and speaker.
    public var hasSeparateDevices: Bool { sideB != nil }

    /// The microphone `side` speaks into.
    public func source(for side: DialogueSide) -> (any AudioSource)? {
        if side == .b, let sideB { return sideB.source }
        return source
    }

    /// The speaker `side` hears translations on.
    public func sink(for side: DialogueSide) -> (any AudioSink)? {
        if side == .b, let sideB { return sideB.sink }
        return sink
    }

    /// Every microphone, once each, with the side it belongs to (nil: both sides share it).
    var microphones: [(side: DialogueSide?, source: any AudioSource)] {
        guard let sideB else { return source.map { [(nil, $0)] } ?? [] }
        return [(.a, source), (.b, sideB.source)].compactMap { side, source in source.map { (side, $0) } }
    }

    /// Every speaker, once each.
    var speakers: [any AudioSink] {
        [sink, sideB?.sink].compactMap { $0 }
    }

    /// Every audio session's report stream, with the side it belongs to (nil: both sides').
    var audioReports: [(side: DialogueSide?, events: AsyncStream<AudioEvent>)] {
        guard let sideB else { return audioEvents.map { [(nil, $0)] } ?? [] }
        return [(.a, audioEvents), (.b, sideB.audioEvents)].compactMap { side, events in events.map { (side, $0) } }
    }
}

/// One side's own microphone and speaker (`DialogueStages.sideB`), each optional: a side whose
/// server could not be reached types and reads.
public struct SideAudio: Sendable {
    /// The side's microphone, opened once for the whole conversation.
    public var source: (any AudioSource)?
    /// The side's speaker, opened once for the whole conversation.
    public var sink: (any AudioSink)?
    /// What the side's audio session reports on its own.
    public var audioEvents: AsyncStream<AudioEvent>?

    /// Side audio from one session (or fakes).
    public init(source: (any AudioSource)?, sink: (any AudioSink)?, audioEvents: AsyncStream<AudioEvent>? = nil) {
        (self.source, self.sink, self.audioEvents) = (source, sink, audioEvents)
    }
}
