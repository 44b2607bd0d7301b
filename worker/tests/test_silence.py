"""The no-speech rules at and around their thresholds."""

import pytest

from parley_worker.silence import (LOGPROB_THRESHOLD, NO_SPEECH_THRESHOLD, NOISE_LOGPROB_THRESHOLD,
                                   NOISE_NO_SPEECH_THRESHOLD, PAIR_RESCUE_LOGPROB, PAIR_RESCUE_NO_SPEECH,
                                   one_language_silent, pair_silent)

STEP = 0.01


def test_whispers_rule():
    assert one_language_silent(NO_SPEECH_THRESHOLD + STEP, LOGPROB_THRESHOLD - STEP)
    # Both bounds are strict: at either one the reading is kept (the noise rule then
    # needs a log-probability below -1.2, which -1.0 is not).
    assert not one_language_silent(NO_SPEECH_THRESHOLD, LOGPROB_THRESHOLD - STEP)
    assert not one_language_silent(NO_SPEECH_THRESHOLD + STEP, LOGPROB_THRESHOLD)
    assert not one_language_silent(0.99, LOGPROB_THRESHOLD + STEP)  # confident text


def test_noise_rule():
    assert one_language_silent(NOISE_NO_SPEECH_THRESHOLD + STEP, NOISE_LOGPROB_THRESHOLD - STEP)
    assert not one_language_silent(NOISE_NO_SPEECH_THRESHOLD, NOISE_LOGPROB_THRESHOLD - STEP)
    assert not one_language_silent(NOISE_NO_SPEECH_THRESHOLD + STEP, NOISE_LOGPROB_THRESHOLD)
    assert one_language_silent(0.50, -2.2)   # clicks: "Hello, I'm a newbie."
    assert one_language_silent(0.48, -1.41)  # clicks: "This is the end of this video."
    assert not one_language_silent(0.2, -0.5)   # speech


def test_no_speech_below_both_rules_is_never_silent():
    assert not one_language_silent(NOISE_NO_SPEECH_THRESHOLD - STEP, -10.0)


@pytest.mark.parametrize(("readings", "expected"), [
    ([(0.66, -1.04, "Like when"), (0.66, -1.2, "la cuenta")], [False, False]),
    ([(0.65, -1.6, "Mannyara"), (0.65, -1.26, "la catenral")], [True, False]),
    ([(0.69, -1.74, "I'm going to put the sauce on the side."), (0.69, -4.5, "y")], [True, True]),
    ([(0.92, -1.33, "you"), (0.92, -5.2, "y")], [True, True]),
    ([(0.45, -6.2, "The"), (0.45, -1.45, "")], [True, True]),
    ([(0.2, -0.5, "Necesito un médico."), (0.2, -1.4, "I need")], [False, False]),
    ([(0.7, -0.9, "heard"), (0.7, -1.3, "rule says silent")], [False, True]),
])
def test_measured_pair_readings(readings, expected):
    assert pair_silent(readings) == expected


def test_pair_rescue_bounds_are_inclusive():
    silent_elsewhere = (0.9, -3.0, "noise")
    assert pair_silent([(PAIR_RESCUE_NO_SPEECH, PAIR_RESCUE_LOGPROB, "hola"), silent_elsewhere]) == [False, True]
    assert pair_silent([(PAIR_RESCUE_NO_SPEECH + STEP, PAIR_RESCUE_LOGPROB, "hola"), silent_elsewhere]) == [True, True]
    assert pair_silent([(PAIR_RESCUE_NO_SPEECH, PAIR_RESCUE_LOGPROB - STEP, "hola"), silent_elsewhere]) == [True, True]
