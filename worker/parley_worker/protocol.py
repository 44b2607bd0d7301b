"""The worker's messages as types: one dataclass per request and one per answer, the one
function that turns a request frame's header into its request (`decode_request`, whose every
failure is a RequestError naming what is wrong), and the canonical JSON both sides write
(sorted keys, no spaces, integral floats as integers, absent optionals left out), so that a
message has exactly one encoding: the golden frames in tests/golden pin it, and
Tests/WhisperRecognitionTests/WhisperProtocolTests.swift encodes the same values to the same bytes.

PROTOCOL is the version the ready message announces; Parley refuses a worker of another one."""

import dataclasses
import json
import math
import struct
from dataclasses import dataclass
from typing import List, Optional

from .framing import RequestError

# The version of the messages below, their fields and their encoding; raised with any change to
# them, on both sides (WhisperFrames.protocolVersion), with the golden frames made again.
PROTOCOL = 5
WINDOWS = ("short", "full")


@dataclass
class TranscribeRequest:
    """One utterance's features, decoded in one language. `second_opinion`: when the short
    window calls the reading silent or said twice over, decode it again in the full window
    (see `second_opinion.transcription_wanted`). `shares_of`: two languages whose shares of
    the window's speech the answer tells (`language_shares`), from the encoder pass the reading
    was decoded from."""
    id: int
    language: str
    beam: int
    alternatives: int
    words: bool
    window: str
    second_opinion: bool
    mels: int
    frames: int
    audio_seconds: float
    prompt: Optional[str] = None
    shares_of: Optional[List[str]] = None
    op = "transcribe"


@dataclass
class PairRequest:
    """One utterance's features, decoded in two forced languages from one encoder pass."""
    id: int
    languages: List[str]
    window: str
    second_opinion: bool
    mels: int
    frames: int
    audio_seconds: float
    prompt: Optional[str] = None
    op = "pair"


@dataclass
class AlternativeRequest:
    """The last transcribe request's answer again, with one of its alternatives as the reading."""
    id: int
    of: int
    text: str
    words: bool
    op = "alternative"


@dataclass
class PingRequest:
    id: int
    op = "ping"


REQUESTS = {kind.op: kind for kind in (TranscribeRequest, PairRequest, AlternativeRequest, PingRequest)}


@dataclass
class Word:
    text: str
    start: float
    end: float
    confidence: float


@dataclass
class Decode:
    """One window decoded for an answer, and its verdict: the short window's, then the full
    window's when the worker gave a second opinion (for the caller's log and counts)."""
    window: str
    silent: bool


@dataclass
class Transcription:
    """The answer to transcribe and alternative requests. `second_opinion`: the full window
    was decoded too (`window` says which reading this is). `language_shares`: for a request
    with `shares_of`, the model's probability of each of its languages, the two summing to 1,
    in the window the reading is from."""
    id: int
    text: str
    silent: bool
    avg_logprob: float
    confidence: float
    no_speech_prob: float
    alternatives: List[str]
    words: List[Word]
    window: str
    second_opinion: bool
    decodes: List[Decode]
    seconds: dict
    audio_seconds: float
    language_shares: Optional[List[float]] = None
    ok: bool = True


@dataclass
class PairReading:
    language: str
    text: str
    silent: bool
    skipped: bool
    avg_logprob: float
    confidence: float
    language_prob: float
    no_speech_prob: float


@dataclass
class PairAnswer:
    id: int
    hypotheses: List[PairReading]
    window: str
    second_opinion: bool
    decodes: List[Decode]
    seconds: dict
    audio_seconds: float
    ok: bool = True


@dataclass
class Pong:
    id: int
    ok: bool = True


@dataclass
class Refusal:
    """The one error answer: a request the worker could not serve, and why (`id` is None when
    the request's own id could not be read)."""
    id: Optional[int]
    error: str
    ok: bool = False


@dataclass
class Ready:
    """The first message: the model loaded, and what the worker speaks."""
    languages: List[str]
    mels: int
    multilingual: bool
    verified: bool
    load_seconds: float
    pid: int
    protocol: int = PROTOCOL
    ready: bool = True


@dataclass
class NotReady:
    """The first message when the model cannot be used, and why."""
    error: str
    protocol: int = PROTOCOL
    ready: bool = False


def canonical(value):
    """`value` (a dataclass, dict, list or scalar) as plain JSON values: dataclass fields by
    name, None fields and keys left out, integral floats as integers (as Swift writes them)."""
    if dataclasses.is_dataclass(value):
        op = getattr(type(value), "op", None)
        value = {item.name: getattr(value, item.name) for item in dataclasses.fields(value)}
        if op is not None:
            value["op"] = op
    if isinstance(value, dict):
        return {key: canonical(item) for key, item in value.items() if item is not None}
    if isinstance(value, (list, tuple)):
        return [canonical(item) for item in value]
    if isinstance(value, float) and math.isfinite(value) and value == int(value) and abs(value) < 2 ** 53:
        return int(value)
    return value


def encode(message):
    """The canonical UTF-8 JSON of a message: sorted keys, no spaces, no ASCII escapes."""
    return json.dumps(canonical(message), sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def request_frame(request, payload=b""):
    """A request frame, as Parley writes it: u32 header length, header, u32 payload length, payload."""
    header = encode(request)
    return struct.pack("<I", len(header)) + header + struct.pack("<I", len(payload)) + bytes(payload)


def answer_frame(answer):
    """An answer (or ready) frame: u32 length, then the canonical JSON."""
    body = encode(answer)
    return struct.pack("<I", len(body)) + body


def _field(kind, name, value, annotation):
    """`value` checked against a request field's type; RequestError naming the field otherwise."""
    wanted = {int: "an integer", float: "a number", bool: "true or false", str: "a string",
              List[str]: "a list of strings", Optional[str]: "a string",
              Optional[List[str]]: "a list of strings"}[annotation]
    if annotation is bool:
        valid = isinstance(value, bool)
    elif annotation is int:
        valid = isinstance(value, int) and not isinstance(value, bool)
    elif annotation is float:
        valid = isinstance(value, (int, float)) and not isinstance(value, bool)
    elif annotation in (str, Optional[str]):
        valid = isinstance(value, str)
    else:
        valid = isinstance(value, list) and all(isinstance(item, str) for item in value)
    if not valid:
        raise RequestError(f"the {kind.op} request's '{name}' must be {wanted}, not {json.dumps(value)}")
    if name == "window" and value not in WINDOWS:
        raise RequestError(f"the {kind.op} request's 'window' must be \"short\" or \"full\", not {json.dumps(value)}")
    return float(value) if annotation is float else value


def request_id(header):
    """The id a header's request can be answered under, or None."""
    try:
        value = json.loads(bytes(header).decode("utf-8")).get("id")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def decode_request(header):
    """The typed request of a frame's header bytes. Every failure — bytes that are not UTF-8
    JSON, an unknown op, a field missing, of the wrong type or unknown — is one RequestError
    whose sentence names what is wrong."""
    try:
        plain = json.loads(bytes(header).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise RequestError(f"the request header is not UTF-8 JSON ({error})") from None
    if not isinstance(plain, dict):
        raise RequestError("the request header is not a JSON object")
    op = plain.pop("op", None)
    kind = REQUESTS.get(op)
    if kind is None:
        raise RequestError(f"unknown request {json.dumps(op)}" if op is not None else "the request has no 'op'")
    values = {}
    for item in dataclasses.fields(kind):
        if item.name not in plain:
            if item.default is dataclasses.MISSING:
                raise RequestError(f"the {op} request lacks '{item.name}'")
            continue
        values[item.name] = _field(kind, item.name, plain.pop(item.name), item.type)
    if plain:
        raise RequestError(f"the {op} request has unknown fields: {', '.join(sorted(plain))}")
    return kind(**values)


def decode_message(kind, body):
    """An answer or ready message of type `kind` from its JSON body, nested readings and words
    typed too (the tests' way back from a golden frame; Parley's is WhisperAnswers.swift)."""
    plain = json.loads(bytes(body).decode("utf-8"))
    nested = {"words": Word, "hypotheses": PairReading, "decodes": Decode}
    values = {}
    for item in dataclasses.fields(kind):
        if item.name in plain:
            value = plain[item.name]
            if item.name in nested:
                value = [nested[item.name](**entry) for entry in value]
            values[item.name] = value
    return kind(**values)


__all__ = ["PROTOCOL", "TranscribeRequest", "PairRequest", "AlternativeRequest", "PingRequest", "Word", "Decode",
           "Transcription", "PairReading", "PairAnswer", "Pong", "Refusal", "Ready", "NotReady", "encode",
           "decode_request", "request_frame", "answer_frame", "request_id", "decode_message"]
