import ParleyCore
import Testing
@testable import PocketSphinxRecognition
@testable import Recognition
import RecognitionTestSupport

/// The pure parts: result assembly, utterance tracking, decoder settings, downmixing.
struct RecognitionLogicTests {
    @Test("pronunciation variant marks are stripped, other parentheses kept",
          arguments: [("was(2)", "was"), ("read(12)", "read"), ("was", "was"), ("(2)", ""), ("a(b)", "a(b)")])
    func baseWord(_ word: String, _ expected: String) {
        #expect(ResultAssembly.baseWord(word) == expected)
    }

    @Test("alternatives drop fillers, variants, the best transcript and repeats, up to the limit")
    func alternatives() {
        let nbest = ["<s> go forward ten meters </s>", "go forward(2) ten meters", "go <sil> forward ten meter",
                     "go forward ten meter", "go for word ten meters", "", "[NOISE]", "go toward ten meters"]
        #expect(ResultAssembly.alternatives(from: nbest, best: "go forward ten meters", limit: 2)
            == ["go forward ten meter", "go for word ten meters"])
        #expect(ResultAssembly.alternatives(from: nbest, best: "go forward ten meters", limit: 5)
            == ["go forward ten meter", "go for word ten meters", "go toward ten meters"])
    }

    @Test("word times count from the utterance's first frame and skip fillers")
    func wordTimes() {
        let segments = [Segment(word: "<sil>", startFrame: 300, endFrame: 339, posterior: 1),
                        Segment(word: "go", startFrame: 340, endFrame: 369, posterior: 0.9),
                        Segment(word: "[NOISE]", startFrame: 370, endFrame: 379, posterior: 1),
                        Segment(word: "was(2)", startFrame: 380, endFrame: 419, posterior: 0.5)]
        let words = ResultAssembly.words(from: segments, originFrame: 300, framesPerSecond: 100)
        #expect(words == [RecognizedWord(text: "go", start: 0.4, end: 0.7, confidence: 0.9),
                          RecognizedWord(text: "was", start: 0.8, end: 1.2, confidence: 0.5)])
    }

    @Test("the tracker reports start, end, the start timeout and the maximum length at the right sample")
    func tracker() {
        var tracker = UtteranceTracker(sampleRate: 100, startTimeout: 2, maximumDuration: 3)
        #expect(tracker.advance(by: 150, inSpeech: false) == .none)
        #expect(tracker.advance(by: 10, inSpeech: true) == .started)
        #expect(tracker.speechStart == 160)
        #expect(tracker.advance(by: 300, inSpeech: true) == .none)
        #expect(tracker.advance(by: 1, inSpeech: true) == .tooLong)
        #expect(tracker.advance(by: 1, inSpeech: false) == .ended)

        var waiting = UtteranceTracker(sampleRate: 100, startTimeout: 2, maximumDuration: 3)
        #expect(waiting.advance(by: 199, inSpeech: false) == .none)
        #expect(waiting.advance(by: 1, inSpeech: false) == .timedOut)

        var patient = UtteranceTracker(sampleRate: 100, startTimeout: nil, maximumDuration: 3)
        #expect(patient.advance(by: 100_000, inSpeech: false) == .none)
    }

    @Test("the endpoint becomes the voice activity detector's trailing frames, and the settings match the CLI's")
    func configuration() {
        #expect(DecoderConfiguration.frames(forMilliseconds: 500) == 50)
        #expect(DecoderConfiguration.frames(forMilliseconds: 804) == 80)
        #expect(DecoderConfiguration.frames(forMilliseconds: 0) == 1)
        let model = SpeechModel(locale: LocaleTag("en-US")!, acousticModel: "/m/hmm", languageModel: "/m/lm.bin",
                                dictionary: "/m/words.dict")
        #expect(DecoderConfiguration(model: model, postSpeechFrames: 30).arguments
            == ["-hmm", "/m/hmm", "-lm", "/m/lm.bin", "-dict", "/m/words.dict",
                "-fwdflat", "no", "-bestpath", "yes", "-maxhmmpf", "6000", "-vad_postspeech", "30"])
    }

    @Test("the tool is compared under the settings a default recognizer really loads its decoder with")
    func commandLineTuningIsTheRecognizers() {
        let tuning = PocketSphinxRecognizer.commandLineTuning(endpointMilliseconds: 300)
        #expect(tuning == ["-fwdflat", "no", "-bestpath", "yes", "-maxhmmpf", "6000", "-vad_postspeech", "30"])
        let recognizer = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil))
        #expect(recognizer.configuration(for: Reference.english, endpointMilliseconds: 300).tuning == tuning)
        #expect(PocketSphinxRecognizer.commandLineTuning() == recognizer.configuration(
            for: Reference.english, endpointMilliseconds: RecognitionOptions().endpointMilliseconds).tuning)
        let wider = PocketSphinxRecognizer(models: PocketSphinxModelRegistry(userDirectory: nil), flatLexiconPass: true, maximumActiveHMMs: 30_000)
        #expect(wider.configuration(for: Reference.english, endpointMilliseconds: 300).tuning
            == ["-fwdflat", "yes", "-bestpath", "yes", "-maxhmmpf", "30000", "-vad_postspeech", "30"])
    }

    @Test("channels are averaged to mono")
    func downmix() {
        #expect(AudioFileReader.downmix([0.5, 0.25, -1, 1, 0.2, 0.2], channels: 2) == [0.375, 0, 0.2])
        #expect(AudioFileReader.downmix([0.1, 0.2], channels: 1) == [0.1, 0.2])
    }
}

extension RecognitionLogicTests {
    @Test("the utterance confidence is the mean word posterior, or the sentence posterior without words")
    func confidence() {
        let words = [RecognizedWord(text: "a", start: 0, end: 1, confidence: 0.9),
                     RecognizedWord(text: "b", start: 1, end: 2, confidence: 0.5)]
        #expect(abs(ResultAssembly.confidence(of: words, sentencePosterior: 0.01) - 0.7) < 1e-9)
        #expect(ResultAssembly.confidence(of: [], sentencePosterior: 0.25) == 0.25)
    }
}

extension RecognitionLogicTests {
    @Test("PocketSphinx's log lines become reasons without file, line or garbage line numbers")
    func logMessages() {
        #expect(SphinxLog.message(#"ERROR: "fsg_search.c", line 141: The word 'qqzz' is missing in the dictionary"#)
            == "The word 'qqzz' is missing in the dictionary")
        #expect(SphinxLog.message(#"ERROR: "jsgf_parser.y", line 155: syntax error at line 151613296 current token ';'"#)
            == "syntax error at token ';'")
    }

    @Test("a failed load names the model file the log mentions, else the file of the failing stage")
    func modelFailure() {
        let model = SpeechModel(locale: LocaleTag("es-ES")!, acousticModel: "/m/hmm", languageModel: "/m/es.lm.bin",
                                dictionary: "/m/es.dict")
        #expect(ModelFailure.diagnose(model, logErrors: [#"ERROR: "ngram_model.c", line 9: Failed to read /m/es.lm.bin"#])
            == .modelUnusable(path: "/m/es.lm.bin", reason: "Failed to read /m/es.lm.bin"))
        #expect(ModelFailure.diagnose(model, logErrors: [#"ERROR: "ms_gauden.c", line 3: Failed to open '/m/hmm/means' for reading"#])
            == .modelUnusable(path: "/m/hmm/means", reason: "Failed to open '/m/hmm/means' for reading"))
        #expect(ModelFailure.diagnose(model, logErrors: [#"ERROR: "dict.c", line 2: bad entry"#])
            == .modelUnusable(path: "/m/es.dict", reason: "bad entry"))
        #expect(ModelFailure.diagnose(model, logErrors: [])
            == .modelUnusable(path: "/m/hmm", reason: "PocketSphinx could not load it"))
    }
}

extension RecognitionLogicTests {
    @Test("text between JSGF statements is found; comments, quoted tokens and tags may hold anything")
    func jsgfStrayText() {
        let header = "#JSGF V1.0;\ngrammar g;\n"
        #expect(JSGFStatements.strayText(in: header + "public <a> = go | stop;\n<b> = one;\nimport <x.y>;") == nil)
        #expect(JSGFStatements.strayText(in: header + "/* a; b */ public <a> = go; // c; d\n") == nil)
        #expect(JSGFStatements.strayText(in: header + "public <a> = \"x;y\" {t;u} go;") == nil)
        #expect(JSGFStatements.strayText(in: header + "public <a> = go;\nroot:x:0:0\nbin:x:1") == "root:x:0:0 bin:x:1")
        #expect(JSGFStatements.strayText(in: header + "stray words\npublic <a> = go;") == "stray words public <a> = go")
        #expect(JSGFStatements.strayText(in: header + "public <a> = go;\n  ~~~  \n") == "~~~")
    }
}
