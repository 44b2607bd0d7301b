"""When the worker decodes a final reading again in the full window (second_opinion.py)."""

import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from parley_worker.second_opinion import (FULL_FRAMES, applies, full_window, pair_wanted,  # noqa: E402
                                          said_twice, silence_decides, transcription_wanted)


class SaidTwiceTests(unittest.TestCase):
    def test_one_text_said_twice_over(self):
        cases = [("10 of clubs 10 of clubs", True), ("Go forward 10 meters. Go forward, 10 meters.", True),
                 ("No. No.", False), ("five five", False), ("He might. He might even.", False),
                 ("Go forward 10 meters.", False)]
        for text, expected in cases:
            with self.subTest(text):
                self.assertEqual(said_twice(text), expected)


class WantedTests(unittest.TestCase):
    def test_transcription(self):
        self.assertTrue(transcription_wanted(True, ""))
        self.assertTrue(transcription_wanted(False, "10 of clubs 10 of clubs"))
        self.assertFalse(transcription_wanted(False, "10 of clubs"))

    def test_silence_decides_the_pair(self):
        # (silent, language probability)
        self.assertTrue(silence_decides([(True, 0.7), (True, 0.3)]))
        # The Spanish reading is silent though the model finds Spanish more probable.
        self.assertTrue(silence_decides([(False, 0.2), (True, 0.8)]))
        # The silent reading is the less probable language's: the heard one wins on both counts.
        self.assertFalse(silence_decides([(True, 0.03), (False, 0.97)]))
        # A language skipped because the other was overwhelming.
        self.assertFalse(silence_decides([(False, 0.9999), (True, 0.0001)]))
        self.assertFalse(silence_decides([(False, 0.6), (False, 0.4)]))

    def test_pair(self):
        self.assertTrue(pair_wanted([(False, 0.6, "uno dos uno dos"), (False, 0.4, "one two")]))
        self.assertFalse(pair_wanted([(True, 0.4, "uno dos uno dos"), (False, 0.6, "one two")]),
                         "a silent reading's text is not heard")

    def test_only_the_short_window_of_a_short_utterance(self):
        self.assertTrue(applies("short", 28.9))
        self.assertFalse(applies("short", 29.0))
        self.assertFalse(applies("full", 2.0))


class FullWindowTests(unittest.TestCase):
    def test_rows_padded_with_zero_frames(self):
        payload = struct.pack("<6f", 1, 2, 3, 4, 5, 6)  # 2 mels of 3 frames
        padded = full_window(payload, 2, 3)
        self.assertEqual(len(padded), 2 * FULL_FRAMES * 4)
        values = struct.unpack(f"<{2 * FULL_FRAMES}f", padded)
        self.assertEqual(values[:4], (1, 2, 3, 0))
        self.assertEqual(values[FULL_FRAMES:FULL_FRAMES + 4], (4, 5, 6, 0))
        self.assertEqual(set(values[3:FULL_FRAMES]) | set(values[FULL_FRAMES + 3:]), {0})


if __name__ == "__main__":
    unittest.main()
