#!/usr/bin/env python3
"""The published float16 Whisper weights against the int8 weights Parley installs.

For each of the two model folders: the file's size, the time to hash it (the
worker checks the SHA-256 at every start), the memory of loading it with
CTranslate2 alone (a fresh process per load: resident after the imports, peak
while loading, resident after), and the worker's start (spawned with the
model and its SHA-256, timed to its ready message, its memory then). Then
both models in one process, in alternating rounds: the encoder and a greedy
decode of each recording (plus 3 s of zero frames, as the worker pads a
final), the time of a round and whether every encoder output, token and
score is the same bit for bit.

Prints one JSON object. Run with the worker's Python:

    weights.py PUBLISHED_DIR PUBLISHED_SHA INSTALLED_DIR INSTALLED_SHA WORKER_SCRIPT RECORDING…

RECORDING is 16 kHz mono s16le (.raw) or a WAV file of it.
"""
import importlib.util
import json
import os
import statistics
import struct
import subprocess
import sys
import time

RUNS = 5
ROUNDS = 6

LOAD = r"""
import json, os, sys
def status():
    fields = {}
    for line in open("/proc/self/status"):
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0]) / 1024
    return fields
import ctranslate2
imported = status()
model = ctranslate2.models.Whisper(sys.argv[1], device="cpu", compute_type="int8", intra_threads=2)
loaded = status()
print(json.dumps({"imports_mib": imported["VmRSS"], "peak_mib": loaded["VmHWM"], "resident_mib": loaded["VmRSS"]}))
"""


def environment():
    return dict(os.environ, OPENBLAS_NUM_THREADS="1")


def hash_seconds(path, script):
    """The time of the worker's own SHA-256 check (its file_sha256)."""
    spec = importlib.util.spec_from_file_location("whisper_worker", script)
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    started = time.perf_counter()
    worker.file_sha256(path)
    return time.perf_counter() - started


def load_memory(model):
    output = subprocess.run([sys.executable, "-c", LOAD, model], capture_output=True, text=True, check=True,
                            env=environment())
    return json.loads(output.stdout)


def memory_of(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                fields[name] = int(value.split()[0]) / 1024
    return fields


def worker_start(script, model, sha):
    started = time.perf_counter()
    worker = subprocess.Popen([sys.executable, script, "--model", model, "--sha256", sha],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    size = struct.unpack("<I", worker.stdout.read(4))[0]
    ready = json.loads(worker.stdout.read(size))
    seconds = time.perf_counter() - started
    memory = memory_of(worker.pid)
    worker.stdin.close()
    worker.wait(timeout=30)
    if not ready.get("ready"):
        raise SystemExit(f"the worker did not start with {model}: {ready}")
    return seconds, memory


def median(values):
    return statistics.median(values)


def describe(model, sha, script):
    path = os.path.join(model, "model.bin")
    loads = [load_memory(model) for _ in range(RUNS)]
    starts = [worker_start(script, model, sha) for _ in range(RUNS)]
    return {
        "bytes": os.path.getsize(path),
        "hash_milliseconds": 1000 * median([hash_seconds(path, script) for _ in range(RUNS)]),
        "imports_mebibytes": median([load["imports_mib"] for load in loads]),
        "load_peak_mebibytes": median([load["peak_mib"] for load in loads]),
        "loaded_mebibytes": median([load["resident_mib"] for load in loads]),
        "worker_ready_milliseconds": 1000 * median([seconds for seconds, _ in starts]),
        "worker_ready_mebibytes": median([memory["VmRSS"] for _, memory in starts]),
        "worker_ready_peak_mebibytes": median([memory["VmHWM"] for _, memory in starts]),
    }


def samples(path):
    import numpy
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:4] == b"RIFF":
        data = data[data.index(b"data") + 8:]
    return numpy.frombuffer(data, dtype="<i2").astype(numpy.float32) / 32768.0


def compute(published, installed, recordings):
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    import ctranslate2
    import numpy
    from faster_whisper.feature_extractor import FeatureExtractor
    extractor = FeatureExtractor()
    features = []
    for path in recordings:
        audio = samples(path)
        matrix = extractor(audio, padding=0)
        matrix = numpy.pad(matrix, ((0, 0), (0, 300)))  # 3 s of zero frames, as the worker pads a final
        features.append((ctranslate2.StorageView.from_array(numpy.ascontiguousarray(matrix[None])),
                         int(len(audio) / 16000 * 6) + 10))
    models = {name: ctranslate2.models.Whisper(path, device="cpu", compute_type="int8", intra_threads=2)
              for name, path in (("published", published), ("installed", installed))}
    prompt = [[50258, 50259, 50359, 50363]]  # <|startoftranscript|><|en|><|transcribe|><|notimestamps|>
    times = {name: [] for name in models}
    outputs = {name: [] for name in models}
    for round_number in range(ROUNDS):
        order = list(models) if round_number % 2 == 0 else list(models)[::-1]
        for name in order:
            started = time.perf_counter()
            results = []
            for storage, limit in features:
                encoded = models[name].encode(storage)
                result = models[name].generate(encoded, prompt, max_length=limit, return_scores=True)[0]
                results.append((numpy.array(encoded), result.sequences_ids[0], result.scores[0]))
            times[name].append(time.perf_counter() - started)
            if round_number == 0:
                outputs[name] = results
    identical = all(numpy.array_equal(a[0], b[0]) and a[1] == b[1] and a[2] == b[2]
                    for a, b in zip(outputs["published"], outputs["installed"]))
    return {"rounds": ROUNDS, "recordings": len(recordings), "identical": identical,
            "published_round_seconds": median(times["published"]), "installed_round_seconds": median(times["installed"])}


def main(arguments):
    if len(arguments) < 6:
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    published, published_sha, installed, installed_sha, script = arguments[:5]
    report = {"published": describe(published, published_sha, script),
              "installed": describe(installed, installed_sha, script),
              "compute": compute(published, installed, arguments[5:])}
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
