#!/usr/bin/env python3
"""Where the time of the hands-free two-language decode goes, for `parley-bench sides`.

Loads the worker's Decoder in this process and, for each clip, runs the
worker's `pair` request (en, es) and its one-language greedy `transcribe`
request (the clip's own language, text only), and prints one JSON line with
the stages each request reports in "seconds": pair: encode, detect (the
language step), generate (the batch of two, or one when a language was
skipped); transcribe: encode, decode.

    pair_stages.py WORKER_SCRIPT MODEL_DIR LANGUAGE:FILE.raw…
"""
import importlib.util
import json
import sys


def main():
    spec = importlib.util.spec_from_file_location("whisper_worker", sys.argv[1])
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    worker.one_blas_thread()  # as the worker does, before numpy loads
    worker.no_primitive_cache()
    decoder = worker.Decoder(sys.argv[2], 2)
    for argument in sys.argv[3:]:
        language, path = argument.split(":", 1)
        with open(path, "rb") as handle:
            payload = handle.read()
        # Padded as the recognizer pads final decodes: 3 s of zero frames after the features.
        pair = decoder.pair({"languages": ["en", "es"], "pad_features": True}, payload)
        one = decoder.transcribe({"language": language, "beam": 1, "words": False, "pad_features": True}, payload)
        print(json.dumps({"path": path, "pair": pair["seconds"], "one": one["seconds"],
                          "skipped": any(h.get("skipped") for h in pair["hypotheses"])}), flush=True)


if __name__ == "__main__":
    main()
