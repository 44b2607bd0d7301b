"""Frames on the worker's pipes: requests read, responses written, input cut inside a frame."""

import io
import json
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from parley_worker.framing import (RequestError, TruncatedFrame, error_answer, read_request,  # noqa: E402
                                   write_frame, write_response)


def request_frame(header, payload=b""):
    """A request as Parley frames it (WhisperFrames.swift)."""
    data = json.dumps(header).encode("utf-8")
    return struct.pack("<I", len(data)) + data + struct.pack("<I", len(payload)) + payload


class ReadRequestTests(unittest.TestCase):
    def test_two_requests_then_end(self):
        payload = struct.pack("<3f", 0.5, -1.25, 2.0)
        stream = io.BytesIO(request_frame({"op": "transcribe", "id": 7, "prompt": "señor"}, payload)
                            + request_frame({"op": "ping", "id": 8}))
        header, body = read_request(stream)
        self.assertEqual(header, {"op": "transcribe", "id": 7, "prompt": "señor"})
        self.assertEqual(bytes(body), payload)
        header, body = read_request(stream)
        self.assertEqual(header, {"op": "ping", "id": 8})
        self.assertEqual(bytes(body), b"")
        self.assertIsNone(read_request(stream))

    def test_empty_input_is_the_end(self):
        self.assertIsNone(read_request(io.BytesIO(b"")))

    def test_input_cut_anywhere_inside_a_frame(self):
        frame = request_frame({"op": "ping", "id": 1}, b"\x01\x02\x03\x04")
        for length in range(1, len(frame)):
            with self.subTest(length=length), self.assertRaises(TruncatedFrame):
                read_request(io.BytesIO(frame[:length]))

    def test_a_stream_that_gives_one_byte_at_a_time(self):
        class Trickle(io.RawIOBase):
            def __init__(self, data):
                self.data = io.BytesIO(data)

            def readable(self):
                return True

            def read(self, size=-1):
                return self.data.read(min(size, 1) if size and size > 0 else 1)

        header, body = read_request(Trickle(request_frame({"op": "pair", "id": 3}, b"abcdefgh")))
        self.assertEqual((header, bytes(body)), ({"op": "pair", "id": 3}, b"abcdefgh"))


class WriteResponseTests(unittest.TestCase):
    def test_frame_is_length_then_utf8_json(self):
        body = {"ok": True, "text": "Necesito un médico.", "id": 4}
        frame = write_frame(body)
        (length,) = struct.unpack("<I", frame[:4])
        self.assertEqual(length, len(frame) - 4)
        self.assertIn("médico".encode("utf-8"), frame)  # not escaped as \\u00e9
        self.assertEqual(json.loads(frame[4:].decode("utf-8")), body)

    def test_written_and_flushed(self):
        class Recorder(io.BytesIO):
            flushed = False

            def flush(self):
                self.flushed = True

        stream = Recorder()
        write_response(stream, {"ok": True, "id": 1})
        self.assertEqual(stream.getvalue(), b'\x12\x00\x00\x00{"id":1,"ok":true}')
        self.assertTrue(stream.flushed)


class ErrorAnswerTests(unittest.TestCase):
    def test_request_error_is_its_sentence(self):
        answer = error_answer(RequestError("a pair request needs two different languages"))
        self.assertEqual(answer, {"ok": False, "error": "a pair request needs two different languages"})

    def test_other_errors_name_their_type(self):
        self.assertEqual(error_answer(ValueError("bad value")), {"ok": False, "error": "ValueError: bad value"})


if __name__ == "__main__":
    unittest.main()
