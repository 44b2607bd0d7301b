"""When the worker decodes a final reading again in the full window (second_opinion.py)."""

import struct

import pytest

from parley_worker.second_opinion import (FULL_FRAMES, LOOPED_TAIL_WORDS, SQUEEZED_SECONDS, UNHEARD_SHARE, applies,
                                          ends_said_twice, full_window, pair_wanted, repeated_tail, said_twice,
                                          silence_decides, transcription_wanted, unheard_copy)


@pytest.mark.parametrize(("text", "expected"), [
    ("10 of clubs 10 of clubs", True), ("Go forward 10 meters. Go forward, 10 meters.", True),
    ("No. No.", False), ("five five", False), ("He might. He might even.", False),
    ("Go forward 10 meters.", False),
])
def test_one_text_said_twice_over(text, expected):
    assert said_twice(text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("10 of clubs 10 of clubs", True), ("No. No.", False),
    # A loop that begins after the reading's first word.
    ("And Mr. John Dashwood had then leisure. Mr. John Dashwood had then leisure.", True),
    ("So go forward 10 meters, go forward 10 meters.", True),
    # After words that are not copied, a short phrase said again is a person's.
    ("It is to be, to be.", False), ("He was very, very young.", False),
    ("Go forward 10 meters.", False), ("", False),
])
def test_a_reading_that_ends_with_a_text_said_twice(text, expected):
    assert ends_said_twice(text) == expected


def test_the_longest_copy_at_the_end_is_the_one():
    words = "and a b c d a b c d".split()
    assert repeated_tail(words) == LOOPED_TAIL_WORDS
    assert repeated_tail("a b a b".split()) == 2
    assert repeated_tail("x a b c a b c".split()) == 0
    assert repeated_tail("a b c d e a b c d e".split()) == 5


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


def timed(*words):
    """Timed words as the decoder aligns them: (text, start, end), one token each but for a
    word written "a+b", which counts as two."""
    return [{"word": text.replace("+", ""), "tokens": [0] * (text.count("+") + 1), "start": start, "end": end}
            for text, start, end in words]


# "He might even. He might even." as the short window loops it over the zero frames after the
# speech: the second copy's words squeezed onto the speech's last instant.
LOOPED = timed((" He", 0.0, 0.5), (" might", 0.5, 0.9), (" ev+en", 0.9, 1.4), (".", 1.4, 1.4),
               (" He", 1.4, 1.4), (" might", 1.4, 1.4), (" ev+en", 1.4, 1.4), (".", 1.4, 1.9))


def test_a_second_copy_heard_in_no_audio_is_cut_after_the_first():
    # The first copy's tokens: He, might, ev+en (two) and its full stop.
    assert unheard_copy(LOOPED) == 5


def test_a_second_copy_whose_last_word_took_the_audio_is_cut_too():
    # A partial decode: the alignment gave the first copy's last word nothing and the second's
    # the audio's last syllables; the rest of the second copy is squeezed.
    partial = timed((" He", 0.0, 0.8), (" might", 0.8, 1.0), (" even", 1.0, 1.3), (" made", 1.3, 2.4),
                    (" him's", 2.4, 2.4), (".", 2.4, 2.4),
                    (" He", 2.4, 2.4), (" might", 2.4, 2.4), (" even", 2.4, 2.4), (" made", 2.4, 2.5),
                    (" him's", 2.5, 2.9), (".", 2.9, 2.9))
    assert unheard_copy(partial) == 6


def test_a_loop_that_begins_after_the_first_word_is_cut_after_the_first_copy():
    # LibriVox 0870 as a final decode of the canceller's audio read it: "And Mr. John Dashwood …
    # for them." and then its words from "Mr." again, squeezed onto the speech's last instant.
    first = [(" And", 0.0, 0.3), (" Mr.", 0.3, 0.6), (" John", 0.6, 0.9), (" Dash+wood", 0.9, 1.5), (" had", 1.5, 1.7),
             (" then", 1.7, 2.0), (" leisure.", 2.0, 2.6)]
    looped = timed(*first, *[(word, 2.6, 2.6) for word, _, _ in first[1:]])
    # And, Mr., John, Dash+wood (two), had, then, leisure.
    assert unheard_copy(looped) == 8
    # The same words said again by a person keep their time.
    said = timed(*first, *[(word, start + 3.0, end + 3.0) for word, start, end in first[1:]])
    assert unheard_copy(said) is None


def test_a_second_copy_a_person_said_is_kept():
    said = timed((" He", 0.0, 0.5), (" might", 0.5, 0.9), (" even.", 0.9, 1.4),
                 (" He", 2.1, 2.5), (" might", 2.5, 2.8), (" even.", 2.8, 3.3))
    assert unheard_copy(said) is None
    # Quickly said again: short words, but words all the same.
    quick = timed((" Yes,", 0.0, 0.3), (" please.", 0.3, 0.8), (" Yes,", 0.8, 0.85), (" please.", 0.85, 1.2))
    assert unheard_copy(quick) is None
    # Fewer than half of the second copy squeezed: heard.
    brief = timed((" He", 0.0, 0.5), (" might", 0.5, 0.9), (" even", 0.9, 1.4), (" so.", 1.4, 1.8),
                  (" He", 1.8, 1.8), (" might", 1.8, 1.8 + SQUEEZED_SECONDS * 2), (" even", 1.9, 2.2), (" so.", 2.2, 2.6))
    assert unheard_copy(brief) is None


@pytest.mark.parametrize("words", [
    timed((" He", 0.0, 0.5), (" might", 0.5, 0.9), (" He", 0.9, 0.9), (" may", 0.9, 0.9)),  # not one text twice
    timed((" He", 0.0, 0.5), (" He", 0.5, 0.5)),  # one word twice is not a text said twice
    timed((" He", 0.0, 0.5), (" might", 0.5, 0.9), (" He", 0.9, 0.9)),  # odd
    timed((" He", 0.0, 0.0), (" might", 0.0, 0.0), (" He", 0.0, 0.0), (" might", 0.0, 0.0)),  # no time at all
    # The first copy squeezed as much as the second: the alignment tells nothing.
    timed((" He", 0.0, 0.0), (" might", 0.0, 1.0), (" He", 1.0, 1.0), (" might", 1.0, 2.0)),
    [],
])
def test_no_cut_where_there_is_no_unheard_copy(words):
    assert unheard_copy(words) is None
