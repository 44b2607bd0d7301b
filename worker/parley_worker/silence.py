"""When a reading is silence: Whisper's no-speech rule for one language, and the pair's rule
that keeps a reading the one-language rule only just called silent (pure)."""

# The rule faster-whisper uses to call a window silent, and a second one for
# noise Whisper turns into a made-up sentence ("Hello, I'm a newbie." on
# clicks: no-speech 0.50, mean log-probability -2.2; "This is the end of this
# video." on clicks: 0.48, -1.41; speech here scores above -0.9).
NO_SPEECH_THRESHOLD = 0.6
LOGPROB_THRESHOLD = -1.0
NOISE_NO_SPEECH_THRESHOLD = 0.4
NOISE_LOGPROB_THRESHOLD = -1.2


# Pair requests (hands-free turns). Measured on eSpeak Spanish that Whisper base
# calls silent in both languages and on noise (clicks, hum, hiss, white, pink
# and brown noise, silence): of the readings of noise with a no-speech
# probability up to 0.75, the best scores -1.74 (white noise: "I'm going to put
# the sauce on the side."); silence's "you" scores -1.33 at no-speech 0.92.
# Spanish readings the one-language rule calls silent score -1.15 to -1.45 at
# no-speech 0.45 to 0.72. A reading is kept when both bounds hold.
PAIR_RESCUE_NO_SPEECH = 0.75
PAIR_RESCUE_LOGPROB = -1.5
# A language whose probability against the other is at least this is decoded
# alone (eSpeak and human English reach 0.9995 or more in 17 of 25 clips; the
# highest Spanish clip has P(en) 0.98, the highest noise 0.97).
PAIR_SKIP_SHARE = 0.9995
# The avg_logprob of a hypothesis that was not decoded (far below any decoded text's).
PAIR_SKIPPED_LOGPROB = -100.0


def one_language_silent(no_speech, avg_logprob):
    """Whisper's no-speech rule for one reading (as transcribe applies it)."""
    return (no_speech > NO_SPEECH_THRESHOLD and avg_logprob < LOGPROB_THRESHOLD) or \
        (no_speech > NOISE_NO_SPEECH_THRESHOLD and avg_logprob < NOISE_LOGPROB_THRESHOLD)


def pair_silent(readings):
    """Which of a pair's readings (no_speech, avg_logprob, text) are silence.

    Each reading is judged by the one-language rule; only when that calls BOTH
    silent is a reading kept that has text, a no-speech probability of at most
    PAIR_RESCUE_NO_SPEECH and a mean log-probability of at least
    PAIR_RESCUE_LOGPROB: the voice detector let the utterance through, and
    noise scores lower (see the constants)."""
    silent = [one_language_silent(no_speech, logprob) for no_speech, logprob, _ in readings]
    if not all(silent):
        return silent
    return [not (text and no_speech <= PAIR_RESCUE_NO_SPEECH and logprob >= PAIR_RESCUE_LOGPROB)
            for no_speech, logprob, text in readings]
