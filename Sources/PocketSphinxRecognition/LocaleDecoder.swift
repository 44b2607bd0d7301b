import ParleyCore

/// The decoder of one locale: an actor on a thread of its own, holding the
/// decoder and what must survive between utterances — the searches defined,
/// the utterance open now and the request it belongs to, and audio left over
/// after the last endpoint.
///
/// PocketSphinx calls block for milliseconds to hundreds of milliseconds (a
/// model load, the final pass), so they never run on Swift's cooperative
/// pool; and the decoder is not thread-safe, so it lives on exactly one
/// thread. The `Decoder` is not `Sendable`: it never leaves this actor.
actor LocaleDecoder {
    /// The settings the decoder was created with.
    let configuration: DecoderConfiguration
    private let executor: DedicatedThreadExecutor
    /// The decoder; nil until loaded and once released.
    private var decoder: Decoder?
    /// The searches defined for hints.
    var searches = SearchSelection()
    /// The utterance open now, if any.
    var utterance: OpenUtterance?
    /// Audio received after the last endpoint, for the next request.
    var leftover: [Int16] = []

    private init(configuration: DecoderConfiguration) {
        self.configuration = configuration
        executor = DedicatedThreadExecutor(name: "pocketsphinx \(configuration.model.locale)")
    }

    /// Every job of this decoder runs on its dedicated thread.
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Loads the model on a new thread; throws `modelUnusable` naming the file at fault.
    static func load(_ configuration: DecoderConfiguration) async throws -> LocaleDecoder {
        let localeDecoder = LocaleDecoder(configuration: configuration)
        try await localeDecoder.loadModel()
        return localeDecoder
    }

    private func loadModel() throws {
        let loaded = try Decoder.load(configuration)
        loaded.startStream()
        decoder = loaded
    }

    /// The decoder, which exists from the load until this actor goes.
    var live: Decoder {
        guard let decoder else { preconditionFailure("a released decoder was used") }
        return decoder
    }

    /// Starts an utterance for `request`, ending one another request left open.
    func open(for request: ObjectIdentifier, options: RecognitionOptions, newStream: Bool) throws {
        closeUtterance()
        if newStream {
            live.startStream()
            leftover = []
        }
        try searches.activate(options.hint, on: live)
        try live.startUtterance()
        utterance = OpenUtterance(owner: request, options: options)
    }

    /// Whether `request` owns the open utterance.
    func isOwned(by request: ObjectIdentifier) -> Bool { utterance?.owner == request }

    /// Ends the open utterance (`ps_end_utt`), if any.
    func closeUtterance() {
        guard utterance != nil else { return }
        live.endUtterance()
        utterance = nil
    }

    /// Frees the decoder on its thread, then lets the thread end.
    isolated deinit {
        closeUtterance()
        decoder = nil
        executor.stop()
    }
}
