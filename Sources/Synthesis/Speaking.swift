public import ParleyCore
import Foundation

extension ESpeakSynthesizer {
    /// Synthesizes `utterance` on the espeak thread, delivering events as they are produced:
    /// `.started`, then words and audio in order (silence first and last for the delays),
    /// then `.finished` — or `.cancelled` after `stopSpeaking()`. A setting out of range,
    /// an unknown voice or an invalid override ends the stream with the error instead.
    /// Long text is synthesized sentence by sentence, so the first audio comes after the
    /// first sentence's first clause, not after the whole text.
    public func speak(_ utterance: Utterance) -> AsyncThrowingStream<SynthesisEvent, any Error> {
        let channel = EventChannel()
        let prosody: Prosody
        do {
            prosody = try Prosody(validating: utterance)
        } catch {
            channel.fail(error)
            return channel.stream()
        }
        register(channel)
        host.submit { engine in
            do {
                try self.synthesize(utterance, prosody: prosody, engine: engine.get(), channel: channel)
            } catch {
                channel.fail(error)
            }
        }
        return channel.stream()
    }

    /// Stops every utterance of this synthesizer that is being or waiting to be synthesized;
    /// each stream ends with `.cancelled` at espeak's next callback. Utterances started
    /// afterwards are not affected.
    public func stopSpeaking() async {
        for channel in runningChannels() { channel.cancel() }
    }

    /// The job on the engine thread.
    private func synthesize(_ utterance: Utterance, prosody: Prosody, engine: ESpeakEngine, channel: EventChannel) throws {
        guard !channel.isCancelled else { return channel.send(.cancelled) }
        let resolved = try catalogOnEngineThread(engine).resolve(utterance.voice)
        let sentences = spokenSentences(of: utterance.text, language: resolved.voice.language)
        try engine.selectVoice(resolved.espeakName)
        try validateOverrides(in: sentences, engine: engine)
        engine.setProsody(wordsPerMinute: prosody.wordsPerMinute, pitch: prosody.pitch, volume: 100)
        let run = SynthesisRun(channel: channel, text: utterance.text, amplitude: prosody.amplitude)
        channel.send(.started(resolved.voice))
        run.sendSilence(prosody.leadingSilence)
        for (index, sentence) in sentences.enumerated() where !run.isCancelled {
            run.sentence = sentence
            _ = try engine.synthesize(sentence.text, phonemeInput: sentence.usesPhonemes,
                                      endPause: index < sentences.count - 1, receiver: run)
        }
        run.sendSilence(prosody.trailingSilence)
        channel.send(run.isCancelled ? .cancelled : .finished)
    }

    /// The phonemes espeak reads for `utterance`: its voice, with this synthesizer's
    /// overrides applied exactly as `speak` applies them (`espeak_TextToPhonemes`).
    public func phonemes(of utterance: Utterance, notation: PhonemeNotation = .mnemonic) async throws -> String {
        let mode = try Self.phonemeMode(notation, separator: nil)
        return try await host.run { engine in
            let resolved = try self.catalogOnEngineThread(engine).resolve(utterance.voice)
            let sentences = self.spokenSentences(of: utterance.text, language: resolved.voice.language)
            try engine.selectVoice(resolved.espeakName)
            try self.validateOverrides(in: sentences, engine: engine)
            return try sentences.flatMap { try engine.textToPhonemes($0.text, mode: mode, phonemeInput: $0.usesPhonemes) }
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
        }
    }

    /// The sentences of `text` with this synthesizer's overrides for `language` applied.
    func spokenSentences(of text: String, language: String) -> [SpokenSentence] {
        let table = overrides.entries[language.lowercased()] ?? [:]
        return SpokenTextBuilder(overrides: table).sentences(of: text)
    }

    /// Checks every override's mnemonics before espeak reads them (it would silently cut them short).
    func validateOverrides(in sentences: [SpokenSentence], engine: ESpeakEngine) throws {
        for sentence in sentences {
            for (word, phonemes) in sentence.replacements {
                if let problem = try engine.firstUnknownPhoneme(in: phonemes) {
                    throw SynthesisError.invalidPhonemes(word: word, phonemes: phonemes,
                                                         symbol: problem.symbol, position: problem.position)
                }
            }
        }
    }

    /// The catalog, listed on the engine thread itself when it is not known yet.
    func catalogOnEngineThread(_ engine: ESpeakEngine) -> VoiceCatalog {
        if let catalog = cachedCatalog { return catalog }
        let catalog = VoiceCatalog(listed: engine.listVoices(), variants: engine.listVariants(),
                                   registry: registry, genders: genders)
        cachedCatalog = catalog
        return catalog
    }
}
