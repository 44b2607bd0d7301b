"""Whisper's byte-level BPE tokens without the Hugging Face tokenizer (which is loaded only
to encode a prompt): the vocabulary's bytes, and one language's special tokens."""

import array
import json
import os
import string

# Prompt tokens kept before the start sequence: under half the decoder's 448 positions.
MAX_PROMPT_TOKENS = 223
# Languages written without spaces, whose words are cut at every whole character.
UNSPACED_LANGUAGES = {"zh", "ja", "th", "lo", "my", "yue"}
REPLACEMENT = "\ufffd"


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
    objects would hold 4.9 MiB more), and the special tokens ("<|en|>") by name. The full
    tokenizer is loaded the first time text must be encoded (a prompt: the phrases a person
    gave). `decode` gives what the
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
