"""What keeps the worker small: CTranslate2 imported without asyncio, oneDNN's primitive
cache off, and freed buffers handed back to the system between utterances."""

import ctypes
import os
import sys

# oneDNN (inside CTranslate2) builds a primitive for every convolution shape it meets and
# keeps up to 1024 of them in a cache, each with its compiled kernel and scratch memory.
# Whisper's two input convolutions take the utterance's length as their shape, so nearly
# every utterance (and every partial decode) adds two entries that are never used again.
# Measured here, with the cache the worker grows from 136 to 263 MiB over 100 utterances of
# different lengths, about 1.3 MiB each, and goes on to the cache's 1024 entries; without it
# the worker stays at 150-163 MiB, and a decode takes as long (building a primitive again
# costs less than the run-to-run noise, even when the same length comes back).
PRIMITIVE_CACHE_CAPACITY = "0"


def import_runtime():
    """Imports CTranslate2 without asyncio. CTranslate2 imports asyncio for its asynchronous
    generation helpers, which the worker never calls, and asyncio brings ssl (with OpenSSL),
    socket, subprocess and more: 4.8 MiB of resident memory. A placeholder stands in for it
    while CTranslate2 loads and is then taken away, so a later import gets the real one."""
    import types
    placeholder = None
    if "asyncio" not in sys.modules:
        placeholder = types.ModuleType("asyncio")
        placeholder.__doc__ = "not loaded: Parley's Whisper worker never calls CTranslate2's async helpers"
        sys.modules["asyncio"] = placeholder
    try:
        import ctranslate2
    finally:
        if placeholder is not None and sys.modules.get("asyncio") is placeholder:
            del sys.modules["asyncio"]
    return ctranslate2


def no_primitive_cache():
    """Turns oneDNN's primitive cache off (set before CTranslate2 loads, so oneDNN finds it
    whenever it reads it); a value set by the person is kept."""
    os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", PRIMITIVE_CACHE_CAPACITY)


def release_memory():
    """Hands the decode's freed buffers back to the system while the worker waits for the next
    utterance (glibc keeps them otherwise: about 40 MB of resident memory here)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass
