#!/usr/bin/env python3
"""Parley's Whisper worker: one long-lived process that keeps a CTranslate2
Whisper model loaded and decodes utterances sent by `parley` on its pipes.

Protocol (all integers little-endian u32):
  request  = header_length, header (UTF-8 JSON), payload_length, payload
  response = length, body (UTF-8 JSON)
The first response, sent unasked, says whether the model loaded
({"ready": true, ...} or {"ready": false, "error": "..."}). Every later
response answers one request and carries its "id", so the caller can tell an
answer that is out of step.

Requests ("op"):
  transcribe  payload: the log-mel features of one utterance, float32
              little-endian, `mels` rows of `frames` values (row-major), as
              Whisper's feature extractor computes them, padded as the caller
              wants them encoded (Parley computes them: WhisperFeatures.swift).
              Header fields: mels (the model's, given in the ready message),
              frames (1 to 3000), audio_seconds (the utterance's own length,
              which bounds the tokens and times the words), language ("en"),
              prompt (text that biases decoding, optional), beam (beam size),
              alternatives (extra hypotheses), words (bool: word times and
              probabilities), window ("full" when the features fill the 30 s
              window stock transcribe encodes: reported back, and the pair
              silence rule depends on it).
  pair        payload and header as for transcribe, with languages (["en",
              "es"]) for language: one utterance decoded in two forced
              languages from ONE encoder pass. The encoder output is
              repeated into a batch of two and generate runs one greedy
              hypothesis per language token; the answer carries, per language,
              {"language", "text", "avg_logprob", "language_prob", "silent"}
              in "hypotheses", in the order asked. language_prob is the
              model's probability of that language token, renormalised over
              the two (one decoder step over the same encoder output).
              When that probability is overwhelming (PAIR_SKIP_SHARE) only
              that language is decoded; the other hypothesis is empty, silent,
              "skipped": true, with avg_logprob PAIR_SKIPPED_LOGPROB. When the
              no-speech rule calls both readings silent, a reading it only
              just called silent is kept (see pair_silent); in the full
              window, whose no-speech probability is the one the rule was
              made for, the rule alone judges.
  alternative no payload; header: of (the id of the last transcribe request,
              which returned alternatives), text (one of those alternatives),
              words. The same answer with that alternative as the reading
              and the former reading among the alternatives, its words
              aligned when asked; the encoder output is held from the
              transcribe request, so no encoder pass and no decode run. Any
              other request lets the held output go. Parley asks for it when
              the reading holds a word its language's word list lacks and an
              alternative does not.
  ping        no payload; answered with {"id": …, "ok": true}.

The ready message carries "protocol": 3 and "mels". Protocols 1 and 2 sent
16 kHz PCM; protocol 3 sends features, so that the worker needs neither numpy
nor faster-whisper: it imports CTranslate2 alone (and the Hugging Face
tokenizer when a prompt is first encoded), which keeps it about 30 MiB smaller.

Why not WhisperModel.transcribe: it pads every utterance to a 30 s window,
which costs about a second of encoder time per turn. The encoder accepts a
shorter window; a few seconds of trailing silence keep the decoder from
repeating the sentence to the length limit.

Standard output carries only frames; diagnostics go to standard error.
"""

import argparse
import array
import ctypes
import json
import math
import os
import signal
import string
import struct
import sys
import threading
import time

# Feature frames per second of audio (a hop of 160 samples at 16 kHz), and encoder
# positions per second (the encoder halves the frames).
PROTOCOL = 3
FRAMES_PER_SECOND = 100
TOKENS_PER_ENCODER_SECOND = 50
# Whisper's window: CTranslate2's encoder takes at most 3000 frames (30 s).
MAX_FRAMES = 3000
# Prompt tokens kept before the start sequence: under half the decoder's 448 positions.
MAX_PROMPT_TOKENS = 223
# Word times: the width of the median filter over the alignment heads' attention.
MEDIAN_FILTER_WIDTH = 7
# Languages written without spaces, whose words are cut at every whole character.
UNSPACED_LANGUAGES = {"zh", "ja", "th", "lo", "my", "yue"}
REPLACEMENT = "\ufffd"
# Punctuation that joins the word after it, and the word before it.
PREPENDED_PUNCTUATION = "\"'“¿([{-"
APPENDED_PUNCTUATION = "\"'.。,，!！?？:：”)]}、"
# Decoded tokens allowed per second of audio, plus a fixed margin, and at most stock's
# 224 (half the decoder's 448 positions) for a 30 s window: 7.5 a second is that same
# budget. The four LibriVox sentences read in one breath (17.8 s) take 69 tokens, 3.9 a
# second. CTranslate2 decodes at most HALF its max_length (and at most max_length less
# the prompt): `generation_length` gives the max_length that lets `limit` tokens through.
TOKENS_PER_SECOND = 7.5
TOKEN_MARGIN = 10
MAX_NEW_TOKENS = 224
DECODER_POSITIONS = 448
# The rule faster-whisper uses to call a window silent, and a second one for
# noise Whisper turns into a made-up sentence ("Hello, I'm a newbie." on
# clicks: no-speech 0.50, mean log-probability -2.2; "This is the end of this
# video." on clicks: 0.48, -1.41; speech here scores above -0.9).
NO_SPEECH_THRESHOLD = 0.6
LOGPROB_THRESHOLD = -1.0
NOISE_NO_SPEECH_THRESHOLD = 0.4
NOISE_LOGPROB_THRESHOLD = -1.2


def token_limit(seconds, prompt_length):
    """The most tokens a decode of `seconds` of audio may produce after a prompt of
    `prompt_length` tokens (which shares the decoder's positions)."""
    return min(MAX_NEW_TOKENS, int(TOKENS_PER_SECOND * seconds) + TOKEN_MARGIN,
               DECODER_POSITIONS - prompt_length + 1)


def generation_length(limit, prompt_length):
    """The max_length to give CTranslate2's Whisper generate so that it decodes up to `limit`
    tokens after a prompt of `prompt_length` tokens: it stops at min(max_length / 2,
    max_length - (prompt_length - 1)) new tokens (its whisper.cc), so a max_length of the
    prompt plus the limit let through only about half the limit."""
    return min(DECODER_POSITIONS, max(2 * limit, limit + prompt_length - 1))


def comparable(word):
    """A word as a repeat is compared: lower case, without punctuation."""
    return "".join(character for character in word.casefold() if character.isalnum())


def repeating_tail(words):
    """Where a tail that repeats earlier words to the end begins, or None: the earliest index
    `cut` such that every word from `cut` on equals the word `period` before it (the last may
    be cut short), over at least two words, and over the whole period or four words when the
    period is longer ("33-4692 33-4692 33-4692 33-" → after the first "33-4692"; "He was not
    an ill-disposed young man. He was not an" → after "man."). Words are compared by
    `comparable`."""
    keys = [comparable(word) for word in words]
    count = len(keys)
    for start in range(count):
        for period in range(1, count - start - 1):
            cut = start + period
            if count - cut < max(2, min(period, 4)):
                continue
            last = count - 1
            if all(keys[i] == keys[i - period] for i in range(cut, last)) and \
                    keys[last - period].startswith(keys[last]):
                return cut
    return None


def trim_loop(tokens, decode, reached_limit):
    """Tokens without a loop: the decoder saying the same words over and over until its
    length limit ("Seven of clubs. Seven of clubs. Seven of clubs. Seven").

    Only a decode that reached its token limit has looped: one that ended by itself keeps
    every word, since speech repeats itself ("he might have been made ... He might even have
    been made", a sentence said twice, "five five"). There, the tail that repeats itself to
    the end (see `repeating_tail`) is cut after its first occurrence; a decode at the limit
    with no such tail is kept whole. Words are compared without case and punctuation, since
    a sentence begun again after a full stop is spelled with other tokens (" He" there, "He"
    at the start)."""
    if not reached_limit or not tokens:
        return tokens
    cut = repeating_tail(decode(tokens).split())
    if cut is None:
        return tokens
    for end in range(1, len(tokens) + 1):
        if len(decode(tokens[:end]).split()) > cut:
            return tokens[:end - 1]
    return tokens


def read_exactly(stream, count):
    data = bytearray()
    while len(data) < count:
        chunk = stream.read(count - len(data))
        if not chunk:
            return None
        data.extend(chunk)
    return data


def read_request(stream):
    """One request frame: (header dict, payload bytes), or None at end of input."""
    size = read_exactly(stream, 4)
    if size is None:
        return None
    header = json.loads(read_exactly(stream, struct.unpack("<I", size)[0]).decode("utf-8"))
    payload_size = struct.unpack("<I", read_exactly(stream, 4))[0]
    payload = read_exactly(stream, payload_size) if payload_size else bytearray()
    return header, payload


def write_response(stream, body):
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    stream.write(struct.pack("<I", len(data)) + data)
    stream.flush()


# The child that hashes the model: the worker's own Python with hashlib (OpenSSL).
HASH_PROGRAM = """
import hashlib, sys
digest = hashlib.sha256()
with open(sys.argv[1], "rb") as handle:
    for block in iter(lambda: handle.read(1 << 20), b""):
        digest.update(block)
print(digest.hexdigest())
"""


def file_sha256(path):
    """The file's SHA-256, as lower-case hex, computed by a child process: the worker's own
    Python with hashlib, so OpenSSL's libcrypto (3.6 MiB of resident memory) is loaded in the
    child, which ends, and not in the worker. The child runs on the other core while the model
    loads (0.06 s for the 75 MB int8 model here). Python's own hash in this process is the
    fallback; it holds the interpreter's lock and took 0.29 s, as coreutils' sha256sum did."""
    try:
        read, write = os.pipe()
        try:
            child = os.posix_spawn(sys.executable, [sys.executable, "-I", "-c", HASH_PROGRAM, path], os.environ,
                                   file_actions=[(os.POSIX_SPAWN_DUP2, write, 1), (os.POSIX_SPAWN_CLOSE, read)])
        finally:
            os.close(write)
        with os.fdopen(read, "rb") as output:
            text = output.read().decode("utf-8", errors="replace").strip()
        _, status = os.waitpid(child, 0)
        if os.waitstatus_to_exitcode(status) == 0 and len(text) == 64:
            return text
    except OSError:
        pass
    digest = python_sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def python_sha256():
    """A SHA-256 object from Python's own implementation (`_sha2`, or `_sha256` before 3.12),
    not OpenSSL's."""
    for name in ("_sha2", "_sha256"):
        try:
            return __import__(name).sha256()
        except (ImportError, AttributeError):
            continue
    import hashlib
    return hashlib.sha256()


class Verification:
    """Hashes the model file on a thread while the runtime imports."""

    def __init__(self, path, expected):
        self.path, self.expected, self.actual, self.error = path, expected, None, None
        self.thread = threading.Thread(target=self.run, daemon=True)
        if expected:
            self.thread.start()

    def run(self):
        try:
            self.actual = file_sha256(self.path)
        except OSError as error:
            self.error = str(error)

    def problem(self):
        """None when the file is what was pinned, else one sentence."""
        if not self.expected:
            return None
        self.thread.join()
        if self.error:
            return f"cannot read {self.path}: {self.error}"
        if self.actual != self.expected:
            return (f"the model file {self.path} has SHA-256 {self.actual}, expected {self.expected}: "
                    "it is damaged or not the pinned model; reinstall it (make models)")
        return None


# Pair requests (hands-free turns). Measured on eSpeak Spanish that Whisper base
# calls silent in both languages and on noise (clicks, hum, hiss, white, pink
# and brown noise, silence): of the readings of noise with a no-speech
# probability up to 0.75, the best scored -1.74 (white noise: "I'm going to put
# the sauce on the side."); silence's "you" scored -1.33 at no-speech 0.92.
# Spanish readings the rule had dropped scored -1.15 to -1.45 at no-speech 0.45
# to 0.72. A reading is kept when both bounds hold.
PAIR_RESCUE_NO_SPEECH = 0.75
PAIR_RESCUE_LOGPROB = -1.5
# A language whose probability against the other is at least this is decoded
# alone (eSpeak and human English reached 0.9995 or more in 17 of 25 clips; the
# highest Spanish clip had P(en) 0.98, the highest noise 0.97).
PAIR_SKIP_SHARE = 0.9995
# The avg_logprob of a hypothesis that was not decoded (far below any decoded text's).
PAIR_SKIPPED_LOGPROB = -100.0


def one_language_silent(no_speech, avg_logprob):
    """Whisper's no-speech rule for one reading (as transcribe applies it)."""
    return (no_speech > NO_SPEECH_THRESHOLD and avg_logprob < LOGPROB_THRESHOLD) or \
        (no_speech > NOISE_NO_SPEECH_THRESHOLD and avg_logprob < NOISE_LOGPROB_THRESHOLD)


def pair_silent(readings):
    """Which of a pair's readings (no_speech, avg_logprob, text) are silence.

    Each reading is judged by the one-language rule; only when that calls BOTH
    silent is a reading kept that has text, a no-speech probability of at most
    PAIR_RESCUE_NO_SPEECH and a mean log-probability of at least
    PAIR_RESCUE_LOGPROB: the voice detector let the utterance through, and
    noise scores lower (see the constants)."""
    silent = [one_language_silent(no_speech, logprob) for no_speech, logprob, _ in readings]
    if not all(silent):
        return silent
    return [not (text and no_speech <= PAIR_RESCUE_NO_SPEECH and logprob >= PAIR_RESCUE_LOGPROB)
            for no_speech, logprob, text in readings]


def byte_decoder():
    """GPT-2's byte-level alphabet, which Whisper's tokens are spelled in: each of the 256
    bytes is one printable character (itself when printable, else one from U+0100 on, in
    byte order); this maps the character back to its byte."""
    printable = set(range(ord("!"), ord("~") + 1)) | set(range(0xA1, 0xAC + 1)) | set(range(0xAE, 0xFF + 1))
    characters, shifted = {}, 0
    for byte in range(256):
        if byte in printable:
            characters[chr(byte)] = byte
        else:
            characters[chr(256 + shifted)] = byte
            shifted += 1
    return characters


class VocabularyTokenizer:
    """The model's tokens, read from its vocabulary (vocabulary.txt, or vocabulary.json)
    instead of tokenizer.json.

    Loading tokenizer.json builds the BPE merge tables, about 22 MiB of resident memory
    (measured here, whisper-base), only to turn text into tokens, which a decode without a
    prompt never does. Decoding needs only each token's bytes: they are kept one after the
    other in one bytes object, with each token's offset in an array (a list of 51,865 bytes
    objects held 4.9 MiB more), and the special tokens ("<|en|>") by name. The full tokenizer is loaded the first time text
    must be encoded (a prompt: the phrases a person gave). `decode` gives what the
    tokenizer gives for text tokens (below <|endoftext|>), invalid UTF-8 included (U+FFFD).
    A model folder with no vocabulary file has its tokens read from tokenizer.json, which is
    then loaded at once."""

    SPECIAL = "<|"

    def __init__(self, model_dir):
        self.model_dir = model_dir
        self.full = None
        # Each character to the code point of its byte, so that Latin-1 then gives the bytes.
        to_bytes = {ord(character): byte for character, byte in byte_decoder().items()}
        self.ids = {}
        blob, self.offsets = bytearray(), array.array("I", [0])
        for index, token in enumerate(self.read_tokens()):
            if token.startswith(self.SPECIAL):
                self.ids[token] = index
                blob += token.encode("utf-8")
            else:
                blob += token.translate(to_bytes).encode("latin-1")
            self.offsets.append(len(blob))
        self.blob = bytes(blob)

    def read_tokens(self):
        """The tokens in id order, one at a time."""
        text_file = os.path.join(self.model_dir, "vocabulary.txt")
        if os.path.isfile(text_file):
            with open(text_file, encoding="utf-8", newline="\n") as handle:
                for line in handle:
                    yield line.rstrip("\n")
            return
        json_file = os.path.join(self.model_dir, "vocabulary.json")
        if os.path.isfile(json_file):
            with open(json_file, encoding="utf-8") as handle:
                yield from json.load(handle)
            return
        ids = self.tokenizer().get_vocab(with_added_tokens=True)
        tokens = [""] * (max(ids.values()) + 1)
        for token, index in ids.items():
            tokens[index] = token
        yield from tokens

    def token_to_id(self, token):
        if token.startswith(self.SPECIAL):
            return self.ids.get(token)
        return self.tokenizer().token_to_id(token)

    def token_bytes(self, index):
        return self.blob[self.offsets[index]:self.offsets[index + 1]]

    def id_to_token(self, index):
        token = self.token_bytes(index) if 0 <= index < len(self.offsets) - 1 else None
        return token.decode("utf-8") if token is not None and token.startswith(b"<|") else self.tokenizer().id_to_token(index)

    def decode(self, ids):
        return b"".join(self.token_bytes(index) for index in ids).decode("utf-8", errors="replace")

    def encode(self, text, add_special_tokens=True):
        return self.tokenizer().encode(text, add_special_tokens=add_special_tokens)

    def tokenizer(self):
        """The full Hugging Face tokenizer, loaded when first needed."""
        if self.full is None:
            import tokenizers
            self.full = tokenizers.Tokenizer.from_file(os.path.join(self.model_dir, "tokenizer.json"))
        return self.full


class ArrayView:
    """A buffer seen by CTranslate2 as an array (the array interface), so that no numpy is
    needed to hand it features or to copy its own outputs. The buffer must outlive the
    StorageView made from it."""

    def __init__(self, buffer, shape, typestr="<f4"):
        self.buffer = buffer
        address = ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer)) if len(buffer) else 0
        self.__array_interface__ = {"shape": tuple(shape), "typestr": typestr, "data": (address, False), "version": 3}


def repeated(storage, count):
    """A copy of a (1, …) StorageView with its one item repeated `count` times (a batch)."""
    interface = storage.__array_interface__
    shape = list(interface["shape"])
    size = int(interface["typestr"][2:])
    for extent in shape:
        size *= extent
    address = interface["data"][0]
    buffer = bytearray(size * count)
    base = ctypes.addressof((ctypes.c_char * len(buffer)).from_buffer(buffer))
    for index in range(count):
        ctypes.memmove(base + index * size, address, size)
    shape[0] *= count
    return ArrayView(buffer, shape, interface["typestr"])


class LanguageTokens:
    """The special tokens of one decoding language, and its text turned into tokens and back
    (the part of Whisper's tokenizer a decode uses)."""

    def __init__(self, vocabulary, multilingual, language):
        special = vocabulary.token_to_id
        self.vocabulary = vocabulary
        self.sot, self.eot = special("<|startoftranscript|>"), special("<|endoftext|>")
        self.sot_prev, self.no_timestamps = special("<|startofprev|>"), special("<|notimestamps|>")
        self.sot_sequence = [self.sot]
        if multilingual:
            self.sot_sequence += [special(f"<|{language}|>"), special("<|transcribe|>")]
        self.language_code = language if multilingual else "en"

    def decode(self, tokens):
        """The text of the text tokens among `tokens`."""
        return self.vocabulary.decode([token for token in tokens if token < self.eot])

    def encode(self, text):
        return self.vocabulary.encode(text, add_special_tokens=False).ids

    def prompt(self, phrases):
        """The decoder's prompt: the phrases after <|startofprev|> (at most half the model's
        448 positions), then the start sequence without timestamps."""
        prompt = []
        if phrases and phrases.strip():
            words = self.encode(" " + phrases.strip())
            prompt = [self.sot_prev] + words[:MAX_PROMPT_TOKENS]
        return prompt + self.sot_sequence + [self.no_timestamps]

    def split_on_unicode(self, tokens):
        """The tokens cut wherever the text decoded so far is whole characters (a multi-byte
        character spread over tokens stays in one piece): (pieces' text, pieces' tokens)."""
        whole = self.vocabulary.decode(tokens)
        texts, pieces, current, offset = [], [], [], 0
        for token in tokens:
            current.append(token)
            text = self.vocabulary.decode(current)
            broken = text.find(REPLACEMENT)
            if broken < 0 or (offset + broken < len(whole) and whole[offset + broken] == REPLACEMENT):
                texts.append(text)
                pieces.append(current)
                current = []
                offset += len(text)
        return texts, pieces

    def split_to_words(self, tokens):
        """The tokens grouped into words: at spaces, or at every character in the languages
        written without them."""
        texts, pieces = self.split_on_unicode(tokens)
        if self.language_code in UNSPACED_LANGUAGES:
            return texts, pieces
        words, groups = [], []
        for text, piece in zip(texts, pieces):
            if piece[0] >= self.eot or text.startswith(" ") or text.strip() in string.punctuation or not words:
                words.append(text)
                groups.append(list(piece))
            else:
                words[-1] += text
                groups[-1].extend(piece)
        return words, groups


def merge_punctuations(words, prepended, appended):
    """Opening punctuation joins the word after it, closing punctuation the word before it
    (in place; the emptied entries stay, with no text)."""
    following = len(words) - 1
    for index in range(len(words) - 2, -1, -1):
        word = words[index]
        if word["word"].startswith(" ") and word["word"].strip() in prepended:
            words[following]["word"] = word["word"] + words[following]["word"]
            words[following]["tokens"] = word["tokens"] + words[following]["tokens"]
            word["word"], word["tokens"] = "", []
        else:
            following = index
    previous = 0
    for index in range(1, len(words)):
        word = words[index]
        if not words[previous]["word"].endswith(" ") and word["word"] in appended:
            words[previous]["word"] += word["word"]
            words[previous]["tokens"] = words[previous]["tokens"] + word["tokens"]
            word["word"], word["tokens"] = "", []
        else:
            previous = index


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
            return {"ok": False, "error": "a pair request needs two different languages"}
        for language in languages:
            if language not in self.languages:
                return {"ok": False, "error": f"the model does not know the language '{language}'"}
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
        if len(groups) <= 1:
            return []
        boundaries = [0]
        for group in groups[:-1]:
            boundaries.append(boundaries[-1] + len(group))
        pairs = result.alignments
        # The time of each text token: where the alignment path first reaches it.
        times = [pairs[i][1] / TOKENS_PER_ENCODER_SECOND for i in range(len(pairs))
                 if i == 0 or pairs[i][0] != pairs[i - 1][0]]
        probabilities = result.text_token_probs
        words = []
        for position, (text, group) in enumerate(zip(texts, groups[:len(boundaries) - 1])):
            first, last = boundaries[position], boundaries[position + 1]
            span = probabilities[first:last]
            words.append({"word": text, "tokens": group, "start": times[first], "end": times[last],
                          "probability": sum(span) / len(span) if span else 0.0})
        return words

    def transcribe(self, header, payload):
        language = header.get("language", "en")
        if language not in self.languages:
            return {"ok": False, "error": f"the model does not know the language '{language}'"}
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


class RequestError(Exception):
    """A request the worker cannot serve as sent (answered with its message)."""


# oneDNN (inside CTranslate2) builds a primitive for every convolution shape it meets and
# keeps up to 1024 of them in a cache, each with its compiled kernel and scratch memory.
# Whisper's two input convolutions take the utterance's length as their shape, so nearly
# every utterance (and every partial decode) adds two entries that are never used again:
# measured here, the worker grew from 136 to 263 MiB over 100 utterances of different
# lengths, about 1.3 MiB each, and would have gone on to the cache's 1024 entries. Without
# the cache it stayed at 150-163 MiB, and a decode took as long (building a primitive
# again costs less than the run-to-run noise, even when the same length comes back).
PRIMITIVE_CACHE_CAPACITY = "0"


def import_runtime():
    """Imports CTranslate2 without asyncio. CTranslate2 imports asyncio for its asynchronous
    generation helpers, which the worker never calls, and asyncio brings ssl (with OpenSSL),
    socket, subprocess and more: 4.8 MiB of resident memory. A placeholder stands in for it
    while CTranslate2 loads and is then taken away, so a later import gets the real one."""
    import types
    placeholder = None
    if "asyncio" not in sys.modules:
        placeholder = types.ModuleType("asyncio")
        placeholder.__doc__ = "not loaded: Parley's Whisper worker never calls CTranslate2's async helpers"
        sys.modules["asyncio"] = placeholder
    try:
        import ctranslate2
    finally:
        if placeholder is not None and sys.modules.get("asyncio") is placeholder:
            del sys.modules["asyncio"]
    return ctranslate2


def no_primitive_cache():
    """Turns oneDNN's primitive cache off (set before CTranslate2 loads, so oneDNN finds it
    whenever it reads it); a value set by the person is kept."""
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", PRIMITIVE_CACHE_CAPACITY)


def release_memory():
    """Hands the decode's freed buffers back to the system while the worker waits for the next
    utterance (glibc keeps them otherwise: about 40 MB of resident memory here)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def main():
    parser = argparse.ArgumentParser(description="Parley's Whisper worker (speaks a framed protocol on stdin/stdout).")
    parser.add_argument("--model", required=True, help="a CTranslate2 Whisper model directory")
    parser.add_argument("--sha256", default="", help="the pinned SHA-256 of the model's model.bin")
    parser.add_argument("--threads", type=int, default=2)
    arguments = parser.parse_args()
    # The signal mask is inherited: started from one of Parley's threads, which
    # block nearly every signal, the worker would not end on SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    output = sys.stdout.buffer
    source = sys.stdin.buffer
    started = time.perf_counter()
    model_file = os.path.join(arguments.model, "model.bin")
    if not os.path.isfile(model_file):
        write_response(output, {"ready": False, "error": f"no model file at {model_file}"})
        return 1
    verification = Verification(model_file, arguments.sha256.lower())
    try:
        no_primitive_cache()
        import_runtime()  # while the hash is computed
    except ImportError as error:
        write_response(output, {"ready": False, "error": f"CTranslate2 is not installed: {error}"})
        return 1
    problem = verification.problem()
    if problem:
        write_response(output, {"ready": False, "error": problem})
        return 1
    try:
        decoder = Decoder(arguments.model, arguments.threads)
    except Exception as error:  # the runtime's own message is the useful one
        write_response(output, {"ready": False, "error": f"the model in {arguments.model} does not load: {error}"})
        return 1
    write_response(output, {"ready": True, "protocol": PROTOCOL, "languages": decoder.languages,
                            "multilingual": decoder.model.is_multilingual, "mels": decoder.mels,
                            "verified": bool(arguments.sha256),
                            "load_seconds": round(time.perf_counter() - started, 3), "pid": os.getpid()})
    while True:
        request = read_request(source)
        if request is None:
            return 0
        header, payload = request
        answer = {"ok": True}
        if header.get("op") != "alternative":
            decoder.held = None  # only the last decode's alternatives can be chosen
        try:
            if header.get("op") == "transcribe":
                answer = decoder.transcribe(header, payload)
            elif header.get("op") == "alternative":
                answer = decoder.alternative(header)
            elif header.get("op") == "pair":
                answer = decoder.pair(header, payload)
            elif header.get("op") != "ping":
                answer = {"ok": False, "error": f"unknown request '{header.get('op')}'"}
        except RequestError as error:
            answer = {"ok": False, "error": str(error)}
        except Exception as error:
            answer = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        answer["id"] = header.get("id")
        write_response(output, answer)
        release_memory()


if __name__ == "__main__":
    sys.exit(main())
