"""When a final reading of the short window is decoded again in the full 30 s window, the
window stock transcribe encodes, and when a reading said twice over is cut instead (pure). The worker owns this rule: the verdicts it rests on —
silence, the pair's rescue, a text said twice over — are the worker's own (silence.py), and
deciding here lets the second decode run inside the same request, so a final result costs
Parley one round trip for them. Parley keeps the one rule that needs a language's word list
(a word the list lacks: WhisperRecognizer.swift)."""


# Whisper's window: CTranslate2's encoder takes at most 3000 frames (30 s).
FULL_FRAMES = 3000
# Utterances at least this long are never decoded again: the full window holds 30 s.
LONGEST_SECONDS = 29.0
# A word the alignment gives at most this many seconds is squeezed: no audio holds it.
SQUEEZED_SECONDS = 0.02
# A reading's second copy is heard in no audio when at least this share of its words is squeezed
# (and less of the first copy's is).
UNHEARD_SHARE = 0.5
# A loop may begin after the reading's first words ("And Mr. John Dashwood had then leisure …
# for them. Mr. John Dashwood had then leisure … for them."): a copy of at least this many words
# at the reading's end, after words that are not copied, is a loop's too.
LOOPED_TAIL_WORDS = 4


def normalized_words(text):
    """The words of `text` in lower case without punctuation: said_twice compares these."""
    words = ["".join(c for c in word if c.isalnum()) for word in text.lower().split()]
    return [word for word in words if word]


def said_twice(text):
    """Whether `text` is one text of two words or more said twice over, compared in lower case
    without punctuation ("10 of clubs 10 of clubs"): the short window's loop that ends by
    itself (trim_loop cuts a loop only at its token limit). Such a reading is decoded again in
    the full window, as stock hears it, rather than cut: a person may say it twice."""
    words = normalized_words(text)
    if len(words) < 4 or len(words) % 2:
        return False
    return words[:len(words) // 2] == words[len(words) // 2:]


def repeated_tail(spoken):
    """How many of `spoken` (a reading's words, or word groups, in order) its copy at the end
    has, when the reading ends with a text said twice in a row: the whole reading said twice
    over (two words or more each time), or, after words that are not copied, a copy of
    LOOPED_TAIL_WORDS or more; the longest such copy, else 0."""
    count = len(spoken)
    for length in range(count // 2, 1, -1):
        if (2 * length == count or length >= LOOPED_TAIL_WORDS) and \
                spoken[count - 2 * length:count - length] == spoken[count - length:]:
            return length
    return 0


def ends_said_twice(text):
    """Whether `text` ends with a text said twice in a row (`repeated_tail`): the reading
    `unheard_copy` looks at."""
    return repeated_tail(normalized_words(text)) > 0


def unheard_copy(words):
    """The number of tokens of a reading up to its second copy, when the reading ends with a text
    said twice in a row (`repeated_tail`) and its second copy was heard in no audio; else None.
    `words` are the reading's timed words in order, as dicts with "word", "tokens", "start" and
    "end" (punctuation may be words of its own). The short window's loop runs on over the
    padding after the speech, and the alignment squeezes its words onto the speech's last
    instants: at least UNHEARD_SHARE of the second copy's words then last SQUEEZED_SECONDS or
    less (the last word or two may take the audio's last syllables from the first copy), where a
    person who says a text twice gives each word its time. Such a reading is what comes before
    its second copy, with no second decode."""
    heard = [(index, normalized_words(word["word"])) for index, word in enumerate(words)]
    heard = [(index, spoken) for index, spoken in heard if spoken]
    length = repeated_tail([spoken for _, spoken in heard])
    if not length:
        return None
    first, second = heard[len(heard) - 2 * length:len(heard) - length], heard[len(heard) - length:]

    def squeezed(part):
        return sum(words[index]["end"] - words[index]["start"] <= SQUEEZED_SECONDS for index, _ in part) / len(part)

    if squeezed(second) < UNHEARD_SHARE or squeezed(first) >= UNHEARD_SHARE:
        return None
    return sum(len(word["tokens"]) for word in words[:second[0][0]])


def transcription_wanted(silent, text):
    """Whether a one-language reading of the short window gets the full window's opinion: it
    was called silent, or its text is said twice over."""
    return silent or said_twice(text)


def silence_decides(readings):
    """Whether a silence verdict decides a pair, given its readings as (silent, language_prob):
    both readings are silent, or the one silent reading is of the language the model finds more
    probable (a skipped language is never that)."""
    silent = [share for is_silent, share in readings if is_silent]
    if len(silent) == len(readings):
        return True
    return len(silent) == 1 and silent[0] > 0.5


def pair_wanted(readings):
    """Whether a pair's readings, as (silent, language_prob, text), get the full window's
    opinion: silence decides the pair, or a heard reading is said twice over."""
    return silence_decides([(silent, share) for silent, share, _ in readings]) or \
        any(not silent and said_twice(text) for silent, _, text in readings)


def applies(window, audio_seconds):
    """Whether a request in `window` of an utterance this long can have a second opinion."""
    return window == "short" and audio_seconds < LONGEST_SECONDS


def full_window(payload, mels, frames):
    """The features of `payload` (`mels` rows of `frames` float32 values) padded with zero
    frames to FULL_FRAMES, as stock transcribe pads its window (Parley's zero-frame padding:
    the short window's own frames are a prefix of the full window's)."""
    row = frames * 4
    padding = bytes((FULL_FRAMES - frames) * 4)
    data = bytearray()
    for mel in range(mels):
        data += payload[mel * row:(mel + 1) * row]
        data += padding
    return data


__all__ = ["said_twice", "unheard_copy", "normalized_words", "silence_decides", "transcription_wanted", "pair_wanted", "applies", "full_window",
           "FULL_FRAMES", "UNHEARD_SHARE", "SQUEEZED_SECONDS"]
