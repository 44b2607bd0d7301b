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
}
