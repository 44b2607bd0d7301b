"""Word times from the alignment path, and punctuation joined to the word beside it."""

import pytest

from parley_worker.alignment import APPENDED_PUNCTUATION, PREPENDED_PUNCTUATION, merge_punctuations, timed_words


def merged(*texts):
    entries = [{"word": text, "tokens": [index]} for index, text in enumerate(texts)]
    merge_punctuations(entries, PREPENDED_PUNCTUATION, APPENDED_PUNCTUATION)
    return [(entry["word"], entry["tokens"]) for entry in entries]


def test_closing_punctuation_joins_the_word_before():
    assert merged(" Go", " forward", ".") == [(" Go", [0]), (" forward.", [1, 2]), ("", [])]
    assert merged(" Hola", ",", " señor", "?") == [(" Hola,", [0, 1]), ("", []), (" señor?", [2, 3]), ("", [])]


def test_opening_punctuation_joins_the_word_after():
    assert merged(" ¿", "Qué", " hora", "?") == [("", []), (" ¿Qué", [0, 1]), (" hora?", [2, 3]), ("", [])]
    assert merged(" Go", ' "', "now", '"') == [(" Go", [0]), ("", []), (' "now"', [1, 2, 3]), ("", [])]


def test_punctuation_after_a_space_stays():
    assert merged(" Go ", ".") == [(" Go ", [0]), (".", [1])]


def test_other_words_are_left_alone():
    assert merged(" one", " two", " three") == [(" one", [0]), (" two", [1]), (" three", [2])]


def test_no_words_to_merge():
    assert merged() == []


def test_times_and_probabilities():
    # Three text tokens in two words, then <|endoftext|>. The path reaches token 0 at encoder
    # position 0, token 1 at 10, token 2 at 25 and the end at 40 (50 positions a second).
    path = [(0, 0), (0, 5), (1, 10), (1, 12), (2, 25), (3, 40), (3, 45)]
    result = timed_words([" Go", " forward", "<|endoftext|>"], [[7], [8, 9], [99]], path, [0.9, 0.5, 0.7])
    assert [word["word"] for word in result] == [" Go", " forward"]
    assert [word["tokens"] for word in result] == [[7], [8, 9]]
    assert [(word["start"], word["end"]) for word in result] == [(0.0, 0.2), (0.2, 0.8)]
    assert [word["probability"] for word in result] == pytest.approx([0.9, 0.6], abs=1e-9)


def test_only_the_end_is_no_words():
    assert timed_words(["<|endoftext|>"], [[99]], [(0, 0)], []) == []
