"""The byte-level vocabulary and one language's tokens, on a tiny vocabulary written here
(no model, no Hugging Face tokenizer)."""

import json

import pytest

from parley_worker.tokenizer import MAX_PROMPT_TOKENS, LanguageTokens, VocabularyTokenizer, byte_decoder

# GPT-2's alphabet: a space is "Ġ", "é" (C3 A9) is "Ã©", "東" (E6 9D B1) is "æĿ±".
TOKENS = ["He", "Ġmight", "Ġcaf", "Ã", "©", ".", "Ġ¿", "ĠÃ©", "æĿ±", "æĿ", "±", "Ġ", ",", "Ġnow",
          "<|endoftext|>", "<|startoftranscript|>", "<|en|>", "<|ja|>", "<|transcribe|>",
          "<|startofprev|>", "<|notimestamps|>"]
ID = {token: index for index, token in enumerate(TOKENS)}


def vocabulary_in(folder, name):
    """A tokenizer of the tiny vocabulary, written in `folder` as vocabulary.txt or vocabulary.json."""
    with open(folder / name, "w", encoding="utf-8", newline="\n") as handle:
        if name.endswith(".json"):
            json.dump(TOKENS, handle)
        else:
            handle.write("".join(token + "\n" for token in TOKENS))
    return VocabularyTokenizer(str(folder))


@pytest.fixture
def tokenizer(tmp_path):
    return vocabulary_in(tmp_path, "vocabulary.txt")


@pytest.fixture
def english(tokenizer):
    return LanguageTokens(tokenizer, True, "en")


def test_every_byte_has_one_character():
    characters = byte_decoder()
    assert sorted(characters.values()) == list(range(256))
    assert characters["Ġ"] == 0x20
    assert characters["A"] == 0x41
    assert characters["Ã"] == 0xC3


def test_decodes_bytes_and_multibyte_characters(tokenizer):
    assert tokenizer.decode([ID["He"], ID["Ġmight"], ID["."]]) == "He might."
    assert tokenizer.decode([ID["Ġcaf"], ID["Ã"], ID["©"]]) == " café"
    assert tokenizer.decode([ID["æĿ"], ID["±"]]) == "東"


def test_half_a_character_is_the_replacement_character(tokenizer):
    assert tokenizer.decode([ID["Ġcaf"], ID["Ã"]]) == " caf\ufffd"


def test_special_tokens_without_the_full_tokenizer(tokenizer):
    assert tokenizer.token_to_id("<|en|>") == ID["<|en|>"]
    assert tokenizer.token_to_id("<|fr|>") is None
    assert tokenizer.id_to_token(ID["<|ja|>"]) == "<|ja|>"
    assert tokenizer.full is None


def test_the_json_vocabulary_reads_the_same(tokenizer, tmp_path_factory):
    other = vocabulary_in(tmp_path_factory.mktemp("json"), "vocabulary.json")
    ids = list(range(ID["<|endoftext|>"]))
    assert other.decode(ids) == tokenizer.decode(ids)
    assert other.token_to_id("<|transcribe|>") == ID["<|transcribe|>"]


def test_start_sequence(tokenizer, english):
    assert english.sot_sequence == [ID["<|startoftranscript|>"], ID["<|en|>"], ID["<|transcribe|>"]]
    english_only = LanguageTokens(tokenizer, False, "es")
    assert english_only.sot_sequence == [ID["<|startoftranscript|>"]]
    assert english_only.language_code == "en"


def test_a_prompt_without_phrases_encodes_nothing(tokenizer, english):
    assert english.prompt(None) == english.sot_sequence + [ID["<|notimestamps|>"]]
    assert english.prompt("   ") == english.sot_sequence + [ID["<|notimestamps|>"]]
    assert tokenizer.full is None


def test_a_prompt_keeps_at_most_its_share_of_the_decoder(english):
    class Encoded:
        ids = list(range(1000))

    class Counting:
        def encode(self, text, add_special_tokens=True):
            self.text = text
            return Encoded()

    counting = Counting()
    english.vocabulary = counting
    prompt = english.prompt("  Elinor  ")
    assert counting.text == " Elinor"
    assert prompt[0] == ID["<|startofprev|>"]
    assert prompt[1:1 + MAX_PROMPT_TOKENS] == list(range(MAX_PROMPT_TOKENS))
    assert prompt[1 + MAX_PROMPT_TOKENS:] == english.sot_sequence + [ID["<|notimestamps|>"]]


def test_decode_leaves_out_special_tokens(english):
    assert english.decode([ID["<|startoftranscript|>"], ID["He"], ID["<|endoftext|>"]]) == "He"


def test_words_at_spaces_with_punctuation_apart(english):
    tokens = [ID["He"], ID["Ġmight"], ID[","], ID["Ġcaf"], ID["Ã"], ID["©"], ID["."], ID["<|endoftext|>"]]
    words, groups = english.split_to_words(tokens)
    assert words == ["He", " might", ",", " café", ".", "<|endoftext|>"]
    assert groups == [[ID["He"]], [ID["Ġmight"]], [ID[","]], [ID["Ġcaf"], ID["Ã"], ID["©"]], [ID["."]],
                      [ID["<|endoftext|>"]]]


def test_a_character_spread_over_tokens_stays_whole(english):
    texts, pieces = english.split_on_unicode([ID["ĠÃ©"], ID["æĿ"], ID["±"]])
    assert texts == [" é", "東"]
    assert pieces == [[ID["ĠÃ©"]], [ID["æĿ"], ID["±"]]]


def test_unspaced_languages_cut_at_every_character(tokenizer, english):
    japanese = LanguageTokens(tokenizer, True, "ja")
    words, _ = japanese.split_to_words([ID["æĿ±"], ID["æĿ"], ID["±"], ID["<|endoftext|>"]])
    assert words == ["東", "東", "<|endoftext|>"]
    words, _ = english.split_to_words([ID["æĿ±"], ID["æĿ"], ID["±"], ID["<|endoftext|>"]])
    assert words == ["東東", "<|endoftext|>"]
