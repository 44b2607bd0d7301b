"""Words from aligned tokens: their times and probabilities, and punctuation joined to the
word beside it (pure)."""

# Encoder positions per second of audio (the encoder halves the 100 feature frames a second).
TOKENS_PER_ENCODER_SECOND = 50
# Word times: the width of the median filter over the alignment heads' attention.
MEDIAN_FILTER_WIDTH = 7
# Punctuation that joins the word after it, and the word before it.
PREPENDED_PUNCTUATION = "\"'“¿([{-"
APPENDED_PUNCTUATION = "\"'.。,，!！?？:：”)]}、"


def timed_words(texts, groups, alignments, probabilities):
    """The words `texts` (each the tokens of `groups`; the last group is <|endoftext|>) with
    their times and mean token probability, as {"word", "tokens", "start", "end",
    "probability"}. `alignments` is the alignment path as (text token, encoder position)
    pairs: a token's time is where the path first reaches it, and a word ends where the next
    begins. `probabilities` holds each text token's. No words when only the end is there."""
    if len(groups) <= 1:
        return []
    boundaries = [0]
    for group in groups[:-1]:
        boundaries.append(boundaries[-1] + len(group))
    pairs = alignments
    # The time of each text token: where the alignment path first reaches it.
    times = [pairs[i][1] / TOKENS_PER_ENCODER_SECOND for i in range(len(pairs))
             if i == 0 or pairs[i][0] != pairs[i - 1][0]]
    words = []
    for position, (text, group) in enumerate(zip(texts, groups[:len(boundaries) - 1])):
        first, last = boundaries[position], boundaries[position + 1]
        span = probabilities[first:last]
        words.append({"word": text, "tokens": group, "start": times[first], "end": times[last],
                      "probability": sum(span) / len(span) if span else 0.0})
    return words


def merge_punctuations(words, prepended, appended):
    """Opening punctuation joins the word after it, closing punctuation the word before it
    (in place; the emptied entries stay, with no text)."""
    following = len(words) - 1
    for index in range(len(words) - 2, -1, -1):
        word = words[index]
        if word["word"].startswith(" ") and word["word"].strip() in prepended:
            words[following]["word"] = word["word"] + words[following]["word"]
            words[following]["tokens"] = word["tokens"] + words[following]["tokens"]
            word["word"], word["tokens"] = "", []
        else:
            following = index
    previous = 0
    for index in range(1, len(words)):
        word = words[index]
        if not words[previous]["word"].endswith(" ") and word["word"] in appended:
            words[previous]["word"] += word["word"]
            words[previous]["tokens"] = words[previous]["tokens"] + word["tokens"]
            word["word"], word["tokens"] = "", []
        else:
            previous = index
