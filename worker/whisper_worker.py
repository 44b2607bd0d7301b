#!/usr/bin/env python3
"""Parley's Whisper worker: one long-lived process that keeps a CTranslate2
Whisper model loaded and decodes utterances sent by `parley` on its pipes.

The protocol, version 5 (PROTOCOL in parley_worker/protocol.py; integers little-endian u32):
  request  = header_length, header (UTF-8 JSON), payload_length, payload
  response = length, body (UTF-8 JSON)
Every message is a type in parley_worker/protocol.py (Parley's: WhisperFrames.swift,
WhisperAnswers.swift), written as canonical JSON (sorted keys, no spaces); the golden frames in
tests/golden pin every kind byte for byte. The first response, sent unasked, says whether the
model loaded (Ready or NotReady, both with "protocol": 5; Parley refuses a worker of another
version). Every later response answers one request and carries its "id", so the caller can
tell an answer that is out of step. A request that cannot be served — malformed (protocol.decode_request names what
is wrong), or one the model refuses — gets the one error answer, {"id", "ok": false, "error"}.

Requests ("op"):
  transcribe  payload: the log-mel features of one utterance, float32
              little-endian, `mels` rows of `frames` values (row-major), as
              Whisper's feature extractor computes them, padded as the caller
              wants them encoded (Parley computes them: WhisperFeatures.swift).
              Header fields: mels (the model's, given in the ready message),
              frames (1 to 3000), audio_seconds (the utterance's own length,
              which bounds the tokens and times the words), language ("en"),
              prompt (text that biases decoding, optional), beam (beam size),
              alternatives (extra hypotheses), words (word times and
              probabilities), window ("short", or "full" when the features fill
              the 30 s window stock transcribe encodes), second_opinion: when
              the short window calls the reading silent or said twice over
              (second_opinion.py, the rule's one owner), the features are padded
              to the full window and decoded again in this same request; the
              full window's reading is kept when it is heard. shares_of
              (optional, two languages: ["en", "es"]): the answer's
              language_shares gives the model's probability of each, the two
              summing to 1, in the window the reading is from (one decoder step
              over the same encoder output). The answer (Transcription) says
              which window its reading is from and whether the full one was
              decoded ("second_opinion").
  pair        payload and header as for transcribe, with languages (["en",
              "es"]) for language: one utterance decoded in two forced
              languages from ONE encoder pass. The encoder output is
              repeated into a batch of two and generate runs one greedy
              hypothesis per language token; the answer (PairAnswer) carries a
              PairReading per language in "hypotheses", in the order asked.
              language_prob is the model's probability of that language token,
              renormalised over the two (one decoder step over the same encoder
              output). When that probability is overwhelming (PAIR_SKIP_SHARE)
              only that language is decoded; the other reading is empty, silent,
              skipped, with avg_logprob PAIR_SKIPPED_LOGPROB. When the no-speech
              rule calls both readings silent, a reading it only just called
              silent is kept (see pair_silent); in the full window, whose
              no-speech probability is the one the rule is made for, the rule
              alone judges. second_opinion as for transcribe, by the pair's rule
              (silence decides the pair, or a heard reading is said twice).
  alternative no payload; header: of (the id of the last transcribe request,
              which returned alternatives), text (one of those alternatives),
              words. The same answer with that alternative as the reading
              and the transcribe request's own reading among the
              alternatives, its words aligned when asked; the encoder
              output is held from the transcribe request, so no encoder pass
              and no decode run. Any other request lets the held output go.
              Parley asks for it when the reading holds a word its language's
              word list lacks and an alternative does not.
  ping        no payload; answered with {"id": …, "ok": true}.

Parley sends features, not audio, so that the worker needs neither numpy nor faster-whisper:
it imports CTranslate2 alone (and the Hugging Face tokenizer when a prompt is first encoded),
which keeps it about 30 MiB smaller. The worker owns the full-window second opinion, since the
verdicts it rests on are its own, and runs it inside the request that asks for it.

Why not WhisperModel.transcribe: it pads every utterance to a 30 s window,
which costs about a second of encoder time per turn. The encoder accepts a
shorter window; a few seconds of trailing silence keep the decoder from
repeating the sentence to the length limit.

Standard output carries only frames; diagnostics go to standard error.

This script is the entry point: the worker's parts are the package parley_worker beside it
(see its __init__), found through this script's own directory, so it runs from the source
tree and from PREFIX/share/parley/worker alike. Its names are re-exported here.
"""

import argparse
import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from parley_worker.alignment import merge_punctuations  # noqa: E402,F401
from parley_worker.decoder import PROTOCOL, Decoder  # noqa: E402,F401
from parley_worker.framing import RequestError, TruncatedFrame, error_answer, read_frame  # noqa: E402,F401
from parley_worker.loops import generation_length, repeating_tail, token_limit, trim_loop  # noqa: E402,F401
from parley_worker.memory import import_runtime, no_primitive_cache, release_memory  # noqa: E402
from parley_worker.protocol import (AlternativeRequest, NotReady, PairRequest, Pong, Ready, Refusal,  # noqa: E402
                                    TranscribeRequest, answer_frame, decode_request, request_id)
from parley_worker.second_opinion import said_twice, silence_decides  # noqa: E402,F401
from parley_worker.silence import one_language_silent, pair_silent  # noqa: E402,F401
from parley_worker.tokenizer import LanguageTokens, VocabularyTokenizer, byte_decoder  # noqa: E402,F401
from parley_worker.verification import Verification, file_sha256  # noqa: E402,F401


def serve(decoder, header, payload):
    """The answer to one request frame (its header bytes and payload): a typed answer, or a
    Refusal. Every failure — a malformed request (decode_request's RequestError), a request
    the model cannot serve, the runtime's own error — becomes the one Refusal here."""
    try:
        request = decode_request(header)
        if not isinstance(request, AlternativeRequest):
            decoder.held = None  # only the last decode's alternatives can be chosen
        if isinstance(request, TranscribeRequest):
            return decoder.transcribe(request, payload)
        if isinstance(request, AlternativeRequest):
            return decoder.alternative(request)
        if isinstance(request, PairRequest):
            return decoder.pair(request, payload)
        return Pong(request.id)
    except Exception as error:  # noqa: BLE001 (one answer for every failure)
        return Refusal(request_id(header), error_answer(error)["error"])


def write(output, message):
    """Writes one typed message's frame and flushes it."""
    output.write(answer_frame(message))
    output.flush()


def main():
    parser = argparse.ArgumentParser(description="Parley's Whisper worker (speaks a framed protocol on stdin/stdout).")
    parser.add_argument("--model", required=True, help="a CTranslate2 Whisper model directory")
    parser.add_argument("--sha256", default="", help="the pinned SHA-256 of the model's model.bin")
    parser.add_argument("--threads", type=int, default=2)
    arguments = parser.parse_args()
    # The signal mask is inherited: started from one of Parley's threads, which
    # block nearly every signal, the worker would not end on SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    output = sys.stdout.buffer
    source = sys.stdin.buffer
    started = time.perf_counter()
    model_file = os.path.join(arguments.model, "model.bin")
    if not os.path.isfile(model_file):
        write(output, NotReady(f"no model file at {model_file}"))
        return 1
    verification = Verification(model_file, arguments.sha256.lower())
    try:
        no_primitive_cache()
        import_runtime()  # while the hash is computed
    except ImportError as error:
        write(output, NotReady(f"CTranslate2 is not installed: {error}"))
        return 1
    problem = verification.problem()
    if problem:
        write(output, NotReady(problem))
        return 1
    try:
        decoder = Decoder(arguments.model, arguments.threads)
    except Exception as error:  # the runtime's own message is the useful one
        write(output, NotReady(f"the model in {arguments.model} does not load: {error}"))
        return 1
    write(output, Ready(decoder.languages, decoder.mels, bool(decoder.model.is_multilingual), bool(arguments.sha256),
                        round(time.perf_counter() - started, 3), os.getpid()))
    while True:
        try:
            request = read_frame(source)
        except TruncatedFrame as error:
            print(f"whisper_worker: {error}", file=sys.stderr)
            return 1
        if request is None:
            return 0
        write(output, serve(decoder, *request))
        release_memory()


if __name__ == "__main__":
    sys.exit(main())
