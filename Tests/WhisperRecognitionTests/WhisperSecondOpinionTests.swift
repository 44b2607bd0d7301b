import Foundation
import Locales
import ParleyCore
import PocketSphinxRecognition
@testable import WhisperRecognition
@testable import Recognition
import TestSupport
import Testing

/// Word lists, and the second opinion a final Whisper result gets from the full window when it
/// holds a word the list does not (real worker and model).
@Suite("Whisper second opinion", .serialized)
struct WhisperSecondOpinionTests {
    @Test("a word list reads CMU lines and bare words, and names the words it does not hold")
    func lexiconWords() {
        let lexicon = WordLexicon(parsing: "\u{FEFF}ill IH1 L\r\ndisposed D IH0 S P OW1 Z D\nyoung(2) Y AH1 NG\nman\n"
                                  + "dashwood D AE1 SH W UH2 D\nmr. M IH1 S T ER0\ndon't D OW1 N T\n", path: "test")
        #expect(lexicon.count == 7)
        #expect(lexicon.unknownWords(in: "Ill-disposed young man.") == [])
        #expect(lexicon.unknownWords(in: "He was not an ill-sposed young man.") == ["he", "was", "not", "an", "sposed"])
        #expect(lexicon.unknownWords(in: "Mr. Dashwood's man, 10 meters—don't!") == ["meters"])
        #expect(lexicon.unknownWords(in: "4692 … ¿man?") == [])
    }

    @Test("the word list of a language is the first installed candidate, and none is nil")
    func installedLexicon() throws {
        let directory = try Fixtures.temporaryDirectory("parley-lexicon")
        defer { try? FileManager.default.removeItem(at: directory) }
        let list = directory.appendingPathComponent("spanish").path
        try "hola\nadiós\n".write(toFile: list, atomically: true, encoding: .utf8)
        let candidates = ["es": [directory.appendingPathComponent("missing").path, list], "fr": [directory.path]]
        #expect(WordLexicon.installed(language: "es", candidates: candidates)?.path == list)
        #expect(WordLexicon.installed(language: "fr", candidates: candidates) == nil, "a directory is no word list")
        #expect(WordLexicon.installed(language: "de", candidates: candidates) == nil)
        let english = try #require(WordLexicon.installed(language: "en"), "the CMU dictionary of pocketsphinx-en-us")
        #expect(english.count > 100_000)
    }

    private static func recognizer(lexicon: WordLexicon?, alternatives: Int = 1) throws -> WhisperRecognizer {
        let installation = WhisperInstallation.discover(shipped: Fixtures.dataDirectory,
                                                        models: DataDirectories.defaultModels(),
                                                        dataHome: DataDirectories.personalData())
        var tuning = WhisperRecognizer.Tuning()
        (tuning.speculative, tuning.partialResults) = (false, false)
        tuning.maximumAlternatives = alternatives
        return WhisperRecognizer(worker: WhisperWorker(launch: try installation.launch()),
                                 detector: SphinxSpeechDetector.make, tuning: tuning, lexicon: { _ in lexicon })
    }

    private static func words(_ text: String) -> Set<String> {
        Set(WordLexicon.words(in: text))
    }

    @Test("a reading with a word the list lacks is decoded in the full window, and the reading the list knows better wins")
    func fullWindowWins() async throws {
        // The short window hears "ill-sposed" in this recording on this model; the full window
        // "ill-disposed" (if some processor's arithmetic made them agree, no second opinion is due).
        let samples = try AudioFileReader.read(Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0880.wav")).samples
        let probe = try Self.recognizer(lexicon: nil)
        let short = try await (probe.worker.transcribe(samples, language: "en", prompt: nil, beam: 1, alternatives: 0,
                                                               words: false, padding: probe.tuning.finalPadding).text)
        let full = try await probe.worker.transcribe(samples, language: "en", prompt: nil, beam: 1,
                                                     alternatives: 0, words: false, padding: .fullWindow)
        await probe.worker.shutdown()
        let fullText = full.text
        #expect(full.window == .full)
        // A list of exactly the full window's words: the short reading's other words are unknown.
        let lexicon = WordLexicon(parsing: Self.words(fullText).joined(separator: "\n"), path: "test")
        // No alternatives: the beam's other reading would be taken before any second opinion.
        let whisper = try Self.recognizer(lexicon: lexicon, alternatives: 0)
        let results = try await whisper.transcribe(PCMChunk(format: .recognition, samples: samples), locale: LocaleTag("en-US")!)
        #expect(results.map(\.text) == [fullText])
        #expect(whisper.secondOpinionCount == (Self.words(short) == Self.words(fullText) ? 0 : 1),
                "short: '\(short)', full: '\(fullText)'")
        await whisper.worker.shutdown()
    }

    @Test("a two-language decode whose language is plain, read with a word the list lacks, reads as the one-language decode does")
    func plainPairReadAsItsOwnTurn() async throws {
        let samples = try AudioFileReader.read(Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0880.wav")).samples
        let (english, spanish) = (LocaleTag("en-US")!, LocaleTag("es-ES")!)
        let list = try #require(WordLexicon.installed(language: "en"))
        // With no list: the pair's greedy English reading as the worker gives it.
        let probe = try Self.recognizer(lexicon: nil)
        let greedy = try #require(try await probe.recognizePair(samples, first: english, second: spanish).hypotheses)
        await probe.worker.shutdown()
        try #require(greedy[1].text.isEmpty, "Spanish is skipped for this recording (P(en) near 1): \(greedy)")
        // With the English list: the one-language decode (its beam's alternative the list knows),
        // and the pair. Where the greedy reading has a word the list lacks (this model on this
        // machine: "ill-sposed" for "ill-disposed"), the pair reads as the one-language decode;
        // where it has none, the pair's own reading stays.
        let whisper = try Self.recognizer(lexicon: list)
        let own = try await whisper.recognizeUtterance(samples, locale: english).text
        let checked = try #require(try await whisper.recognizePair(samples, first: english, second: spanish).hypotheses)
        await whisper.worker.shutdown()
        let greedyUnknown = list.unknownWords(in: greedy[0].text)
        let expected = greedyUnknown.isEmpty || !list.unknownWords(in: own).isEmpty ? greedy[0].text : own
        #expect(checked[0].text == expected, "greedy '\(greedy[0].text)' (unknown \(greedyUnknown)), one-language '\(own)'")
        #expect(checked[1].text.isEmpty)
    }

    @Test("a reading the list knows is not decoded again, and a second opinion no better is not taken")
    func knownWordsStay() async throws {
        let samples = try AudioFileReader.read(Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0930.wav")).samples
        let english = try #require(WordLexicon.installed(language: "en"))
        let whisper = try Self.recognizer(lexicon: english)
        let first = try await whisper.transcribe(PCMChunk(format: .recognition, samples: samples), locale: LocaleTag("en-US")!)
        #expect(whisper.secondOpinionCount == 0, "\(first.map(\.text))")
        await whisper.worker.shutdown()

        // A list without "himself": both windows hear it, so the first reading stays after asking.
        let lacking = WordLexicon(parsing: Self.words(first.map(\.text).joined(separator: " "))
            .subtracting(["himself"]).joined(separator: "\n"), path: "test")
        let asking = try Self.recognizer(lexicon: lacking)
        let second = try await asking.transcribe(PCMChunk(format: .recognition, samples: samples), locale: LocaleTag("en-US")!)
        #expect(asking.secondOpinionCount == 1)
        #expect(second.map(\.text) == first.map(\.text))
        // A word of the phrases a person expects is known, whatever the list says.
        asking.setPhrases(["Himself"])
        _ = try await asking.transcribe(PCMChunk(format: .recognition, samples: samples), locale: LocaleTag("en-US")!)
        #expect(asking.secondOpinionCount == 1, "no second opinion for a word of the phrases")
        await asking.worker.shutdown()
    }

    @Test("a commit decode with a word the list lacks is never decoded again in the full window; a final decode is")
    func commitDecodesStay() async throws {
        let samples = try AudioFileReader.read(Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0930.wav")).samples
        // A list that holds none of the recording's words, and no alternatives to take instead.
        let whisper = try Self.recognizer(lexicon: WordLexicon(parsing: "zyzzyva\n", path: "test"), alternatives: 0)
        let committed = try await whisper.decodeCommitting(samples, language: "en", options: RecognitionOptions(), context: nil)
        #expect(committed.heard && !committed.words.isEmpty, "a commit decode has word times")
        #expect(committed.window == .short)
        #expect(whisper.secondOpinionCount == 0)
        let final = try await whisper.transcribe(PCMChunk(format: .recognition, samples: samples), locale: LocaleTag("en-US")!)
        #expect(!final.isEmpty)
        #expect(whisper.secondOpinionCount == 1, "the final decode of the same audio asks the full window")
        await whisper.worker.shutdown()
    }

    @Test("an alternative of the beam whose words the list holds is taken, with its own words and times, and no second opinion")
    func alternativeTaken() async throws {
        // The beam's readings of each recording as the recognizer cuts it, with no word list, until
        // one has an alternative that lacks a word of the best reading: which recording offers one
        // depends on the processor's kernels (0880's "ill-disposed" beside "ill-sposed" on some).
        let probe = try Self.recognizer(lexicon: nil, alternatives: 4)
        var found: (samples: [Int16], best: String, wanted: String, alternatives: [String])?
        for name in ["librivox/sense_and_sensibility_01_austen_64kb-0880.wav", "librivox/sense_and_sensibility_01_austen_64kb-0870.wav",
                     "librivox/sense_and_sensibility_01_austen_64kb-0890.wav", "librivox/sense_and_sensibility_01_austen_64kb-0920.wav",
                     "librivox/sense_and_sensibility_01_austen_64kb-0930.wav", "numbers.raw", "something.raw", "goforward.raw"] {
            let samples = try AudioFileReader.read(Fixtures.recording(name)).samples
            let heard = try await probe.transcribe(PCMChunk(format: .recognition, samples: samples), locale: LocaleTag("en-US")!)
            guard heard.count == 1, let beam = heard.first,
                  let wanted = beam.alternatives.first(where: { !Self.words(beam.text).isSubset(of: Self.words($0)) }) else { continue }
            found = (samples, beam.text, wanted, beam.alternatives)
            break
        }
        await probe.worker.shutdown()
        let (samples, best, wanted, alternatives) = try #require(found, "no recording had an alternative with other words")
        let lexicon = WordLexicon(parsing: Self.words(wanted).joined(separator: "\n"), path: "test")
        // The reading taken: the first alternative in the beam's order whose words the list holds.
        let taken = try #require(alternatives.first { Self.words($0).isSubset(of: Self.words(wanted)) })

        let whisper = try Self.recognizer(lexicon: lexicon, alternatives: 4)
        let result = try #require(try await whisper.transcribe(PCMChunk(format: .recognition, samples: samples),
                                                               locale: LocaleTag("en-US")!).first)
        #expect(result.text == taken)
        #expect(whisper.alternativeChosenCount == 1)
        #expect(whisper.secondOpinionCount == 0, "no decode in the full window")
        #expect(result.alternatives.first == best, "the beam's best reading is now an alternative")
        // The words are the chosen reading's (Whisper's words: "ill", "-disposed"), aligned, in order.
        #expect(result.words.map(\.text).joined() == taken.filter { $0 != " " })
        #expect(zip(result.words, result.words.dropFirst()).allSatisfy { $0.start <= $1.start })
        #expect(result.words.allSatisfy { $0.end <= Double(samples.count) / 16_000 + 0.05 && $0.confidence > 0 })
        await whisper.worker.shutdown()
    }

    @Test("the worker makes an alternative the reading only of its last decode, and says no otherwise")
    func alternativeOfLastDecodeOnly() async throws {
        let samples = try AudioFileReader.read(Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0880.wav")).samples
        let whisper = try Self.recognizer(lexicon: nil)
        let worker = whisper.worker
        let first = try await worker.transcribe(samples, language: "en", prompt: nil, beam: 5, alternatives: 4,
                                                words: false, padding: whisper.tuning.finalPadding)
        let other = try #require(first.alternatives.first)
        let chosen = try #require(await worker.alternative(other, of: first, words: false))
        #expect(chosen.text == other && chosen.alternatives.first == first.text && chosen.words == [])
        #expect(await worker.alternative("a reading the beam never made", of: first, words: false) == nil)
        // Another request between: the first decode's encoder output is gone.
        _ = try await worker.transcribe(Array(samples.prefix(16_000)), language: "en", prompt: nil, beam: 1, alternatives: 0,
                                        words: false, padding: whisper.tuning.finalPadding)
        #expect(await worker.alternative(other, of: first, words: false) == nil)
        #expect(await worker.starts == 1, "a refusal is an answer, not a failure")
        await worker.shutdown()
    }

    @Test("a reading said twice, or ending with a copy of its words, whose second copy no audio holds is cut in the short window; a sentence a person says twice keeps both")
    func loopOverPaddingIsCut() async throws {
        let sentence = try AudioFileReader.read(Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0930.wav")).samples
        let once = SpokenWords.normalized("He might even have been made amiable himself.")
        let probe = try Self.recognizer(lexicon: nil)
        // The recording after a lead of silence, as a turn's pre-roll gives it: the short window's
        // beam then reads it twice over (the loop runs on over the zero frames after the speech)
        // in one reading or the other, with a lead or another, depending on the processor's kernels.
        var looped: [Double] = []
        for lead in [0.2, 0.3, 0.4, 0.5, 0.6] {
            let samples = [Int16](repeating: 0, count: Int(lead * 16_000)) + sentence
            let answer = try await probe.worker.transcribe(samples, language: "en", prompt: nil, beam: 2, alternatives: 1, words: true,
                                                           padding: probe.tuning.finalPadding, secondOpinion: true)
            if answer.seconds["unheard"] != nil { looped.append(lead) }
            #expect(SpokenWords.normalized(answer.text) == once, "lead \(lead) s: '\(answer.text)'")
            #expect(answer.alternatives.allSatisfy { SpokenWords.normalized($0).count < 2 * once.count },
                    "lead \(lead) s: \(answer.alternatives)")
            #expect(answer.window == .short && answer.decodes.count == 1, "lead \(lead) s: no second decode for a loop: \(answer.decodes)")
            #expect(answer.words.last.map { $0.end <= Double(samples.count) / 16_000 + 0.05 } ?? false,
                    "lead \(lead) s: the words end within the audio: \(answer.words)")
        }
        #expect(!looped.isEmpty, "no lead made the short window read the recording twice: nothing was cut")

        // A loop that begins after the reading's first word: LibriVox 0870 read "And Mr. John
        // Dashwood … for them." and then again from "Mr.", in the beam's other reading or (on the
        // canceller's audio) the first. No reading may end with a copy no audio holds.
        let longer = try AudioFileReader.read(Fixtures.recording("librivox/sense_and_sensibility_01_austen_64kb-0870.wav")).samples
        var cut: [Double] = []
        for lead in [0.1, 0.2, 0.3, 0.4, 0.5, 0.6] {
            let samples = [Int16](repeating: 0, count: Int(lead * 16_000)) + longer + [Int16](repeating: 0, count: 3_200)
            let answer = try await probe.worker.transcribe(samples, language: "en", prompt: nil, beam: 2, alternatives: 1, words: true,
                                                           padding: probe.tuning.finalPadding, secondOpinion: true)
            if answer.seconds["unheard"] != nil { cut.append(lead) }
            for reading in [answer.text] + answer.alternatives {
                let words = SpokenWords.normalized(reading)
                let repeated = (4...max(4, words.count / 2)).contains { length in
                    words.count >= 2 * length && words.suffix(length).elementsEqual(words.dropLast(length).suffix(length))
                }
                #expect(!repeated, "lead \(lead) s: '\(reading)' ends with a copy of its words")
            }
        }
        #expect(!cut.isEmpty, "no lead made the beam read 0870 twice over: nothing was cut")

        // A text said twice over by a voice (Whisper reads one recording played twice as one): both
        // copies are heard, so it is no loop. Sentences of four words or more, as the copies the cut
        // looks for are: a two-word one ("Yes, please.") is read on some CPUs with a third copy and
        // another word ("yes clean" three times), a misreading no rule here is about.
        let directory = try Fixtures.temporaryDirectory("parley-twice")
        defer { try? FileManager.default.removeItem(at: directory) }
        for text in ["Where is the train station? Where is the train station?", "I would like a cup of coffee. I would like a cup of coffee.", "Thank you very much. Thank you very much."] {
            let file = directory.appendingPathComponent("twice.wav").path
            let spoken = try ProcessRunner.run(["espeak-ng", "-v", "en-us", "-g", "20", "-w", file, text])
            try #require(spoken.status == 0, "\(spoken.stderr)")
            let answer = try await probe.worker.transcribe(try AudioFileReader.read(file).samples, language: "en", prompt: nil,
                                                           beam: 2, alternatives: 1, words: true,
                                                           padding: probe.tuning.finalPadding, secondOpinion: true)
            #expect(SpokenWords.normalized(answer.text) == SpokenWords.normalized(text), "'\(answer.text)'")
        }
        await probe.worker.shutdown()
    }
}
