"""Parley's Whisper worker, by concern: framing (frames and the request error), protocol (the typed messages and
the one request decoder), second_opinion (when the full window is decoded too), verification
(the model's SHA-256), memory (runtime import, oneDNN cache, malloc_trim), tokenizer (byte-level
BPE), alignment (word times, punctuation), loops (token budget, trim_loop), silence (no-speech
rules), arrays and decoder (the model and its requests). Only `decoder` needs CTranslate2, and
it imports it when a Decoder is made."""
