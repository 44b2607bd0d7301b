#!/usr/bin/env python3
"""Stores a CTranslate2 Whisper model's weights in the form the worker computes in.

The worker runs Whisper with int8 weights (compute type "int8"). A model
published with float16 weights is quantized by CTranslate2 each time it loads:
the whole float16 file is read, converted and then freed, which more than
doubles the worker's peak memory while it starts (294 MiB against 120 MiB for
whisper-base, measured with ctranslate2 4.8.5). Quantizing once, at install
time, the same way the runtime does, gives a file half the size that loads
without that peak and computes exactly the same numbers.

How the runtime quantizes, and so how this does: every linear and embedding
weight (a variable whose name ends in "/weight", outside the convolutions) is
scaled row by row so that the row's largest magnitude becomes 127, rounded to
the nearest integer (ties to even) and stored as int8, with the row scales as
float32 in "<name>_scale". Convolution weights stay as they are: the CPU runtime
computes convolutions in float. Everything else (biases, layer norms, position
encodings, scalars, aliases) is copied unchanged.

`compare` checks the claim on the installed runtime: both models encode the same
deterministic test signal and decode it greedily, and the encoder outputs, the
tokens and the scores must be equal bit for bit.

    int8_weights.py convert SOURCE_DIR TARGET_DIR   # writes TARGET_DIR/model.bin and copies the other files;
                                                    # exit 3, writing nothing, when no weight is float
    int8_weights.py compare MODEL_DIR OTHER_DIR     # exit 0 when both compute the same, 1 when they
                                                    # do not, 4 when the check cannot run

The model.bin layout (CTranslate2's binary version 6): u32 version, string
spec name, u32 revision, u32 variable count; per variable: string name, u8
rank, u32 dims, u8 type (0 float32, 1 int8, 2 int16, 3 int32, 4 float16,
5 bfloat16), u32 byte count, the bytes; then u32 alias count and pairs of
strings (alias, target). Strings are a u16 length that counts a final NUL.
All little-endian.
"""
import os
import shutil
import struct
import sys

import numpy

TYPES = {0: numpy.dtype("<f4"), 1: numpy.dtype("i1"), 2: numpy.dtype("<i2"), 3: numpy.dtype("<i4"),
         4: numpy.dtype("<f2")}
FLOAT_TYPES = (0, 4)


class ModelFileError(Exception):
    pass


class NothingToConvert(Exception):
    pass


class Reader:
    """Reads model.bin's fields from an open file."""

    def __init__(self, handle):
        self.handle = handle

    def take(self, count):
        chunk = self.handle.read(count)
        if len(chunk) != count:
            raise ModelFileError("model.bin ends in the middle of its contents")
        return chunk

    def number(self, code):
        return struct.unpack("<" + code, self.take(struct.calcsize(code)))[0]

    def string(self):
        return self.take(self.number("H")).rstrip(b"\0").decode("utf-8")


def read_model(path, weights=True):
    """Returns (version, spec, revision, [(name, dims, type, bytes)], [(alias, target)]); without
    `weights`, only the headers are read and each variable's bytes are None."""
    with open(path, "rb") as handle:
        reader = Reader(handle)
        version = reader.number("I")
        if version != 6:
            raise ModelFileError(f"model.bin has binary version {version}; only version 6 is understood")
        spec, revision = reader.string(), reader.number("I")
        variables = []
        for _ in range(reader.number("I")):
            name = reader.string()
            dims = [reader.number("I") for _ in range(reader.number("B"))]
            kind, size = reader.number("B"), reader.number("I")
            if not weights:
                handle.seek(size, os.SEEK_CUR)
                variables.append((name, dims, kind, None))
                continue
            if kind not in TYPES:
                raise ModelFileError(f"variable {name} has type {kind}, which this tool does not handle")
            variables.append((name, dims, kind, reader.take(size)))
        aliases = [(reader.string(), reader.string()) for _ in range(reader.number("I"))]
        if handle.read(1):
            raise ModelFileError("model.bin has bytes after its aliases")
    return version, spec, revision, variables, aliases


def quantizable(name, dims, kind):
    return (name.endswith("/weight") and "/conv" not in "/" + name and kind in FLOAT_TYPES
            and len(dims) == 2)


def quantize(raw, dims, kind):
    """Row-wise int8 with float32 scales, as CTranslate2 quantizes on load."""
    rows = numpy.frombuffer(raw, dtype=TYPES[kind]).astype(numpy.float32).reshape(dims)
    largest = numpy.amax(numpy.absolute(rows), axis=1)
    largest[largest == 0] = 127.0
    scales = (numpy.float32(127.0) / largest).astype(numpy.float32)
    values = numpy.rint(rows * scales[:, None]).astype(numpy.int8)
    return values, scales


def write_string(handle, text):
    encoded = text.encode("utf-8") + b"\0"
    handle.write(struct.pack("<H", len(encoded)))
    handle.write(encoded)


def write_variable(handle, name, dims, kind, raw):
    write_string(handle, name)
    handle.write(struct.pack("<B", len(dims)))
    for dim in dims:
        handle.write(struct.pack("<I", dim))
    handle.write(struct.pack("<BI", kind, len(raw)))
    handle.write(raw)


def convert(source, target):
    version, spec, revision, variables, aliases = read_model(os.path.join(source, "model.bin"))
    if spec != "WhisperSpec":
        raise ModelFileError(f"model.bin holds a {spec}, not a Whisper model")
    if not any(quantizable(name, dims, kind) for name, dims, kind, _ in variables):
        raise NothingToConvert()
    out = []
    for name, dims, kind, raw in variables:
        if quantizable(name, dims, kind):
            values, scales = quantize(raw, dims, kind)
            out.append((name, dims, 1, values.tobytes()))
            out.append((name + "_scale", [dims[0]], 0, scales.tobytes()))
        else:
            out.append((name, dims, kind, raw))
    names = {entry[0] for entry in out}
    if len(names) != len(out):
        raise ModelFileError("model.bin already holds int8 weights with their scales")
    os.makedirs(target, exist_ok=True)
    staged = os.path.join(target, "model.bin.partial")
    with open(staged, "wb") as handle:
        handle.write(struct.pack("<I", version))
        write_string(handle, spec)
        handle.write(struct.pack("<II", revision, len(out)))
        for entry in sorted(out, key=lambda item: item[0]):
            write_variable(handle, *entry)
        handle.write(struct.pack("<I", len(aliases)))
        for alias, name in aliases:
            write_string(handle, alias)
            write_string(handle, name)
    for entry in os.listdir(source):
        path = os.path.join(source, entry)
        if entry != "model.bin" and os.path.isfile(path):
            shutil.copyfile(path, os.path.join(target, entry))
    os.replace(staged, os.path.join(target, "model.bin"))


def variable_dims(path, wanted):
    """The dims of the variable named `wanted` in a model.bin, read from the headers alone."""
    for name, dims, _, _ in read_model(path, weights=False)[3]:
        if name == wanted:
            return dims
    raise ModelFileError(f"model.bin has no variable {wanted}")


def vocabulary(model_dir):
    """The model's tokens, in id order (vocabulary.txt, vocabulary.json or tokenizer.json)."""
    import json
    path = os.path.join(model_dir, "vocabulary.txt")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            return {token: number for number, token in enumerate(handle.read().split("\n"))}
    path = os.path.join(model_dir, "vocabulary.json")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as handle:
            return {token: number for number, token in enumerate(json.load(handle))}
    with open(os.path.join(model_dir, "tokenizer.json"), encoding="utf-8") as handle:
        tokenizer = json.load(handle)
    tokens = dict(tokenizer.get("model", {}).get("vocab", {}))
    tokens.update({entry["content"]: entry["id"] for entry in tokenizer.get("added_tokens", [])})
    return tokens


def outputs(model_dir):
    """Encoder output, tokens and scores of a greedy decode of a fixed test signal."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import ctranslate2
    from faster_whisper.feature_extractor import FeatureExtractor
    seconds = numpy.arange(5 * 16000, dtype=numpy.float32) / 16000
    # A voiced-like signal: a gliding tone with harmonics, amplitude-modulated at a syllable rate,
    # then three seconds of silence, as the worker pads an utterance.
    pitch = 110 + 40 * numpy.sin(2 * numpy.pi * 0.7 * seconds)
    phase = 2 * numpy.pi * numpy.cumsum(pitch) / 16000
    voice = sum(numpy.sin(k * phase) / k for k in range(1, 8)) * (0.5 + 0.5 * numpy.sin(2 * numpy.pi * 4 * seconds))
    audio = numpy.concatenate([0.1 * voice, numpy.zeros(3 * 16000)]).astype(numpy.float32)
    # The first convolution's weight is [channels, mel bins, width]: 80 bins, or 128 for large-v3.
    mel_bins = variable_dims(os.path.join(model_dir, "model.bin"), "encoder/conv1/weight")[1]
    features = FeatureExtractor(feature_size=mel_bins)(audio)
    tokens = vocabulary(model_dir)
    prompt = [tokens[name] for name in ("<|startoftranscript|>", "<|en|>", "<|transcribe|>", "<|notimestamps|>")
              if name in tokens]
    if not prompt or prompt[0] != tokens.get("<|startoftranscript|>"):
        raise ModelFileError("the model's vocabulary has no <|startoftranscript|> token")
    model = ctranslate2.models.Whisper(model_dir, device="cpu", compute_type="int8", intra_threads=2)
    encoded = model.encode(ctranslate2.StorageView.from_array(features[None].astype(numpy.float32)))
    result = model.generate(encoded, [prompt], max_length=40, return_scores=True, suppress_blank=False)[0]
    return numpy.array(encoded), result.sequences_ids[0], result.scores[0]


class CheckFailed(Exception):
    pass


def compare(first, second):
    try:
        a, b = outputs(first), outputs(second)
    except (OSError, ModelFileError, RuntimeError, ValueError) as error:
        raise CheckFailed(f"the check could not run: {error}") from error
    if a[0].shape != b[0].shape or not numpy.array_equal(a[0], b[0]):
        difference = numpy.max(numpy.abs(a[0] - b[0])) if a[0].shape == b[0].shape else "shape"
        raise ModelFileError(f"the two models' encoder outputs differ (largest difference {difference})")
    if a[1] != b[1] or a[2] != b[2]:
        raise ModelFileError("the two models decode the test signal differently")


def main(arguments):
    if len(arguments) != 3 or arguments[0] not in ("convert", "compare"):
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    try:
        if arguments[0] == "convert":
            convert(arguments[1], arguments[2])
        else:
            compare(arguments[1], arguments[2])
    except CheckFailed as error:
        print(f"int8_weights: {error}", file=sys.stderr)
        return 4
    except NothingToConvert:
        print("int8_weights: model.bin has no float weights to store as int8", file=sys.stderr)
        return 3
    except (OSError, ModelFileError, RuntimeError, ValueError) as error:
        print(f"int8_weights: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
