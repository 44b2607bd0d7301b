"""The messages the golden frames in tests/golden hold, one of every request and answer kind
(Tests/WhisperRecognitionTests/WhisperProtocolTests.swift builds the same values in Swift).
`python3 -m tests.make_golden`, run in worker/, writes the frames from these values."""

import os
import struct

from parley_worker.protocol import (AlternativeRequest, Decode, NotReady, PairAnswer, PairReading,
                                    PairRequest, PingRequest, Pong, Ready, Refusal, TranscribeRequest,
                                    Transcription, Word)

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
# 2 mel bands of 2 frames, float32 little-endian.
PAYLOAD = struct.pack("<4f", 0.5, -1.25, 2.0, 0.0)

REQUESTS = {
    "transcribe-request": (TranscribeRequest(id=7, language="es", beam=2, alternatives=1, words=True, window="short",
                                             second_opinion=True, mels=2, frames=2, audio_seconds=0.02,
                                             prompt="¿Señor Dashwood?", shares_of=["es", "en"]), PAYLOAD),
    "pair-request": (PairRequest(id=8, languages=["en", "es"], window="full", second_opinion=False, mels=2, frames=2,
                                 audio_seconds=1.5), PAYLOAD),
    "alternative-request": (AlternativeRequest(id=9, of=7, text="ill-disposed", words=False), b""),
    "ping-request": (PingRequest(id=10), b""),
}

ANSWERS = {
    "transcription-answer": Transcription(
        id=7, text="He was not an ill-disposed man.", silent=False, avg_logprob=-0.25, confidence=0.7788,
        no_speech_prob=0.0125, alternatives=["He was not an ill-sposed man."],
        words=[Word("He", 0.0, 0.32, 0.9912), Word("ill-disposed", 1.04, 1.5, 0.5)], window="full",
        second_opinion=True, decodes=[Decode("short", True), Decode("full", False)],
        seconds={"decode": 0.125, "encode": 0.5}, audio_seconds=2.75, language_shares=[0.03125, 0.96875]),
    "pair-answer": PairAnswer(
        id=8, hypotheses=[PairReading("en", "Hello.", False, False, -0.5, 0.6065, 0.75, 0.125),
                          PairReading("es", "", True, True, -100.0, 0.0, 0.25, 0.125)],
        window="short", second_opinion=False, decodes=[Decode("short", False)], seconds={"detect": 0.03125},
        audio_seconds=1.5),
    "pong-answer": Pong(id=10),
    "refusal-answer": Refusal(id=11, error="the transcribe request lacks 'language'"),
    "ready": Ready(languages=["en", "es"], mels=80, multilingual=True, verified=True, load_seconds=1.25, pid=4242),
    "not-ready": NotReady(error="no model file at /nowhere/model.bin"),
}
