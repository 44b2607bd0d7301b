import Locales
public import ParleyCore

/// Two-language recognition: one utterance decoded in both languages of a
/// conversation from one encoder pass (the worker's `pair` request: the
/// encoder output repeated into a batch of two, one greedy hypothesis per
/// forced language token), for hands-free turns where either side may speak.
extension WhisperRecognizer: LanguagePairRecognizer {
    /// Starts a request whose final result holds the utterance in `first` and in `second`;
    /// detection, endpointing and partial results (in `first`) are those of a one-language request.
    public func makePairRequest(first: LocaleTag, second: LocaleTag,
                                options: RecognitionOptions) async throws -> any RecognitionRequest {
        try await makePairRequest(first: first, second: second, options: options, newStream: false)
    }

    /// As `makePairRequest(first:second:options:)`; `newStream` for a new file or capture.
    public func makePairRequest(first: LocaleTag, second: LocaleTag, options: RecognitionOptions,
                                newStream: Bool) async throws -> any RecognitionRequest {
        try await start()
        for locale in [first, second] where !knows(locale) {
            throw RecognitionError.unsupportedLocale(locale, installed: await supportedLocales())
        }
        let stream = try takeStream(fresh: newStream, endpoint: options.endpointMilliseconds, channel: options.channel ?? "")
        return WhisperRequest(recognizer: self, language: ModelLanguageCode.whisper(first.language), options: options,
                              stream: stream, pairLanguage: ModelLanguageCode.whisper(second.language))
    }

    /// Decodes one whole utterance (no detection) in `first` and `second` from one encoder pass.
    public func recognizePair(_ samples: [Int16], first: LocaleTag, second: LocaleTag,
                              options: RecognitionOptions = RecognitionOptions()) async throws -> RecognitionResult {
        try await start()
        return try WhisperRequest.pairResult(await decodePair(samples, languages: (ModelLanguageCode.whisper(first.language),
                                                                                  ModelLanguageCode.whisper(second.language)),
                                                                options: options))
    }

    /// Decodes one whole utterance (no detection) in `locale` exactly as a dialogue turn's
    /// final decode does (alternatives and word times as tuned).
    public func recognizeUtterance(_ samples: [Int16], locale: LocaleTag,
                                   options: RecognitionOptions = RecognitionOptions()) async throws -> RecognitionResult {
        try await start()
        return try WhisperRequest.result(from: await decode(samples, language: ModelLanguageCode.whisper(locale.language),
                                                            options: options, final: true))
    }

    /// Both readings of an utterance, in one round trip per window. When the short window's
    /// silence verdict decides it — both readings silent, or only the reading of the language
    /// the model finds more probable — or a reading is one text said twice over, the worker
    /// decodes the full window too, inside the same request (`Tuning.secondOpinion`; the rule
    /// is the worker's, `worker/parley_worker/second_opinion.py`, beside the silence verdicts
    /// it rests on). An utterance longer than one window (`WhisperWindows`) is decoded window
    /// after window, each language's readings joined.
    func decodePair(_ audio: [Int16], languages: (String, String), options: RecognitionOptions) async throws -> WhisperPairAnswer {
        let windows = WhisperWindows.ranges(of: audio)
        guard windows.count > 1 else { return try await decodePairWindow(audio, languages: languages, options: options) }
        var answers: [WhisperPairAnswer] = []
        for range in windows {
            try Task.checkCancellation()
            answers.append(try await decodePairWindow(Array(audio[range]), languages: languages, options: options))
        }
        return WhisperPairAnswer.joined(answers)
    }

    private func decodePairWindow(_ audio: [Int16], languages: (String, String),
                                  options: RecognitionOptions) async throws -> WhisperPairAnswer {
        // Padded as a final one-language decode is, so each reading is what that decode would hear.
        let answer = try await worker.transcribePair(audio, languages: languages, prompt: prompt(for: options),
                                                     padding: tuning.finalPadding,
                                                     secondOpinion: tuning.secondOpinion && audio.count < Self.fullWindowSamples,
                                                     channel: options.channel ?? "")
        if answer.secondOpinion { countSecondOpinion() }
        return try await plainLanguageChecked(answer, audio: audio, options: options)
    }

    /// `answer`, or, where its language was plain (one reading decoded, the other language
    /// skipped as overwhelmingly less probable) and that reading holds a word the language's
    /// word list does not, the reading of a final one-language decode of the same audio instead
    /// (its beam's alternative the list knows, or the full window; `decodeWindow`) when that
    /// reading holds fewer such words. The greedy pair decode slips where the one-language beam
    /// does not ("ill-sposed" for "ill-disposed"), and a stretch whose language is plain is read
    /// as its side's own turn would read it. Both readings untouched otherwise: where both
    /// languages were decoded, their greedy readings are the evidence the side is decided by.
    private func plainLanguageChecked(_ answer: WhisperPairAnswer, audio: [Int16],
                                      options: RecognitionOptions) async throws -> WhisperPairAnswer {
        guard tuning.secondOpinion, audio.count < Self.fullWindowSamples,
              answer.hypotheses.count == 2, answer.hypotheses.contains(where: \.skipped),
              let index = answer.hypotheses.firstIndex(where: { !$0.skipped && !$0.silent && !$0.text.isEmpty }),
              let lexicon = await lexiconTask(answer.hypotheses[index].language).value else { return answer }
        let reading = answer.hypotheses[index]
        let unknown = unknownWords(in: reading.text, lexicon: lexicon)
        guard !unknown.isEmpty else { return answer }
        try Task.checkCancellation()
        let own = try await decodeWindow(audio, language: reading.language, options: options, final: true)
        guard own.heard, unknownWords(in: own.text, lexicon: lexicon).count < unknown.count else { return answer }
        var checked = answer
        checked.hypotheses[index].text = own.text
        checked.hypotheses[index].confidence = own.confidence
        return checked
    }
}

extension WhisperRequest {
    /// A worker answer as a result; throws `emptyRecognition` for silence or no words (the
    /// worker's verdict, read, not judged again).
    static func result(from answer: WhisperTranscription) throws -> RecognitionResult {
        guard answer.heard else { throw RecognitionError.emptyRecognition }
        let words = answer.words.map {
            RecognizedWord(text: $0.text, start: $0.start, end: $0.end, confidence: $0.confidence)
        }
        var result = RecognitionResult(text: answer.text, confidence: answer.confidence,
                                       alternatives: answer.alternatives, words: words, isFinal: true)
        result.otherLanguageShare = answer.otherLanguageShare
        return result
    }

    /// A pair answer as a result: the first language's text, both hypotheses; throws
    /// `emptyRecognition` when the decoder heard silence in both languages (the worker's verdict:
    /// a silent reading's text is empty).
    static func pairResult(_ answer: WhisperPairAnswer) throws -> RecognitionResult {
        let hypotheses = answer.hypotheses.map {
            LanguageHypothesis(language: $0.language, text: $0.text,
                               decoderScore: $0.averageLogProbability, languageProbability: $0.languageProbability)
        }
        guard hypotheses.count == 2, hypotheses.contains(where: { !$0.text.isEmpty }) else {
            throw RecognitionError.emptyRecognition
        }
        return RecognitionResult(text: hypotheses[0].text, confidence: hypotheses[0].confidence,
                                 isFinal: true, hypotheses: hypotheses)
    }
}
