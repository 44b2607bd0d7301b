"""The token budget of a decode, and the loop a decoder falls into at its limit (pure: no
model, no runtime)."""

# Decoded tokens allowed per second of audio, plus a fixed margin, and at most stock's
# 224 (half the decoder's 448 positions) for a 30 s window: 7.5 a second is that same
# budget. The four LibriVox sentences read in one breath (17.8 s) take 69 tokens, 3.9 a
# second. CTranslate2 decodes at most HALF its max_length (and at most max_length less
# the prompt): `generation_length` gives the max_length that lets `limit` tokens through.
TOKENS_PER_SECOND = 7.5
TOKEN_MARGIN = 10
MAX_NEW_TOKENS = 224
DECODER_POSITIONS = 448


def token_limit(seconds, prompt_length):
    """The most tokens a decode of `seconds` of audio may produce after a prompt of
    `prompt_length` tokens (which shares the decoder's positions)."""
    return min(MAX_NEW_TOKENS, int(TOKENS_PER_SECOND * seconds) + TOKEN_MARGIN,
               DECODER_POSITIONS - prompt_length + 1)


def generation_length(limit, prompt_length):
    """The max_length to give CTranslate2's Whisper generate so that it decodes up to `limit`
    tokens after a prompt of `prompt_length` tokens: it stops at min(max_length / 2,
    max_length - (prompt_length - 1)) new tokens (its whisper.cc), so a max_length of the
    prompt plus the limit let through only about half the limit."""
    return min(DECODER_POSITIONS, max(2 * limit, limit + prompt_length - 1))


def comparable(word):
    """A word as a repeat is compared: lower case, without punctuation."""
    return "".join(character for character in word.casefold() if character.isalnum())


def repeating_tail(words):
    """Where a tail that repeats earlier words to the end begins, or None: the earliest index
    `cut` such that every word from `cut` on equals the word `period` before it (the last may
    be cut short), over at least two words, and over the whole period or four words when the
    period is longer ("33-4692 33-4692 33-4692 33-" → after the first "33-4692"; "He was not
    an ill-disposed young man. He was not an" → after "man."). Words are compared by
    `comparable`."""
    keys = [comparable(word) for word in words]
    count = len(keys)
    for start in range(count):
        for period in range(1, count - start - 1):
            cut = start + period
            if count - cut < max(2, min(period, 4)):
                continue
            last = count - 1
            if all(keys[i] == keys[i - period] for i in range(cut, last)) and \
                    keys[last - period].startswith(keys[last]):
                return cut
    return None


def trim_loop(tokens, decode, reached_limit):
    """Tokens without a loop: the decoder saying the same words over and over until its
    length limit ("Seven of clubs. Seven of clubs. Seven of clubs. Seven").

    Only a decode that reached its token limit has looped: one that ended by itself keeps
    every word, since speech repeats itself ("he might have been made ... He might even have
    been made", a sentence said twice, "five five"). There, the tail that repeats itself to
    the end (see `repeating_tail`) is cut after its first occurrence; a decode at the limit
    with no such tail is kept whole. Words are compared without case and punctuation, since
    a sentence begun again after a full stop is spelled with other tokens (" He" there, "He"
    at the start)."""
    if not reached_limit or not tokens:
        return tokens
    cut = repeating_tail(decode(tokens).split())
    if cut is None:
        return tokens
    for end in range(1, len(tokens) + 1):
        if len(decode(tokens[:end]).split()) > cut:
            return tokens[:end - 1]
    return tokens
