"""When the worker decodes a final reading again in the full window (second_opinion.py)."""

import struct

import pytest

from parley_worker.second_opinion import (FULL_FRAMES, applies, full_window, pair_wanted, said_twice,
                                          silence_decides, transcription_wanted)


@pytest.mark.parametrize(("text", "expected"), [
    ("10 of clubs 10 of clubs", True), ("Go forward 10 meters. Go forward, 10 meters.", True),
    ("No. No.", False), ("five five", False), ("He might. He might even.", False),
    ("Go forward 10 meters.", False),
])
def test_one_text_said_twice_over(text, expected):
    assert said_twice(text) == expected


def test_transcription():
    assert transcription_wanted(True, "")
    assert transcription_wanted(False, "10 of clubs 10 of clubs")
    assert not transcription_wanted(False, "10 of clubs")


def test_silence_decides_the_pair():
    # (silent, language probability)
    assert silence_decides([(True, 0.7), (True, 0.3)])
    # The Spanish reading is silent though the model finds Spanish more probable.
    assert silence_decides([(False, 0.2), (True, 0.8)])
    # The silent reading is the less probable language's: the heard one wins on both counts.
    assert not silence_decides([(True, 0.03), (False, 0.97)])
    # A language skipped because the other was overwhelming.
    assert not silence_decides([(False, 0.9999), (True, 0.0001)])
    assert not silence_decides([(False, 0.6), (False, 0.4)])


def test_pair():
    assert pair_wanted([(False, 0.6, "uno dos uno dos"), (False, 0.4, "one two")])
    assert not pair_wanted([(True, 0.4, "uno dos uno dos"), (False, 0.6, "one two")]), \
        "a silent reading's text is not heard"


def test_only_the_short_window_of_a_short_utterance():
    assert applies("short", 28.9)
    assert not applies("short", 29.0)
    assert not applies("full", 2.0)


def test_rows_padded_with_zero_frames():
    payload = struct.pack("<6f", 1, 2, 3, 4, 5, 6)  # 2 mels of 3 frames
    padded = full_window(payload, 2, 3)
    assert len(padded) == 2 * FULL_FRAMES * 4
    values = struct.unpack(f"<{2 * FULL_FRAMES}f", padded)
    assert values[:4] == (1, 2, 3, 0)
    assert values[FULL_FRAMES:FULL_FRAMES + 4] == (4, 5, 6, 0)
    assert set(values[3:FULL_FRAMES]) | set(values[FULL_FRAMES + 3:]) == {0}
