"""The frames on the worker's pipes (all integers little-endian u32):
request = header_length, header (UTF-8 JSON), payload_length, payload;
response = length, body (UTF-8 JSON). And the one error a request can meet."""

import json
import struct


class RequestError(Exception):
    """A request the worker cannot serve as sent: its message, one sentence, is the answer's
    "error" (see `error_answer`)."""


class TruncatedFrame(Exception):
    """Input that ended in the middle of a frame."""


def read_exactly(stream, count):
    """`count` bytes from `stream`, or None when it ends first (with the bytes it gave)."""
    data = bytearray()
    while len(data) < count:
        chunk = stream.read(count - len(data))
        if not chunk:
            return None
        data.extend(chunk)
    return data


def read_part(stream, count):
    """`count` bytes of a frame already begun; TruncatedFrame when the input ends first."""
    data = read_exactly(stream, count)
    if data is None:
        raise TruncatedFrame(f"the input ended in the middle of a request frame ({count} bytes expected)")
    return data


def read_frame(stream):
    """One request frame as bytes: (header, payload), or None at end of input between frames.
    Input that ends inside a frame raises TruncatedFrame. The header is decoded by
    protocol.decode_request."""
    first = stream.read(1)
    if not first:
        return None
    size = bytes(first) + bytes(read_part(stream, 3))
    header = read_part(stream, struct.unpack("<I", size)[0])
    payload_size = struct.unpack("<I", read_part(stream, 4))[0]
    payload = read_part(stream, payload_size) if payload_size else bytearray()
    return header, payload


def read_request(stream):
    """One request frame with its header as a plain dict (see read_frame)."""
    frame = read_frame(stream)
    return None if frame is None else (json.loads(bytes(frame[0]).decode("utf-8")), frame[1])


def write_frame(body):
    """The response frame of `body`, a plain dict: its length, then its UTF-8 JSON, canonical
    as protocol.encode writes it (sorted keys, no spaces)."""
    data = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return struct.pack("<I", len(data)) + data


def write_response(stream, body):
    """Writes `body`'s frame on `stream` and flushes it."""
    stream.write(write_frame(body))
    stream.flush()


def error_answer(error):
    """The answer to a request that failed: the RequestError's sentence, or any other
    exception's type and message (the runtime's own words are the useful ones)."""
    if isinstance(error, RequestError):
        return {"ok": False, "error": str(error)}
    return {"ok": False, "error": f"{type(error).__name__}: {error}"}
