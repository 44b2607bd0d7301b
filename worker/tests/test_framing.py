"""Frames on the worker's pipes: requests read, responses written, input cut inside a frame."""

import io
import json
import struct

import pytest

from parley_worker.framing import (RequestError, TruncatedFrame, error_answer, read_request, write_frame,
                                   write_response)


def request_frame(header, payload=b""):
    """A request as Parley frames it (WhisperFrames.swift)."""
    data = json.dumps(header).encode("utf-8")
    return struct.pack("<I", len(data)) + data + struct.pack("<I", len(payload)) + payload


PING = request_frame({"op": "ping", "id": 1}, b"\x01\x02\x03\x04")


def test_two_requests_then_end():
    payload = struct.pack("<3f", 0.5, -1.25, 2.0)
    stream = io.BytesIO(request_frame({"op": "transcribe", "id": 7, "prompt": "señor"}, payload)
                        + request_frame({"op": "ping", "id": 8}))
    header, body = read_request(stream)
    assert header == {"op": "transcribe", "id": 7, "prompt": "señor"}
    assert bytes(body) == payload
    header, body = read_request(stream)
    assert header == {"op": "ping", "id": 8}
    assert bytes(body) == b""
    assert read_request(stream) is None


def test_empty_input_is_the_end():
    assert read_request(io.BytesIO(b"")) is None


@pytest.mark.parametrize("length", range(1, len(PING)))
def test_input_cut_anywhere_inside_a_frame(length):
    with pytest.raises(TruncatedFrame):
        read_request(io.BytesIO(PING[:length]))


def test_a_stream_that_gives_one_byte_at_a_time():
    class Trickle(io.RawIOBase):
        def __init__(self, data):
            self.data = io.BytesIO(data)

        def readable(self):
            return True

        def read(self, size=-1):
            return self.data.read(min(size, 1) if size and size > 0 else 1)

    header, body = read_request(Trickle(request_frame({"op": "pair", "id": 3}, b"abcdefgh")))
    assert (header, bytes(body)) == ({"op": "pair", "id": 3}, b"abcdefgh")


def test_frame_is_length_then_utf8_json():
    body = {"ok": True, "text": "Necesito un médico.", "id": 4}
    frame = write_frame(body)
    (length,) = struct.unpack("<I", frame[:4])
    assert length == len(frame) - 4
    assert "médico".encode("utf-8") in frame  # not escaped as \\u00e9
    assert json.loads(frame[4:].decode("utf-8")) == body


def test_written_and_flushed():
    class Recorder(io.BytesIO):
        flushed = False

        def flush(self):
            self.flushed = True

    stream = Recorder()
    write_response(stream, {"ok": True, "id": 1})
    assert stream.getvalue() == b'\x12\x00\x00\x00{"id":1,"ok":true}'
    assert stream.flushed


def test_a_request_error_is_its_sentence():
    answer = error_answer(RequestError("a pair request needs two different languages"))
    assert answer == {"ok": False, "error": "a pair request needs two different languages"}


def test_other_errors_name_their_type():
    assert error_answer(ValueError("bad value")) == {"ok": False, "error": "ValueError: bad value"}
