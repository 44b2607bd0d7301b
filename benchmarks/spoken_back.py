#!/usr/bin/env python3
"""How well stock Whisper hears Parley's own voices: eSpeak NG -> Whisper.

Translates every third sentence of benchmarks/everyday-en-es.tsv with
`apertium -u` into each target language (the kind of text the dialogue speaks),
speaks it with `parley say --locale LOCALE --out`, converts it to 16 kHz mono
with sox, transcribes it in that language with benchmarks/stock_whisper.py
(one model load per language) or, when MODEL_DIR is `parley`, with
`parley listen --recognizer whisper --locale LOCALE --file` (Parley's Whisper,
whose short window suits these one-second sentences), and prints, per locale, the word error rate over
all sentences and the worst sentences, normalized as the tests' SpokenWords
normalizes (lower case, accents folded, punctuation gone, numbers up to twelve
spelled out). The end-to-end tests set their threshold for the speech on the
speaker from these figures.

    whisper-env/bin/python3 benchmarks/spoken_back.py PARLEY MODEL_DIR|parley [NAME…]

NAME picks targets by name: en-US, es-ES, fr-FR (`parley say`), and
"espeak-ng -v es-419 -s 140" (the Spanish speaker of the recognition tests,
the Spanish sentences untranslated).
"""
import json
import os
import subprocess
import sys
import tempfile
import unicodedata

SPELLED = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve".split(),
    "es": "cero uno dos tres cuatro cinco seis siete ocho nueve diez once doce".split(),
    "fr": "zero un deux trois quatre cinq six sept huit neuf dix onze douze".split(),
}
# name, locale, Whisper language, apertium pairs, source column (0 english, 1 spanish), voice (None: parley say)
TARGETS = [("en-US", "en-US", "en", ["spa-eng"], 1, None), ("es-ES", "es-ES", "es", ["eng-spa"], 0, None),
           ("fr-FR", "fr-FR", "fr", ["es-fr"], 1, None),
           ("espeak-ng -v es-419 -s 140", "es-ES", "es", [], 1, ["espeak-ng", "-v", "es-419", "-s", "140", "-w"])]


def normalized(text, language):
    text = unicodedata.normalize("NFKD", text.replace("\u2019", "'").lower())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = "".join(c if c.isalnum() or c == "'" else " " for c in text)
    table = {str(n): word for n, word in enumerate(SPELLED.get(language, []))}
    if language == "en":
        table.update({"mr": "mister", "mrs": "missus"})
    return [table.get(word, word) for word in text.split()]


def distance(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a):
        previous, row[0] = row[0], i + 1
        for j, y in enumerate(b):
            previous, row[j + 1] = row[j + 1], min(row[j + 1] + 1, row[j] + 1, previous + (x != y))
    return row[len(b)]


def translate(pairs, text):
    for pair in pairs:
        text = subprocess.run(["apertium", "-u", pair], input=text, capture_output=True, text=True, check=True).stdout.strip()
    return text


def stock(model, language, files):
    """Stock faster-whisper's text of each file, one model load for all."""
    output = subprocess.run([sys.executable, "benchmarks/stock_whisper.py", "--language", language, model] + files,
                            capture_output=True, text=True, check=True).stdout
    return {json.loads(line)["path"]: json.loads(line)["text"] for line in output.splitlines()}


def listen(parley, locale, files):
    """`parley listen --recognizer whisper --locale LOCALE --file FILE`'s text of each file."""
    heard = {}
    for raw in files:
        wav = raw[:-4] + "-16k.wav"
        subprocess.run(["sox", "-t", "raw", "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", raw, wav], check=True)
        heard[raw] = subprocess.run([parley, "listen", "--recognizer", "whisper", "--locale", locale, "--file", wav],
                                    capture_output=True, text=True).stdout.strip()
    return heard


def main():
    parley, model = sys.argv[1:3]
    rows = [line.rstrip("\n").split("\t") for line in open("benchmarks/everyday-en-es.tsv", encoding="utf-8")
            if line.strip() and not line.startswith("#")][::3]
    with tempfile.TemporaryDirectory() as folder:
        only = sys.argv[3:]
        for name, locale, language, pairs, column, voice in TARGETS:
            if only and name not in only:
                continue
            texts, files = [], []
            for number, row in enumerate(rows):
                text = translate(pairs, row[column])
                wav, raw = f"{folder}/{language}{number}.wav", f"{folder}/{language}{number}.raw"
                speak = voice + [wav, text] if voice else [parley, "say", "--locale", locale, "--out", wav, text]
                subprocess.run(speak, check=True, capture_output=True)
                subprocess.run(["sox", wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw],
                               check=True)
                texts.append(text)
                files.append(raw)
            heard = listen(parley, locale, files) if model == "parley" else stock(model, language, files)
            scored = []
            for text, raw in zip(texts, files):
                reference, hypothesis = normalized(text, language), normalized(heard[raw], language)
                scored.append((distance(reference, hypothesis), len(reference), text, heard[raw]))
            errors, words = sum(s[0] for s in scored), sum(s[1] for s in scored)
            print(f"{name}: {errors} errors in {words} words ({100 * errors / words:.1f} %) over {len(scored)} sentences")
            rates = sorted(s[0] / s[1] for s in scored)
            print("  sentence WER at the median, 80th, 90th percentile and worst: "
                  + ", ".join(f"{100 * rates[int(q * (len(rates) - 1))]:.0f} %" for q in (0.5, 0.8, 0.9, 1.0)))
            for edits, count, text, heard_text in sorted(scored, key=lambda s: -s[0] / s[1])[:4]:
                print(f"  {edits}/{count} ({100 * edits / count:.0f} %): said '{text}', heard '{heard_text}'")


if __name__ == "__main__":
    main()
