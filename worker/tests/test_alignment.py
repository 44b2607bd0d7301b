"""Word times from the alignment path, and punctuation joined to the word beside it."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from parley_worker.alignment import (APPENDED_PUNCTUATION, PREPENDED_PUNCTUATION, merge_punctuations,  # noqa: E402
                                     timed_words)


def words(*texts):
    return [{"word": text, "tokens": [index]} for index, text in enumerate(texts)]


def merged(*texts):
    entries = words(*texts)
    merge_punctuations(entries, PREPENDED_PUNCTUATION, APPENDED_PUNCTUATION)
    return [(entry["word"], entry["tokens"]) for entry in entries]


class MergePunctuationsTests(unittest.TestCase):
    def test_closing_punctuation_joins_the_word_before(self):
        self.assertEqual(merged(" Go", " forward", "."), [(" Go", [0]), (" forward.", [1, 2]), ("", [])])
        self.assertEqual(merged(" Hola", ",", " señor", "?"),
                         [(" Hola,", [0, 1]), ("", []), (" señor?", [2, 3]), ("", [])])

    def test_opening_punctuation_joins_the_word_after(self):
        self.assertEqual(merged(" ¿", "Qué", " hora", "?"),
                         [("", []), (" ¿Qué", [0, 1]), (" hora?", [2, 3]), ("", [])])
        self.assertEqual(merged(" Go", ' "', "now", '"'),
                         [(" Go", [0]), ("", []), (' "now"', [1, 2, 3]), ("", [])])

    def test_punctuation_after_a_space_stays(self):
        self.assertEqual(merged(" Go ", "."), [(" Go ", [0]), (".", [1])])

    def test_other_words_are_left_alone(self):
        self.assertEqual(merged(" one", " two", " three"), [(" one", [0]), (" two", [1]), (" three", [2])])

    def test_no_words(self):
        self.assertEqual(merged(), [])


class TimedWordsTests(unittest.TestCase):
    def test_times_and_probabilities(self):
        # Three text tokens in two words, then <|endoftext|>. The path reaches token 0 at encoder
        # position 0, token 1 at 10, token 2 at 25 and the end at 40 (50 positions a second).
        path = [(0, 0), (0, 5), (1, 10), (1, 12), (2, 25), (3, 40), (3, 45)]
        result = timed_words([" Go", " forward", "<|endoftext|>"], [[7], [8, 9], [99]], path, [0.9, 0.5, 0.7])
        self.assertEqual([word["word"] for word in result], [" Go", " forward"])
        self.assertEqual([word["tokens"] for word in result], [[7], [8, 9]])
        self.assertEqual([(word["start"], word["end"]) for word in result], [(0.0, 0.2), (0.2, 0.8)])
        self.assertAlmostEqual(result[0]["probability"], 0.9, delta=1e-9)
        self.assertAlmostEqual(result[1]["probability"], 0.6, delta=1e-9)

    def test_only_the_end_is_no_words(self):
        self.assertEqual(timed_words(["<|endoftext|>"], [[99]], [(0, 0)], []), [])


if __name__ == "__main__":
    unittest.main()
