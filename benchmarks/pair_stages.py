#!/usr/bin/env python3
"""Where the time of the hands-free two-language decode goes, for `parley-bench sides`.

Loads the worker's Decoder in this process and, for each clip, runs the
worker's `pair` request (en, es) and its one-language greedy `transcribe`
request (the clip's own language, text only), and prints one JSON line with
the stages each request reports in "seconds": pair: encode, detect (the
language step), generate (the batch of two, or one when a language was
skipped); transcribe: encode, decode. The worker takes features: they are
computed here with faster-whisper's FeatureExtractor (the numbers Parley's
WhisperFeatures computes), padded as the recognizer pads final decodes.

    pair_stages.py WORKER_SCRIPT MODEL_DIR LANGUAGE:FILE.raw…
"""
import importlib.util
import json
import os
import sys

# One BLAS thread for numpy's feature products, as the worker had when it computed features.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def features(payload, pad_seconds=3.0):
    """The worker's request fields and payload for one utterance of s16le PCM: its features
    followed by `pad_seconds` of zero frames."""
    import numpy
    from faster_whisper.feature_extractor import FeatureExtractor
    audio = numpy.frombuffer(payload, dtype="<i2").astype(numpy.float32) / 32768.0
    values = FeatureExtractor()(audio)
    frames = min(3000, values.shape[1] + int(pad_seconds * 100))
    values = numpy.pad(values, ((0, 0), (0, max(0, frames - values.shape[1]))))[:, :frames]
    fields = {"mels": values.shape[0], "frames": frames, "audio_seconds": len(audio) / 16000}
    return fields, bytearray(numpy.ascontiguousarray(values, dtype=numpy.float32).tobytes())


def main():
    spec = importlib.util.spec_from_file_location("whisper_worker", sys.argv[1])
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    worker.no_primitive_cache()
    decoder = worker.Decoder(sys.argv[2], 2)
    for argument in sys.argv[3:]:
        language, path = argument.split(":", 1)
        with open(path, "rb") as handle:
            payload = handle.read()
        fields, values = features(payload)
        # As the recognizer asks: the short window, with the full window's second opinion where it applies.
        pair = decoder.pair(worker.PairRequest(id=1, languages=["en", "es"], window="short", second_opinion=True,
                                               **fields), values)
        one = decoder.transcribe(worker.TranscribeRequest(id=2, language=language, beam=1, alternatives=0, words=False,
                                                          window="short", second_opinion=True, **fields), values)
        print(json.dumps({"path": path, "pair": pair.seconds, "one": one.seconds,
                          "skipped": any(h.skipped for h in pair.hypotheses)}), flush=True)


if __name__ == "__main__":
    main()
