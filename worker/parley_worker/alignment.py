"""Words from aligned tokens: their times and probabilities, and punctuation joined to the
word beside it (pure)."""

# Word times: the width of the median filter over the alignment heads' attention.
MEDIAN_FILTER_WIDTH = 7
# Punctuation that joins the word after it, and the word before it.
PREPENDED_PUNCTUATION = "\"'“¿([{-"
APPENDED_PUNCTUATION = "\"'.。,，!！?？:：”)]}、"


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
