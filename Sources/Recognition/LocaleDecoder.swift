import ParleyCore

/// The decoder of one locale, on its own thread, with what must survive
/// between utterances: the searches defined, the request that owns the
/// decoder now, and audio left over after the last endpoint.
///
/// Everything in `DecoderState` is touched only from jobs on `thread`.
final class LocaleDecoder: Sendable {
    /// The thread every decoder call runs on.
    let thread: DecoderThread
    /// The decoder and its bookkeeping; only for jobs on `thread`.
    let state: DecoderState
    /// The settings the decoder was created with.
    let configuration: DecoderConfiguration

    private init(thread: DecoderThread, state: DecoderState, configuration: DecoderConfiguration) {
        self.thread = thread
        self.state = state
        self.configuration = configuration
    }

    /// Loads the model on a new thread; throws `modelUnusable` naming the file at fault.
    static func load(_ configuration: DecoderConfiguration) async throws -> LocaleDecoder {
        let thread = DecoderThread(name: "pocketsphinx \(configuration.model.locale)")
        do {
            let state = try await thread.perform {
                let decoder = try Decoder.load(configuration)
                decoder.startStream()
                return DecoderState(decoder: decoder)
            }
            return LocaleDecoder(thread: thread, state: state, configuration: configuration)
        } catch {
            thread.stop()
            throw error
        }
    }

    /// Runs `body` on the decoder's thread with its state.
    func perform<T: Sendable>(_ body: @escaping @Sendable (DecoderState) throws -> T) async throws -> T {
        let state = self.state
        return try await thread.perform { try body(state) }
    }

    deinit {
        let state = self.state
        let thread = self.thread
        thread.performDetached { state.release() }
        thread.stop()
    }
}

/// A decoder and what it remembers between utterances. Confined to its `DecoderThread`.
final class DecoderState: @unchecked Sendable {
    /// The decoder; nil once released.
    private(set) var decoder: Decoder?
    /// The searches defined for hints.
    var searches = SearchSelection()
    /// The request whose utterance is open, if any.
    private(set) var owner: ObjectIdentifier?
    /// Audio received after the last endpoint, for the next request.
    var leftover: [Int16] = []

    init(decoder: Decoder) {
        self.decoder = decoder
    }

    /// The decoder, which exists until the locale decoder is dropped.
    var live: Decoder {
        guard let decoder else { preconditionFailure("a released decoder was used") }
        return decoder
    }

    /// Starts an utterance for `request`, ending one another request left open.
    func open(for request: ObjectIdentifier, hint: RecognitionHint, newStream: Bool) throws {
        closeUtterance()
        if newStream {
            live.startStream()
            leftover = []
        }
        try searches.activate(hint, on: live)
        try live.startUtterance()
        owner = request
    }

    /// Whether `request` owns the open utterance.
    func isOwned(by request: ObjectIdentifier) -> Bool { owner == request }

    /// Ends the open utterance (`ps_end_utt`), if any.
    func closeUtterance() {
        guard owner != nil else { return }
        live.endUtterance()
        owner = nil
    }

    /// Frees the decoder.
    func release() {
        closeUtterance()
        decoder = nil
    }
}
