"""The model, loaded once, and the requests it serves (imports CTranslate2 through
`memory.import_runtime` when a Decoder is made, never at import)."""

import json
import math
import os
import time

from .alignment import APPENDED_PUNCTUATION, MEDIAN_FILTER_WIDTH, PREPENDED_PUNCTUATION, merge_punctuations, \
    timed_words
from .arrays import ArrayView, repeated
from .framing import RequestError
from .loops import generation_length, token_limit, trim_loop
from .memory import import_runtime
from .protocol import PROTOCOL, Decode, PairAnswer, PairReading, Transcription, Word  # noqa: F401
from .second_opinion import FULL_FRAMES, applies, ends_said_twice, full_window, pair_wanted, transcription_wanted, \
    unheard_copy
from .silence import PAIR_SKIP_SHARE, PAIR_SKIPPED_LOGPROB, one_language_silent, pair_silent
from .tokenizer import LanguageTokens, VocabularyTokenizer

# Feature frames per second of audio (a hop of 160 samples at 16 kHz).
FRAMES_PER_SECOND = 100
# Whisper's window: CTranslate2's encoder takes at most 3000 frames (30 s).
MAX_FRAMES = 3000


class Decoder:
    """The model, loaded once, and the requests it serves. It takes features, never audio:
    with no numpy, no faster-whisper and no tokenizer.json to load, the worker holds about
    30 MiB less (see docs/recognition.md)."""

    def __init__(self, model_dir, threads):
        ctranslate2 = import_runtime()
        self.ctranslate2 = ctranslate2
        self.model = ctranslate2.models.Whisper(model_dir, device="cpu", compute_type="int8",
                                                intra_threads=threads, inter_threads=1)
        self.vocabulary = VocabularyTokenizer(model_dir)
        self.mels = self.model.n_mels
        # The language tokens the model was trained with (base: 99; the tokenizer knows one more).
        with open(os.path.join(model_dir, "config.json"), encoding="utf-8") as handle:
            language_ids = json.load(handle).get("lang_ids") or []
        tokens = [self.vocabulary.id_to_token(i) for i in language_ids]
        self.languages = sorted(t[2:-2] for t in tokens if t) if tokens else ["en"]
        self.tokenizers = {}
        # The last transcribe request with alternatives: (its id, its Decoded), for `alternative`.
        self.held = None

    def features(self, request, payload):
        """The request's features as the encoder takes them, and the utterance's own seconds."""
        mels, frames = request.mels, request.frames
        if mels != self.mels:
            raise RequestError(f"the model takes {self.mels} mel bands, the request has {mels}")
        if frames < 1 or frames > MAX_FRAMES or len(payload) != mels * frames * 4:
            raise RequestError(f"the payload holds {len(payload)} bytes, not {mels} x {frames} float32 features "
                               f"(1 to {MAX_FRAMES} frames)")
        return request.audio_seconds, ArrayView(payload, (1, mels, frames))

    def encode(self, request, payload, full=False):
        """The encoder output of the request's features, padded to the full window when `full`
        (the second opinion); and the utterance's own seconds."""
        seconds, view = self.features(request, payload)
        if full and request.frames < FULL_FRAMES:
            view = ArrayView(full_window(payload, request.mels, request.frames), (1, request.mels, FULL_FRAMES))
        storage = self.ctranslate2.StorageView.from_array(view)
        return seconds, self.model.encode(storage, to_cpu=False)

    def pair(self, request, payload):
        """One utterance in two forced languages from one encoder pass (a batch of two prompts);
        decoded again in the full window when `pair_wanted` says so and the request allows it.
        The full window's readings are kept when one of them is heard."""
        languages = self.known_pair(request.languages, "a pair request")
        full = request.window == "full"
        answer = self.pair_window(request, payload, languages, full)
        if not (request.second_opinion and applies(request.window, request.audio_seconds)
                and pair_wanted([(h.silent, h.language_prob, h.text) for h in answer.hypotheses])):
            return answer
        second = self.pair_window(request, payload, languages, True)
        chosen = second if any(not h.silent and h.text for h in second.hypotheses) else answer
        chosen.second_opinion = True
        chosen.decodes = answer.decodes + second.decodes
        chosen.seconds = {**{f"short_{k}": v for k, v in answer.seconds.items()}, **second.seconds}
        return chosen

    def pair_window(self, request, payload, languages, full):
        """The pair's readings in the short window of the request, or in the full window."""
        tokenizers = [self.tokenizer(language) for language in languages]
        timings = {}
        started = time.perf_counter()
        seconds, encoded = self.encode(request, payload, full)
        timings["encode"] = time.perf_counter() - started
        started = time.perf_counter()
        shares = self.language_shares(encoded, languages)
        timings["detect"] = time.perf_counter() - started
        started = time.perf_counter()
        decoded = [index for index in range(2) if shares[1 - index] < PAIR_SKIP_SHARE]
        prompt_length = max(len(tokenizers[index].prompt(request.prompt)) for index in decoded)
        limit = token_limit(seconds, prompt_length)
        results = self.pair_generate(encoded, [tokenizers[index] for index in decoded], limit, request.prompt)
        timings["generate"] = time.perf_counter() - started
        readings = []
        for index, result in zip(decoded, results):
            tokens = [t for t in result.sequences_ids[0] if t < tokenizers[index].eot]
            tokens = trim_loop(tokens, tokenizers[index].decode, len(result.sequences_ids[0]) >= limit)
            tokens = self.heard_tokens(tokenizers[index], tokens, encoded, seconds, timings)
            readings.append((float(result.no_speech_prob), float(result.scores[0]),
                             tokenizers[index].decode(tokens).strip()))
        silent = pair_silent(readings) if len(readings) == 2 and not full else \
            [one_language_silent(no_speech, logprob) for no_speech, logprob, _ in readings]
        hypotheses = []
        for index, language in enumerate(languages):
            if index not in decoded:
                hypotheses.append(PairReading(language, "", True, True, PAIR_SKIPPED_LOGPROB, 0.0, shares[index],
                                              readings[0][0]))
                continue
            position = decoded.index(index)
            no_speech, avg_logprob, text = readings[position]
            hypotheses.append(PairReading(language, "" if silent[position] else text, silent[position], False,
                                          avg_logprob, math.exp(avg_logprob), shares[index], no_speech))
        window = "full" if full else "short"
        return PairAnswer(request.id, hypotheses, window, False, [Decode(window, all(h.silent for h in hypotheses))],
                          timings, seconds)

    def language_shares(self, encoded, languages):
        """The model's probability of each of `languages` in the encoded audio, the two summing
        to 1: the language tokens' probabilities after <|startoftranscript|>, one decoder step."""
        detected = dict(self.model.detect_language(encoded)[0])
        shares = [detected.get(f"<|{language}|>", 0.0) for language in languages]
        total = sum(shares) or 1.0
        return [share / total for share in shares]

    def known_pair(self, languages, what):
        """`languages` checked as two different languages the model knows; otherwise a
        RequestError that names `what` asked for them."""
        languages = list(languages)
        if len(languages) != 2 or languages[0] == languages[1]:
            raise RequestError(f"{what} needs two different languages")
        for language in languages:
            if language not in self.languages:
                raise RequestError(f"the model does not know the language '{language}'")
        return languages

    def pair_generate(self, encoded, tokenizers, limit, prompt_text):
        """One greedy hypothesis per tokenizer's forced language over the same encoder output,
        of up to `limit` tokens."""
        batch = encoded
        if len(tokenizers) > 1:
            copy = repeated(encoded, len(tokenizers))
            batch = self.ctranslate2.StorageView.from_array(copy)
        prompts = [tokenizer.prompt(prompt_text) for tokenizer in tokenizers]
        return self.model.generate(
            batch, prompts, beam_size=1, num_hypotheses=1,
            max_length=generation_length(limit, max(len(prompt) for prompt in prompts)),
            return_scores=True, return_no_speech_prob=True,
            suppress_blank=True, suppress_tokens=[-1])

    def tokenizer(self, language):
        if language not in self.tokenizers:
            self.tokenizers[language] = LanguageTokens(self.vocabulary, self.model.is_multilingual, language)
        return self.tokenizers[language]

    def heard_tokens(self, tokenizer, tokens, encoded, seconds, timings):
        """`tokens` without a second copy heard in no audio (second_opinion.unheard_copy): a
        reading that ends with a text said twice in a row is aligned to tell a loop from a person
        saying it twice. The alignment's time is added to timings["unheard"]."""
        if not ends_said_twice(tokenizer.decode(tokens)):
            return tokens
        started = time.perf_counter()
        kept = unheard_copy(self.words(tokenizer, tokens, encoded, int(round(seconds * FRAMES_PER_SECOND))))
        timings["unheard"] = timings.get("unheard", 0.0) + time.perf_counter() - started
        return tokens if kept is None else tokens[:kept]

    def words(self, tokenizer, tokens, encoded, frames):
        """The words of `tokens` with their times (from the decoder's cross-attention, as
        CTranslate2 aligns them) and their mean token probability."""
        result = self.model.align(encoded, tokenizer.sot_sequence, [tokens], frames,
                                  median_filter_width=MEDIAN_FILTER_WIDTH)[0]
        texts, groups = tokenizer.split_to_words(tokens + [tokenizer.eot])
        return timed_words(texts, groups, result.alignments, result.text_token_probs)

    def transcribe(self, request, payload):
        """One utterance in one language; decoded again in the full window when
        `transcription_wanted` says so and the request allows it. The full window's reading is
        kept when it is heard."""
        if request.language not in self.languages:
            raise RequestError(f"the model does not know the language '{request.language}'")
        if request.shares_of is not None:
            self.known_pair(request.shares_of, "a transcribe request's 'shares_of'")
        self.held = None
        decoded = self.decode(request, payload, request.window == "full")
        decodes = [Decode(request.window, decoded.silent(0))]
        second_opinion = request.second_opinion and applies(request.window, request.audio_seconds) and \
            transcription_wanted(decoded.silent(0), decoded.texts[0])
        if second_opinion:
            other = self.decode(request, payload, True)
            other.timings = {**{f"short_{k}": v for k, v in decoded.timings.items()}, **other.timings}
            decodes.append(Decode("full", other.silent(0)))
            if not other.silent(0) and other.texts[0]:
                decoded = other
        answer = self.answer(decoded, 0, request.words)
        answer.second_opinion = second_opinion
        answer.decodes = decodes
        if answer.alternatives:
            self.held = (request.id, decoded)
        return answer

    def decode(self, request, payload, full):
        """The beam's hypotheses for a transcribe request, in its window or in the full one."""
        tokenizer = self.tokenizer(request.language)
        timings = {}
        started = time.perf_counter()
        seconds, encoded = self.encode(request, payload, full)
        timings["encode"] = time.perf_counter() - started
        shares = None
        if request.shares_of is not None:
            started = time.perf_counter()
            shares = self.language_shares(encoded, request.shares_of)
            timings["detect"] = time.perf_counter() - started

        prompt = tokenizer.prompt(request.prompt)
        limit = token_limit(seconds, len(prompt))
        hypotheses = 1 + max(0, request.alternatives)
        beam = max(hypotheses, request.beam)
        started = time.perf_counter()
        result = self.model.generate(
            encoded, [prompt], beam_size=beam, num_hypotheses=hypotheses,
            max_length=generation_length(limit, len(prompt)),
            return_scores=True, return_no_speech_prob=True,
            suppress_blank=True, suppress_tokens=[-1])[0]
        timings["decode"] = time.perf_counter() - started

        sequences, texts, logprobs = [], [], []
        for generated, score in zip(result.sequences_ids, result.scores):
            tokens = [t for t in generated if t < tokenizer.eot]
            tokens = trim_loop(tokens, tokenizer.decode, len(generated) >= limit)
            tokens = self.heard_tokens(tokenizer, tokens, encoded, seconds, timings)
            sequences.append(tokens)
            texts.append(tokenizer.decode(tokens).strip())
            # CTranslate2's score is the log probability divided by the length.
            logprobs.append(float(score))
        return Decoded(request.id, tokenizer, encoded, seconds, full, sequences, texts, logprobs,
                       float(result.no_speech_prob), timings, shares)

    def alternative(self, request):
        """The last transcribe request's answer again, with one of its alternatives as the
        reading (and its words aligned when asked): the caller found the best reading wrong.
        Its encoder output is held, so this costs no encoder pass and no decode."""
        held_id, decoded = self.held or (None, None)
        if decoded is None or request.of != held_id:
            raise RequestError(f"decode {request.of} is not the last one with alternatives, "
                               "whose alternatives alone are held")
        if request.text == decoded.texts[0] or request.text not in decoded.texts:
            raise RequestError(f"'{request.text}' is not an alternative of decode {request.of}")
        decoded.timings = {}
        answer = self.answer(decoded, decoded.texts.index(request.text), request.words)
        answer.id = request.id
        return answer

    def answer(self, decoded, chosen, words_wanted):
        """The answer with hypothesis `chosen` as the reading and the others as alternatives."""
        tokenizer, tokens = decoded.tokenizer, decoded.sequences[chosen]
        avg_logprob = decoded.logprobs[chosen]
        silent = decoded.silent(chosen)
        timings = decoded.timings
        words = []
        if words_wanted and tokens and not silent:
            started = time.perf_counter()
            frames = int(round(decoded.seconds * FRAMES_PER_SECOND))
            alignment = self.words(tokenizer, tokens, decoded.encoded, frames)
            # Punctuation joins the word beside it, as faster-whisper's transcribe does.
            merge_punctuations(alignment, PREPENDED_PUNCTUATION, APPENDED_PUNCTUATION)
            for word in alignment:
                text = word["word"].strip()
                if text:
                    words.append(Word(text, round(float(word["start"]), 3), round(float(word["end"]), 3),
                                      round(float(word["probability"]), 4)))
            timings["align"] = time.perf_counter() - started
        reading = decoded.texts[chosen]
        alternatives = []
        for text in decoded.texts[:chosen] + decoded.texts[chosen + 1:]:
            if text and text != reading and text not in alternatives:
                alternatives.append(text)
        return Transcription(decoded.request, "" if silent else reading, silent, avg_logprob, math.exp(avg_logprob),
                             decoded.no_speech, [] if silent else alternatives, words,
                             "full" if decoded.full else "short", False,
                             [Decode("full" if decoded.full else "short", silent)], timings, decoded.seconds,
                             None if decoded.shares is None else [round(share, 6) for share in decoded.shares])


class Decoded:
    """One transcribe request's hypotheses, the encoder output they were decoded from, and the
    shares of the languages the request asked about (None when it asked about none)."""

    __slots__ = ("request", "tokenizer", "encoded", "seconds", "full", "sequences", "texts", "logprobs",
                 "no_speech", "timings", "shares")

    def __init__(self, request, tokenizer, encoded, seconds, full, sequences, texts, logprobs, no_speech, timings,
                 shares=None):
        self.request, self.tokenizer, self.encoded, self.seconds, self.full = request, tokenizer, encoded, seconds, full
        self.sequences, self.texts, self.logprobs, self.no_speech = sequences, texts, logprobs, no_speech
        self.timings, self.shares = timings, shares

    def silent(self, index):
        """Whether hypothesis `index` is silence (Whisper's no-speech rule: silence.py)."""
        return one_language_silent(self.no_speech, self.logprobs[index])
