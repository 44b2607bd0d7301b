"""The typed messages: every kind encodes to exactly its golden frame and decodes back to an
equal value (WhisperProtocolTests.swift holds Parley to the same bytes); a malformed request
gets one Refusal naming what is wrong."""

import io
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from golden_values import ANSWERS, GOLDEN, REQUESTS  # noqa: E402
from parley_worker.framing import RequestError, read_frame  # noqa: E402
from parley_worker.protocol import (PROTOCOL, TranscribeRequest, answer_frame, decode_message,  # noqa: E402
                                    decode_request, encode, request_frame, request_id)

WORKER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def golden(name):
    with open(os.path.join(GOLDEN, f"{name}.bin"), "rb") as handle:
        return handle.read()


class GoldenFrameTests(unittest.TestCase):
    def test_every_kind_has_a_golden_frame(self):
        names = sorted(name[:-4] for name in os.listdir(GOLDEN) if name.endswith(".bin"))
        self.assertEqual(names, sorted(list(REQUESTS) + list(ANSWERS)))  # and README.md beside them

    def test_requests_encode_to_their_golden_frames_and_decode_back(self):
        for name, (request, payload) in REQUESTS.items():
            with self.subTest(name):
                frame = golden(name)
                self.assertEqual(request_frame(request, payload), frame)
                header, body = read_frame(io.BytesIO(frame))
                self.assertEqual(decode_request(header), request)
                self.assertEqual(bytes(body), payload)

    def test_answers_encode_to_their_golden_frames_and_decode_back(self):
        for name, answer in ANSWERS.items():
            with self.subTest(name):
                frame = golden(name)
                self.assertEqual(answer_frame(answer), frame)
                self.assertEqual(struct.unpack("<I", frame[:4])[0], len(frame) - 4)
                self.assertEqual(decode_message(type(answer), frame[4:]), answer)

    def test_a_renamed_field_changes_the_bytes(self):
        request, _ = REQUESTS["transcribe-request"]
        self.assertIn(b'"second_opinion":true', encode(request))
        self.assertIn(b'"audio_seconds":0.02', encode(request))

    def test_the_ready_frame_carries_the_version(self):
        self.assertIn(b'"protocol":%d' % PROTOCOL, golden("ready"))
        self.assertIn(b'"protocol":%d' % PROTOCOL, golden("not-ready"))


class DecodeRequestTests(unittest.TestCase):
    def refusal(self, header):
        with self.assertRaises(RequestError) as caught:
            decode_request(header if isinstance(header, bytes) else encode(header))
        return str(caught.exception)

    def test_each_fault_is_named(self):
        valid = {"op": "transcribe", "id": 1, "language": "en", "beam": 1, "alternatives": 0, "words": False,
                 "window": "short", "second_opinion": False, "mels": 80, "frames": 3, "audio_seconds": 0.5}
        self.assertIsInstance(decode_request(encode(valid)), TranscribeRequest)
        self.assertEqual(self.refusal(b"{not json"), "the request header is not UTF-8 JSON "
                                                     "(Expecting property name enclosed in double quotes: "
                                                     "line 1 column 2 (char 1))")
        self.assertEqual(self.refusal(b"[1]"), "the request header is not a JSON object")
        self.assertEqual(self.refusal({"id": 1}), "the request has no 'op'")
        self.assertEqual(self.refusal({"op": "sing", "id": 1}), 'unknown request "sing"')
        self.assertEqual(self.refusal({**valid, "language": None}), "the transcribe request lacks 'language'")
        self.assertEqual(self.refusal({**valid, "beam": "2"}),
                         "the transcribe request's 'beam' must be an integer, not \"2\"")
        self.assertEqual(self.refusal({**valid, "words": 1}),
                         "the transcribe request's 'words' must be true or false, not 1")
        self.assertEqual(self.refusal({**valid, "window": "long"}),
                         "the transcribe request's 'window' must be \"short\" or \"full\", not \"long\"")
        self.assertEqual(self.refusal({**valid, "op": "pair", "languages": ["en", 2]}).split(",")[0],
                         "the pair request's 'languages' must be a list of strings")
        self.assertEqual(self.refusal({**valid, "windw": "full"}), "the transcribe request has unknown fields: windw")

    def test_the_refusal_keeps_the_id_it_can_read(self):
        self.assertEqual(request_id(b'{"id": 5, "op": "sing"}'), 5)
        self.assertIsNone(request_id(b'{"id": "5"}'))
        self.assertIsNone(request_id(b"\xff"))


class ServeTests(unittest.TestCase):
    """The worker script's serve(): one Refusal for a malformed request, with its id."""

    def test_malformed_request_is_refused_once(self):
        import importlib.util
        spec = importlib.util.spec_from_file_location("whisper_worker", os.path.join(WORKER, "whisper_worker.py"))
        worker = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(worker)

        class NoModel:
            held = ("kept", None)

        decoder = NoModel()
        answer = worker.serve(decoder, b'{"id":3,"op":"transcribe"}', b"")
        self.assertEqual(encode(answer), b'{"error":"the transcribe request lacks \'language\'","id":3,"ok":false}')
        self.assertEqual(encode(worker.serve(decoder, b'{"id":4,"op":"ping"}', b"")), b'{"id":4,"ok":true}')
        self.assertIsNone(decoder.held, "any request but an alternative lets the held decode go")


if __name__ == "__main__":
    unittest.main()
