public import ParleyCore

/// One party's own audio: their microphone and speaker and what their session reports, each
/// optional (a party without a microphone types; without a speaker, reads).
public struct PartyDevices: Sendable {
    /// The microphone, opened once for the whole conversation.
    public var source: (any AudioSource)?
    /// The speaker, opened once for the whole conversation.
    public var sink: (any AudioSink)?
    /// What the audio session reports on its own: its server lost, back, interruptions.
    public var audioEvents: AsyncStream<AudioEvent>?
    /// Where they are reached, for the lines that say they are away (`tcp:studio:4713`).
    public var place: String

    /// Devices from one session (or fakes); leave out what is not available.
    public init(source: (any AudioSource)? = nil, sink: (any AudioSink)? = nil,
                audioEvents: AsyncStream<AudioEvent>? = nil, place: String = "the default server") {
        (self.source, self.sink, self.audioEvents, self.place) = (source, sink, audioEvents, place)
    }
}

/// The stages a conversation runs on, a dialogue's or a room's, each optional: the
/// conversation does without what is missing (no audio → typed input and printed
/// translations; no translator → nothing to translate, said when it starts).
///
/// `devices` are the parties' microphones and speakers: one entry that every party shares (two
/// people at one laptop), or one per party (a headset each, a room). The executable builds
/// this from the real stages; tests from fakes.
///
/// ```swift
/// let stages = ConversationStages(source: session, sink: session, audioEvents: session.events,
///                                 recognizer: recognizer, translator: translator, synthesizer: synthesizer)
/// ```
public struct ConversationStages: Sendable {
    /// The parties' devices: none, one entry the parties share, or one per party in their order.
    public var devices: [PartyDevices]
    /// Speech to text, shared: one decode at a time, in the order asked.
    public var recognizer: (any SpeechRecognizer)?
    /// Text to text.
    public var translator: (any Translator)?
    /// Text to speech.
    public var synthesizer: (any SpeechSynthesizer)?
    /// Why parts are missing, one sentence each, reported when the conversation starts
    /// (e.g. "no audio server: … ; continuing with typed input").
    public var limitations: [String]
    /// Called once when the conversation ends: stop translation processes, close the audio sessions.
    public var shutdown: @Sendable () async -> Void
    /// Told of each wait the conversation gave up at its bound (a drain never reported, a
    /// server that does not answer), once each, to name it to the person in one line.
    public var waitGivenUp: @Sendable (WaitAbandoned) -> Void = { _ in }

    /// Creates a set of stages; leave out what is not available.
    public init(devices: [PartyDevices], recognizer: (any SpeechRecognizer)? = nil,
                translator: (any Translator)? = nil, synthesizer: (any SpeechSynthesizer)? = nil,
                limitations: [String] = [], shutdown: @escaping @Sendable () async -> Void = {}) {
        self.devices = devices
        self.recognizer = recognizer
        self.translator = translator
        self.synthesizer = synthesizer
        self.limitations = limitations
        self.shutdown = shutdown
    }

    /// Stages whose parties share one microphone and speaker (or have none, when all three are nil).
    public init(source: (any AudioSource)? = nil, sink: (any AudioSink)? = nil,
                audioEvents: AsyncStream<AudioEvent>? = nil,
                recognizer: (any SpeechRecognizer)? = nil, translator: (any Translator)? = nil,
                synthesizer: (any SpeechSynthesizer)? = nil, limitations: [String] = [],
                shutdown: @escaping @Sendable () async -> Void = {}) {
        let shared = source == nil && sink == nil && audioEvents == nil
            ? [] : [PartyDevices(source: source, sink: sink, audioEvents: audioEvents)]
        self.init(devices: shared, recognizer: recognizer, translator: translator, synthesizer: synthesizer,
                  limitations: limitations, shutdown: shutdown)
    }

    /// No stages at all: typed input, and a message that translation is unavailable.
    public static let none = ConversationStages()

    /// Whether each party has their own devices.
    public var hasSeparateDevices: Bool { devices.count > 1 }

    /// The devices of party `index` (from 0): their own, or the ones every party shares.
    public func devices(ofParty index: Int) -> PartyDevices? {
        devices.count == 1 ? devices[0] : devices.indices.contains(index) ? devices[index] : nil
    }
}

extension ConversationStages {
    /// The microphone `side` speaks into.
    func source(for side: DialogueSide) -> (any AudioSource)? { devices(ofParty: side.index)?.source }

    /// The speaker `side` hears translations on.
    func sink(for side: DialogueSide) -> (any AudioSink)? { devices(ofParty: side.index)?.sink }

    /// Every microphone, once each, with the side it belongs to (nil: both sides share it).
    var microphones: [(side: DialogueSide?, source: any AudioSource)] {
        owned(\.source)
    }

    /// Every speaker, once each.
    var speakers: [any AudioSink] {
        devices.compactMap(\.sink)
    }

    /// Every audio session's report stream, with the side it belongs to (nil: both sides').
    var audioReports: [(side: DialogueSide?, events: AsyncStream<AudioEvent>)] {
        owned(\.audioEvents)
    }

    private func owned<Part>(_ part: KeyPath<PartyDevices, Part?>) -> [(side: DialogueSide?, Part)] {
        guard hasSeparateDevices else { return devices.first?[keyPath: part].map { [(nil, $0)] } ?? [] }
        return zip(DialogueSide.allCases, devices).compactMap { side, devices in devices[keyPath: part].map { (side, $0) } }
    }
}
