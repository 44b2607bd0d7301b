#!/usr/bin/env python3
"""How much Parley's Whisper reading of eSpeak NG speech moves with where it starts.

The end-to-end tests record the speaker and have Whisper read it back; the recording
starts at any sample of the detector's 10 ms frames, after some silence. For each
sentence (the first ten of every ninth line of benchmarks/everyday-en-es.tsv,
translated with `apertium -u` as the dialogue speaks them, and the sentences the
tests speak) this speaks it with `parley say --locale LOCALE --out`, converts it to
16 kHz mono with sox, and reads it with
`parley listen --recognizer whisper --locale LOCALE --file` as is and after
0.3 s of silence plus 53 and 107 samples. It prints, per locale, the word errors
against the text as is, and the most errors any shifted reading has more: the tests
allow the speaker's reading the file's errors plus that, plus one.

    python3 benchmarks/speaker_shift.py PARLEY
    python3 benchmarks/speaker_shift.py PARLEY es-419

With es-419 it reads instead the Spanish sentences the recognition tests speak with
`espeak-ng -v es-419 -s 140` (their Spanish speaker), as is and after 0.3 s of silence
plus 0, 37, 80, 123 and 159 samples, and prints each reading's word errors.
"""
import subprocess
import sys
import tempfile

sys.path.insert(0, "benchmarks")
from spoken_back import distance, normalized, translate  # noqa: E402

# locale, language, apertium pairs, source column, the sentences the tests speak (translated already)
TESTS = {
    "en-US": ["Where it is the station of train?", "I want a coffee with milk", "Greeting, would want a coffee."],
    "es-ES": ["Incluso podría haber sido hecho amable él", "Va de frente diez metros"],
    "fr-FR": ["Merci beaucoup."],
}
TARGETS = [("en-US", "en", ["spa-eng"], 1), ("es-ES", "es", ["eng-spa"], 0), ("fr-FR", "fr", ["es-fr"], 1)]
SHIFTS = [None, 53, 107]


SPANISH = ["quiero un café con leche", "el tren sale de la estación a las ocho de la mañana",
           "dónde está la estación de tren", "quisiera reservar una mesa para dos personas"]


def spanish(parley, folder):
    """The tests' Spanish speaker at six starts: each sentence's errors and word error rates."""
    worst = 0.0
    for text in SPANISH:
        wav, raw = f"{folder}/s.wav", f"{folder}/s.raw"
        subprocess.run(["espeak-ng", "-v", "es-419", "-s", "140", "-w", wav, text], check=True)
        subprocess.run(["sox", wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw], check=True)
        audio, counts = open(raw, "rb").read(), []
        for shift in [None, 0, 37, 80, 123, 159]:
            path = f"{folder}/shift.raw"
            open(path, "wb").write(audio if shift is None else bytes(2 * (4800 + shift)) + audio)
            heard = subprocess.run([parley, "listen", "--recognizer", "whisper", "--locale", "es-ES", "--file", path],
                                   capture_output=True, text=True).stdout
            counts.append(distance(normalized(text, "es"), normalized(" ".join(heard.split("\n")), "es")))
            print(f"    heard '{heard.strip()}'", flush=True)
        rate = max(counts) / len(normalized(text, "es"))
        worst = max(worst, rate)
        print(f"  '{text}': errors {counts}, worst WER {100 * rate:.0f} %", flush=True)
    print(f"es-419 at 140 words a minute: worst WER {100 * worst:.0f} %")


def main():
    parley = sys.argv[1]
    if sys.argv[2:] == ["es-419"]:
        with tempfile.TemporaryDirectory() as folder:
            spanish(parley, folder)
        return
    rows = [line.rstrip("\n").split("\t") for line in open("benchmarks/everyday-en-es.tsv", encoding="utf-8")
            if line.strip() and not line.startswith("#")][::9][:10]
    with tempfile.TemporaryDirectory() as folder:
        for locale, language, pairs, column in TARGETS:
            texts = [translate(pairs, row[column]) for row in rows] + TESTS[locale]
            base_errors, words, worst, extras = 0, 0, 0, []
            for number, text in enumerate(texts):
                wav, raw = f"{folder}/s.wav", f"{folder}/s.raw"
                subprocess.run([parley, "say", "--locale", locale, "--out", wav, text], check=True, capture_output=True)
                subprocess.run(["sox", wav, "-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer", "-t", "raw", raw],
                               check=True)
                audio = open(raw, "rb").read()
                counts = []
                for shift in SHIFTS:
                    path = f"{folder}/shift.raw"
                    open(path, "wb").write(audio if shift is None else bytes(2 * (4800 + shift)) + audio)
                    heard = subprocess.run([parley, "listen", "--recognizer", "whisper", "--locale", locale, "--file", path],
                                           capture_output=True, text=True).stdout
                    counts.append(distance(normalized(text, language), normalized(" ".join(heard.split("\n")), language)))
                base_errors += counts[0]
                words += len(normalized(text, language))
                extra = max(counts[1:]) - counts[0]
                extras.append(extra)
                worst = max(worst, extra)
                print(f"  {locale} '{text}': errors as is and shifted {counts}", flush=True)
            print(f"{locale}: {base_errors} errors in {words} words as is; shifted readings have at most {worst} more "
                  f"(per sentence: {extras})", flush=True)


if __name__ == "__main__":
    main()
