"""The token budget of a decode, and trim_loop: a loop at the limit is cut, speech that
repeats itself is kept."""

import pytest

from parley_worker.loops import (DECODER_POSITIONS, MAX_NEW_TOKENS, generation_length, repeating_tail, token_limit,
                                 trim_loop)

# A toy vocabulary: the sentence begun again after a full stop is spelled " He", another token
# than the first "He".
VOCABULARY = {1: "He", 2: " might", 3: " even", 4: " be", 5: " am", 6: "iable", 7: ".", 8: " He", 9: " No",
              10: "No", 11: " 5", 12: "5", 13: " have", 14: " been", 15: " made", 16: " still", 17: " more",
              18: " himself", 19: " Seven", 20: " of", 21: " clubs", 22: "Seven"}
TWICE = [1, 2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5, 6, 7]
PHRASE = [1, 2, 13, 14, 15, 16, 17, 7, 8, 2, 3, 13, 14, 15, 5, 6, 18, 7]


def decode(tokens):
    return "".join(VOCABULARY[token] for token in tokens)


def trimmed(tokens, reached_limit):
    return decode(trim_loop(tokens, decode, reached_limit))


def lets_through(limit, prompt):
    """The tokens CTranslate2 decodes at most: min(max_length / 2, max_length - (prompt - 1))."""
    length = generation_length(limit, prompt)
    return min(length // 2, length - (prompt - 1))


def test_a_loop_at_the_limit_is_cut_after_its_first_time():
    assert trimmed([1, 2, 3, 4, 5, 6, 7, 8, 2, 3, 4, 5], True) == "He might even be amiable."
    assert trimmed([1, 2, 3, 8, 2, 3, 8], True) == "He might even"
    assert trimmed([12, 11, 11, 11, 11, 11], True) == "5"
    assert trimmed([22, 20, 21, 7, 19, 20, 21, 7, 19, 20, 21, 7, 19], True) == "Seven of clubs."


def test_speech_that_repeats_itself_is_kept():
    assert trimmed([10, 7, 9, 7], True) == "No. No."  # one word said twice
    assert trimmed([1, 2, 3, 4, 5, 6, 7], True) == "He might even be amiable."
    assert trimmed(PHRASE, True) == decode(PHRASE)  # a phrase said again, then more


def test_a_decode_that_ended_by_itself_keeps_every_word():
    assert trimmed(TWICE, False) == decode(TWICE)
    assert trimmed(TWICE[:12], False) == decode(TWICE[:12])
    assert trimmed([12, 11, 11, 11, 11, 11], False) == "5 5 5 5 5 5"


def test_nothing_to_trim():
    assert trim_loop([], decode, True) == []


def test_repeating_tail():
    assert repeating_tail("33-4692 33-4692 33-4692 33-".split()) == 1
    assert repeating_tail("He was not an ill-disposed young man. He was not an".split()) == 7
    assert repeating_tail("five five".split()) is None  # two words: no tail of two after a period
    assert repeating_tail("the cat sat on the mat".split()) is None


def test_limit_grows_with_the_audio_up_to_stock():
    assert token_limit(0.5, 4) == 13
    assert token_limit(17.8, 4) == 143
    assert token_limit(30, 4) == MAX_NEW_TOKENS
    assert token_limit(60, 4) == MAX_NEW_TOKENS


def test_a_long_prompt_takes_the_decoders_positions():
    assert token_limit(30, 300) == DECODER_POSITIONS - 300 + 1


@pytest.mark.parametrize("seconds", [0.5, 3, 17.8, 27, 30])
@pytest.mark.parametrize("prompt", [4, 40, 227])
def test_every_limit_gets_through_ctranslate2s_halving(seconds, prompt):
    limit = token_limit(seconds, prompt)
    assert lets_through(limit, prompt) >= limit
    assert generation_length(limit, prompt) <= DECODER_POSITIONS


def test_generation_length():
    assert generation_length(20, 4) == 40   # twice the limit
    assert generation_length(20, 30) == 49  # the prompt is longer than the limit
    assert generation_length(224, 4) == DECODER_POSITIONS
