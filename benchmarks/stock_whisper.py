#!/usr/bin/env python3
"""The naive baseline of the Whisper benchmark: stock faster-whisper.

Reads 16 kHz mono s16le files named on the command line and, for each, prints
one JSON line: the text of WhisperModel.transcribe (language given, beam 1,
no timestamps, no conditioning on previous text: the settings the issue
measured), its wall time, and the speech segments Silero VAD (the model that
faster-whisper ships) finds in the same audio, for the endpointing comparison.
With --passes N the files are transcribed N times over, one model load for all
(as Parley's worker stays loaded across its passes); each line names its pass,
and the voice detector runs in the first pass only. --language names the
language to transcribe in (Whisper's code: en, es, fr…; en when not given;
auto: Whisper detects it).

    stock_whisper.py [--passes N] [--language CODE] MODEL_DIR FILE.raw…
"""
import json
import sys
import time

import numpy
from faster_whisper import WhisperModel
from faster_whisper.vad import VadOptions, get_speech_timestamps


def main():
    arguments = sys.argv[1:]
    passes, language = 1, "en"
    while arguments[:1] in (["--passes"], ["--language"]):
        if arguments[0] == "--passes":
            passes = int(arguments[1])
        else:
            language = arguments[1]
        arguments = arguments[2:]
    model = WhisperModel(arguments[0], device="cpu", compute_type="int8", cpu_threads=2)
    vad = VadOptions(min_silence_duration_ms=500)
    for number in range(passes):
        for path in arguments[1:]:
            audio = numpy.fromfile(path, dtype="<i2").astype(numpy.float32) / 32768.0
            started = time.perf_counter()
            segments, _ = model.transcribe(audio, language=None if language == "auto" else language, beam_size=1, without_timestamps=True,
                                           condition_on_previous_text=False)
            text = " ".join(segment.text.strip() for segment in segments)
            seconds = time.perf_counter() - started
            speech, vad_seconds = [], 0.0
            if number == 0:
                started = time.perf_counter()
                speech = get_speech_timestamps(audio, vad)
                vad_seconds = time.perf_counter() - started
            print(json.dumps({"path": path, "pass": number, "text": text, "seconds": seconds, "vad_seconds": vad_seconds,
                              "segments": [[s["start"] / 16000, s["end"] / 16000] for s in speech]}), flush=True)


if __name__ == "__main__":
    main()
