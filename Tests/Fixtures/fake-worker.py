#!/usr/bin/env python3
"""A stand-in for worker/whisper_worker.py that speaks its framing (parley_worker.framing:
every integer a little-endian u32; request = header length, JSON header, payload length,
payload; answer = length, JSON body) and its protocol's messages (parley_worker.protocol)
without a model, for tests of the process layer and of WhisperWorker's recovery.

The mode comes from --mode, or else from the file "mode" in the --model folder: one
mode a line, line N for the Nth start of the worker (the last line for every later
start; the starts are counted in the folder's file "starts"). Modes:
  answer          answer every request with a transcription: its id, and the text "<op> <language>
                  consistent" when the payload holds mels x frames float32 values ("inconsistent" if not)
  die-after N     answer N requests, then exit 3 on the next, saying so on stderr
  hang            read requests, answer none
  silent          never send the ready message
  not-ready       say the model does not load, and exit
  garbage         answer each request with text that is no frame
  wrong-id        answer each request with another request's id
  half-answer     begin an answer frame, then exit 3 in its middle
  stderr-flood    write 1 MiB on stderr, then "last words", then exit 5
  grandchild      start a `sleep` in the worker's process group, name its pid in the ready
                  message, then hang
  fds             name the worker's open descriptors in the ready message, then answer
  other-protocol  announce protocol 99 in the ready message, then answer
  words           read "He was an ill-sposed man." with the alternative "He was an ill-disposed man."
                  in the short window, refuse every alternative request, and read the alternative
                  in the full window
"""

import json
import os
import struct
import subprocess
import sys
import time

# The worker's own framing (standard library only), so the fake reads and writes frames exactly as it does.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "worker"))
from parley_worker.framing import read_request, write_response  # noqa: E402
from parley_worker.protocol import Decode, NotReady, Ready, Refusal, Transcription, canonical  # noqa: E402


def is_open(fd):
    try:
        os.fstat(fd)
        return True
    except OSError:
        return False


def option(name):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else None


def mode_for_this_start():
    if option("--mode"):
        return option("--mode").split()
    folder = option("--model")
    starts_file = os.path.join(folder, "starts")
    starts = int(open(starts_file).read()) + 1 if os.path.exists(starts_file) else 1
    with open(starts_file, "w") as handle:
        handle.write(str(starts))
    lines = [line.split() for line in open(os.path.join(folder, "mode")) if line.strip()]
    return lines[min(starts, len(lines)) - 1]


def answer(header, payload, mode):
    consistent = len(payload) == header.get("mels", 0) * header.get("frames", 0) * 4
    text = f"{header.get('op')} {header.get('language')} {'consistent' if consistent else 'inconsistent'}"
    window, alternatives = header.get("window", "short"), []
    if mode == "words":
        if header.get("op") == "alternative":
            return canonical(Refusal(header.get("id"), "decode 1 is not the last one with alternatives"))
        text = "He was an ill-disposed man." if window == "full" else "He was an ill-sposed man."
        alternatives = [] if window == "full" else ["He was an ill-disposed man."]
    return canonical(Transcription(id=header.get("id"), text=text, silent=False, avg_logprob=-0.1, confidence=0.9,
                                   no_speech_prob=0.01, alternatives=alternatives, words=[], window=window,
                                   second_opinion=False, decodes=[Decode(window, False)], seconds={},
                                   audio_seconds=header.get("audio_seconds", 0.0)))


def main():
    mode = mode_for_this_start()
    source, output = sys.stdin.buffer, sys.stdout.buffer
    ready = canonical(Ready(languages=["en", "es"], mels=80, multilingual=True, verified=False, load_seconds=0.0,
                            pid=os.getpid()))
    if mode[0] == "silent":
        time.sleep(1000)
    if mode[0] == "not-ready":
        write_response(output, canonical(NotReady(error="the fake model does not load")))
        return 0
    if mode[0] == "stderr-flood":
        sys.stderr.write(("x" * 1023 + "\n") * 1024 + "last words\n")
        sys.stderr.flush()
        return 5
    if mode[0] == "grandchild":
        ready["grandchild"] = subprocess.Popen(["sleep", "1000"]).pid
    if mode[0] == "other-protocol":
        ready["protocol"] = 99
    if mode[0] == "fds":
        ready["fds"] = [fd for fd in range(1024) if is_open(fd)]
    write_response(output, ready)
    served = 0
    while (request := read_request(source)) is not None:
        header, payload = request
        if mode[0] in ("hang", "grandchild"):
            continue
        if mode[0] == "die-after" and served == int(mode[1]):
            sys.stderr.write(f"fake worker: dying after {served} requests\n")
            return 3
        if mode[0] == "garbage":
            output.write(b"Traceback (most recent call last): this is no frame\n")
            output.flush()
            continue
        if mode[0] == "wrong-id":
            header["id"] = header.get("id", 0) + 1000
        if mode[0] == "half-answer":
            output.write(struct.pack("<I", 100) + b'{"id": ')
            output.flush()
            sys.stderr.write("fake worker: stopping mid-answer\n")
            return 3
        write_response(output, answer(header, payload, mode[0]))
        served += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
