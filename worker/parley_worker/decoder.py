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
from .silence import PAIR_SKIP_SHARE, PAIR_SKIPPED_LOGPROB, one_language_silent, pair_silent
from .tokenizer import LanguageTokens, VocabularyTokenizer

# The protocol the ready message announces (3: the caller sends log-mel features).
PROTOCOL = 3
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

    def features(self, header, payload):
        """The request's features as the encoder takes them, and the utterance's own seconds."""
        mels, frames = int(header.get("mels", 0)), int(header.get("frames", 0))
        if mels != self.mels:
            raise RequestError(f"the model takes {self.mels} mel bands, the request has {mels}")
        if frames < 1 or frames > MAX_FRAMES or len(payload) != mels * frames * 4:
            raise RequestError(f"the payload holds {len(payload)} bytes, not {mels} x {frames} float32 features "
                               f"(1 to {MAX_FRAMES} frames)")
        seconds = float(header.get("audio_seconds", frames / FRAMES_PER_SECOND))
        view = ArrayView(payload, (1, mels, frames))
        return seconds, view

    def encode(self, header, payload):
        seconds, view = self.features(header, payload)
        storage = self.ctranslate2.StorageView.from_array(view)
        return seconds, self.model.encode(storage, to_cpu=False)

    def pair(self, header, payload):
        """One utterance in two forced languages from one encoder pass (a batch of two prompts)."""
        languages = list(header.get("languages") or [])
        if len(languages) != 2 or languages[0] == languages[1]:
            raise RequestError("a pair request needs two different languages")
        for language in languages:
            if language not in self.languages:
                raise RequestError(f"the model does not know the language '{language}'")
        tokenizers = [self.tokenizer(language) for language in languages]
        timings = {}
        started = time.perf_counter()
        full = header.get("window") == "full"
        seconds, encoded = self.encode(header, payload)
        timings["encode"] = time.perf_counter() - started
        started = time.perf_counter()
        # The language tokens' probabilities after <|startoftranscript|>: one decoder step.
        detected = dict(self.model.detect_language(encoded)[0])
        shares = [detected.get(f"<|{language}|>", 0.0) for language in languages]
        total = sum(shares) or 1.0
        shares = [share / total for share in shares]
        timings["detect"] = time.perf_counter() - started
        started = time.perf_counter()
        decoded = [index for index in range(2) if shares[1 - index] < PAIR_SKIP_SHARE]
        prompt_length = max(len(tokenizers[index].prompt(header.get("prompt"))) for index in decoded)
        limit = token_limit(seconds, prompt_length)
        results = self.pair_generate(encoded, [tokenizers[index] for index in decoded], limit, header)
        timings["generate"] = time.perf_counter() - started
        readings = []
        for index, result in zip(decoded, results):
            tokens = [t for t in result.sequences_ids[0] if t < tokenizers[index].eot]
            tokens = trim_loop(tokens, tokenizers[index].decode, len(result.sequences_ids[0]) >= limit)
            readings.append((float(result.no_speech_prob), float(result.scores[0]),
                             tokenizers[index].decode(tokens).strip()))
        silent = pair_silent(readings) if len(readings) == 2 and not full else \
            [one_language_silent(no_speech, logprob) for no_speech, logprob, _ in readings]
        hypotheses = []
        for index, language in enumerate(languages):
            if index not in decoded:
                hypotheses.append({"language": language, "text": "", "silent": True, "skipped": True,
                                   "avg_logprob": PAIR_SKIPPED_LOGPROB, "confidence": 0.0,
                                   "language_prob": shares[index], "no_speech_prob": readings[0][0]})
                continue
            position = decoded.index(index)
            no_speech, avg_logprob, text = readings[position]
            hypotheses.append({"language": language, "text": "" if silent[position] else text,
                               "silent": silent[position], "skipped": False,
                               "avg_logprob": avg_logprob, "confidence": math.exp(avg_logprob),
                               "language_prob": shares[index], "no_speech_prob": no_speech})
        return {"ok": True, "hypotheses": hypotheses, "seconds": timings, "audio_seconds": seconds,
                "window": "full" if full else "short"}

    def pair_generate(self, encoded, tokenizers, limit, header):
        """One greedy hypothesis per tokenizer's forced language over the same encoder output,
        of up to `limit` tokens."""
        batch = encoded
        if len(tokenizers) > 1:
            copy = repeated(encoded, len(tokenizers))
            batch = self.ctranslate2.StorageView.from_array(copy)
        prompts = [tokenizer.prompt(header.get("prompt")) for tokenizer in tokenizers]
        return self.model.generate(
            batch, prompts, beam_size=1, num_hypotheses=1,
            max_length=generation_length(limit, max(len(prompt) for prompt in prompts)),
            return_scores=True, return_no_speech_prob=True,
            suppress_blank=True, suppress_tokens=[-1])

    def tokenizer(self, language):
        if language not in self.tokenizers:
            self.tokenizers[language] = LanguageTokens(self.vocabulary, self.model.is_multilingual, language)
        return self.tokenizers[language]

    def words(self, tokenizer, tokens, encoded, frames):
        """The words of `tokens` with their times (from the decoder's cross-attention, as
        CTranslate2 aligns them) and their mean token probability."""
        result = self.model.align(encoded, tokenizer.sot_sequence, [tokens], frames,
                                  median_filter_width=MEDIAN_FILTER_WIDTH)[0]
        texts, groups = tokenizer.split_to_words(tokens + [tokenizer.eot])
        return timed_words(texts, groups, result.alignments, result.text_token_probs)

    def transcribe(self, header, payload):
        language = header.get("language", "en")
        if language not in self.languages:
            raise RequestError(f"the model does not know the language '{language}'")
        self.held = None
        tokenizer = self.tokenizer(language)
        timings = {}
        started = time.perf_counter()
        full = header.get("window") == "full"
        seconds, encoded = self.encode(header, payload)
        timings["encode"] = time.perf_counter() - started

        prompt = tokenizer.prompt(header.get("prompt"))
        limit = token_limit(seconds, len(prompt))
        hypotheses = 1 + max(0, int(header.get("alternatives", 0)))
        beam = max(hypotheses, int(header.get("beam", 1)))
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
            sequences.append(tokens)
            texts.append(tokenizer.decode(tokens).strip())
            # CTranslate2's score is the log probability divided by the length.
            logprobs.append(float(score))
        decoded = Decoded(tokenizer, encoded, seconds, full, sequences, texts, logprobs,
                          float(result.no_speech_prob))
        answer = self.answer(decoded, 0, header.get("words"), timings)
        if answer["alternatives"]:
            self.held = (header.get("id"), decoded)
        return answer

    def alternative(self, header):
        """The last transcribe request's answer again, with one of its alternatives as the
        reading (and its words aligned when asked): the caller found the best reading wrong.
        Its encoder output is held, so this costs no encoder pass and no decode."""
        wanted = header.get("of")
        held_id, decoded = self.held or (None, None)
        if decoded is None or wanted is None or wanted != held_id:
            raise RequestError(f"decode {wanted} is not the last one with alternatives, "
                               "whose alternatives alone are held")
        text = header.get("text")
        if not isinstance(text, str) or text == decoded.texts[0] or text not in decoded.texts:
            raise RequestError(f"'{text}' is not an alternative of decode {wanted}")
        return self.answer(decoded, decoded.texts.index(text), header.get("words"), {})

    def answer(self, decoded, chosen, words_wanted, timings):
        """The answer with hypothesis `chosen` as the reading and the others as alternatives."""
        tokenizer, tokens = decoded.tokenizer, decoded.sequences[chosen]
        avg_logprob = decoded.logprobs[chosen]
        silent = one_language_silent(decoded.no_speech, avg_logprob)
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
                    words.append({"text": text, "start": round(float(word["start"]), 3),
                                  "end": round(float(word["end"]), 3),
                                  "confidence": round(float(word["probability"]), 4)})
            timings["align"] = time.perf_counter() - started
        reading = decoded.texts[chosen]
        alternatives = []
        for text in decoded.texts[:chosen] + decoded.texts[chosen + 1:]:
            if text and text != reading and text not in alternatives:
                alternatives.append(text)
        return {"ok": True, "text": "" if silent else reading, "silent": silent,
                "avg_logprob": avg_logprob, "confidence": math.exp(avg_logprob),
                "no_speech_prob": decoded.no_speech, "alternatives": [] if silent else alternatives,
                "window": "full" if decoded.full else "short",
                "words": words, "seconds": timings, "audio_seconds": decoded.seconds}


class Decoded:
    """One transcribe request's hypotheses, and the encoder output they were decoded from."""

    __slots__ = ("tokenizer", "encoded", "seconds", "full", "sequences", "texts", "logprobs", "no_speech")

    def __init__(self, tokenizer, encoded, seconds, full, sequences, texts, logprobs, no_speech):
        self.tokenizer, self.encoded, self.seconds, self.full = tokenizer, encoded, seconds, full
        self.sequences, self.texts, self.logprobs, self.no_speech = sequences, texts, logprobs, no_speech
