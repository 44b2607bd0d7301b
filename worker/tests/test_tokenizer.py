"""The byte-level vocabulary and one language's tokens, on a tiny vocabulary written here
(no model, no Hugging Face tokenizer)."""

import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from parley_worker.tokenizer import MAX_PROMPT_TOKENS, LanguageTokens, VocabularyTokenizer, byte_decoder  # noqa: E402

# GPT-2's alphabet: a space is "Ġ", "é" (C3 A9) is "Ã©", "東" (E6 9D B1) is "æĿ±".
TOKENS = ["He", "Ġmight", "Ġcaf", "Ã", "©", ".", "Ġ¿", "ĠÃ©", "æĿ±", "æĿ", "±", "Ġ", ",", "Ġnow",
          "<|endoftext|>", "<|startoftranscript|>", "<|en|>", "<|ja|>", "<|transcribe|>",
          "<|startofprev|>", "<|notimestamps|>"]
ID = {token: index for index, token in enumerate(TOKENS)}


class Vocabulary:
    """A folder holding the tiny vocabulary as vocabulary.txt or vocabulary.json."""

    def __init__(self, name):
        self.folder = tempfile.TemporaryDirectory()
        with open(os.path.join(self.folder.name, name), "w", encoding="utf-8", newline="\n") as handle:
            if name.endswith(".json"):
                json.dump(TOKENS, handle)
            else:
                handle.write("".join(token + "\n" for token in TOKENS))
        self.tokenizer = VocabularyTokenizer(self.folder.name)


class ByteDecoderTests(unittest.TestCase):
    def test_every_byte_has_one_character(self):
        characters = byte_decoder()
        self.assertEqual(sorted(characters.values()), list(range(256)))
        self.assertEqual(characters["Ġ"], 0x20)
        self.assertEqual(characters["A"], 0x41)
        self.assertEqual(characters["Ã"], 0xC3)


class VocabularyTokenizerTests(unittest.TestCase):
    def setUp(self):
        self.vocabulary = Vocabulary("vocabulary.txt")
        self.tokenizer = self.vocabulary.tokenizer

    def tearDown(self):
        self.vocabulary.folder.cleanup()

    def test_decodes_bytes_and_multibyte_characters(self):
        self.assertEqual(self.tokenizer.decode([ID["He"], ID["Ġmight"], ID["."]]), "He might.")
        self.assertEqual(self.tokenizer.decode([ID["Ġcaf"], ID["Ã"], ID["©"]]), " café")
        self.assertEqual(self.tokenizer.decode([ID["æĿ"], ID["±"]]), "東")

    def test_half_a_character_is_the_replacement_character(self):
        self.assertEqual(self.tokenizer.decode([ID["Ġcaf"], ID["Ã"]]), " caf\ufffd")

    def test_special_tokens_without_the_full_tokenizer(self):
        self.assertEqual(self.tokenizer.token_to_id("<|en|>"), ID["<|en|>"])
        self.assertIsNone(self.tokenizer.token_to_id("<|fr|>"))
        self.assertEqual(self.tokenizer.id_to_token(ID["<|ja|>"]), "<|ja|>")
        self.assertIsNone(self.tokenizer.full)

    def test_the_json_vocabulary_reads_the_same(self):
        other = Vocabulary("vocabulary.json")
        try:
            ids = list(range(ID["<|endoftext|>"]))
            self.assertEqual(other.tokenizer.decode(ids), self.tokenizer.decode(ids))
            self.assertEqual(other.tokenizer.token_to_id("<|transcribe|>"), ID["<|transcribe|>"])
        finally:
            other.folder.cleanup()


class LanguageTokensTests(unittest.TestCase):
    def setUp(self):
        self.vocabulary = Vocabulary("vocabulary.txt")
        self.english = LanguageTokens(self.vocabulary.tokenizer, True, "en")

    def tearDown(self):
        self.vocabulary.folder.cleanup()

    def test_start_sequence(self):
        self.assertEqual(self.english.sot_sequence, [ID["<|startoftranscript|>"], ID["<|en|>"], ID["<|transcribe|>"]])
        english_only = LanguageTokens(self.vocabulary.tokenizer, False, "es")
        self.assertEqual(english_only.sot_sequence, [ID["<|startoftranscript|>"]])
        self.assertEqual(english_only.language_code, "en")

    def test_a_prompt_without_phrases_encodes_nothing(self):
        self.assertEqual(self.english.prompt(None), self.english.sot_sequence + [ID["<|notimestamps|>"]])
        self.assertEqual(self.english.prompt("   "), self.english.sot_sequence + [ID["<|notimestamps|>"]])
        self.assertIsNone(self.vocabulary.tokenizer.full)

    def test_a_prompt_keeps_at_most_its_share_of_the_decoder(self):
        class Encoded:
            ids = list(range(1000))

        class Counting:
            def encode(self, text, add_special_tokens=True):
                self.text = text
                return Encoded()

        counting = Counting()
        self.english.vocabulary = counting
        prompt = self.english.prompt("  Elinor  ")
        self.assertEqual(counting.text, " Elinor")
        self.assertEqual(prompt[0], ID["<|startofprev|>"])
        self.assertEqual(prompt[1:1 + MAX_PROMPT_TOKENS], list(range(MAX_PROMPT_TOKENS)))
        self.assertEqual(prompt[1 + MAX_PROMPT_TOKENS:], self.english.sot_sequence + [ID["<|notimestamps|>"]])

    def test_decode_leaves_out_special_tokens(self):
        self.assertEqual(self.english.decode([ID["<|startoftranscript|>"], ID["He"], ID["<|endoftext|>"]]), "He")

    def test_words_at_spaces_with_punctuation_apart(self):
        tokens = [ID["He"], ID["Ġmight"], ID[","], ID["Ġcaf"], ID["Ã"], ID["©"], ID["."], ID["<|endoftext|>"]]
        words, groups = self.english.split_to_words(tokens)
        self.assertEqual(words, ["He", " might", ",", " café", ".", "<|endoftext|>"])
        self.assertEqual(groups, [[ID["He"]], [ID["Ġmight"]], [ID[","]], [ID["Ġcaf"], ID["Ã"], ID["©"]], [ID["."]],
                                  [ID["<|endoftext|>"]]])

    def test_a_character_spread_over_tokens_stays_whole(self):
        texts, pieces = self.english.split_on_unicode([ID["ĠÃ©"], ID["æĿ"], ID["±"]])
        self.assertEqual(texts, [" é", "東"])
        self.assertEqual(pieces, [[ID["ĠÃ©"]], [ID["æĿ"], ID["±"]]])

    def test_unspaced_languages_cut_at_every_character(self):
        japanese = LanguageTokens(self.vocabulary.tokenizer, True, "ja")
        words, _ = japanese.split_to_words([ID["æĿ±"], ID["æĿ"], ID["±"], ID["<|endoftext|>"]])
        self.assertEqual(words, ["東", "東", "<|endoftext|>"])
        words, _ = self.english.split_to_words([ID["æĿ±"], ID["æĿ"], ID["±"], ID["<|endoftext|>"]])
        self.assertEqual(words, ["東東", "<|endoftext|>"])


if __name__ == "__main__":
    unittest.main()
