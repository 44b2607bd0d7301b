"""The typed messages: every kind encodes to exactly its golden frame and decodes back to an
equal value (WhisperProtocolTests.swift holds Parley to the same bytes); a malformed request
gets one Refusal naming what is wrong."""

import io
import os
import struct

import pytest

import whisper_worker
from parley_worker.framing import RequestError, read_frame
from parley_worker.protocol import (PROTOCOL, TranscribeRequest, answer_frame, decode_message, decode_request,
                                    encode, request_frame, request_id)
from tests.golden_values import ANSWERS, GOLDEN, REQUESTS


def golden(name):
    with open(os.path.join(GOLDEN, f"{name}.bin"), "rb") as handle:
        return handle.read()


def test_every_kind_has_a_golden_frame():
    names = sorted(name[:-4] for name in os.listdir(GOLDEN) if name.endswith(".bin"))
    assert names == sorted(list(REQUESTS) + list(ANSWERS))  # and README.md beside them


@pytest.mark.parametrize("name", REQUESTS)
def test_a_request_encodes_to_its_golden_frame_and_decodes_back(name):
    request, payload = REQUESTS[name]
    frame = golden(name)
    assert request_frame(request, payload) == frame
    header, body = read_frame(io.BytesIO(frame))
    assert decode_request(header) == request
    assert bytes(body) == payload


@pytest.mark.parametrize("name", ANSWERS)
def test_an_answer_encodes_to_its_golden_frame_and_decodes_back(name):
    answer = ANSWERS[name]
    frame = golden(name)
    assert answer_frame(answer) == frame
    assert struct.unpack("<I", frame[:4])[0] == len(frame) - 4
    assert decode_message(type(answer), frame[4:]) == answer


def test_a_renamed_field_changes_the_bytes():
    request, _ = REQUESTS["transcribe-request"]
    assert b'"second_opinion":true' in encode(request)
    assert b'"audio_seconds":0.02' in encode(request)


def test_the_ready_frame_carries_the_version():
    assert b'"protocol":%d' % PROTOCOL in golden("ready")
    assert b'"protocol":%d' % PROTOCOL in golden("not-ready")


VALID = {"op": "transcribe", "id": 1, "language": "en", "beam": 1, "alternatives": 0, "words": False,
         "window": "short", "second_opinion": False, "mels": 80, "frames": 3, "audio_seconds": 0.5}


def test_a_valid_request_decodes():
    assert isinstance(decode_request(encode(VALID)), TranscribeRequest)


@pytest.mark.parametrize(("header", "sentence"), [
    (b"{not json", "the request header is not UTF-8 JSON "
                   "(Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
    (b"[1]", "the request header is not a JSON object"),
    ({"id": 1}, "the request has no 'op'"),
    ({"op": "sing", "id": 1}, 'unknown request "sing"'),
    ({**VALID, "language": None}, "the transcribe request lacks 'language'"),
    ({**VALID, "beam": "2"}, "the transcribe request's 'beam' must be an integer, not \"2\""),
    ({**VALID, "words": 1}, "the transcribe request's 'words' must be true or false, not 1"),
    ({**VALID, "window": "long"}, "the transcribe request's 'window' must be \"short\" or \"full\", not \"long\""),
    ({**VALID, "windw": "full"}, "the transcribe request has unknown fields: windw"),
    ({**VALID, "shares_of": "en"}, "the transcribe request's 'shares_of' must be a list of strings, not \"en\""),
])
def test_each_fault_is_named(header, sentence):
    with pytest.raises(RequestError) as caught:
        decode_request(header if isinstance(header, bytes) else encode(header))
    assert str(caught.value) == sentence


def test_a_list_of_the_wrong_type_is_named():
    with pytest.raises(RequestError) as caught:
        decode_request(encode({**VALID, "op": "pair", "languages": ["en", 2]}))
    assert str(caught.value).split(",")[0] == "the pair request's 'languages' must be a list of strings"


def test_the_refusal_keeps_the_id_it_can_read():
    assert request_id(b'{"id": 5, "op": "sing"}') == 5
    assert request_id(b'{"id": "5"}') is None
    assert request_id(b"\xff") is None


def test_serve_refuses_a_malformed_request_once():
    """The worker script's serve(): one Refusal for a malformed request, with its id."""

    class NoModel:
        held = ("kept", None)

    decoder = NoModel()
    answer = whisper_worker.serve(decoder, b'{"id":3,"op":"transcribe"}', b"")
    assert encode(answer) == b'{"error":"the transcribe request lacks \'language\'","id":3,"ok":false}'
    assert encode(whisper_worker.serve(decoder, b'{"id":4,"op":"ping"}', b"")) == b'{"id":4,"ok":true}'
    assert decoder.held is None, "any request but an alternative lets the held decode go"
