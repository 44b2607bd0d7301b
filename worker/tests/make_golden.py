"""Writes the golden frames (tests/golden/*.bin) from tests/golden_values.py: `python3 -m
tests.make_golden` in worker/. Run it only when the protocol changes on purpose, with PROTOCOL
raised, and change the Swift values to match."""

import os

from parley_worker.protocol import answer_frame, request_frame
from tests.golden_values import ANSWERS, GOLDEN, REQUESTS

if __name__ == "__main__":
    os.makedirs(GOLDEN, exist_ok=True)
    for name, (request, payload) in REQUESTS.items():
        with open(os.path.join(GOLDEN, f"{name}.bin"), "wb") as handle:
            handle.write(request_frame(request, payload))
    for name, answer in ANSWERS.items():
        with open(os.path.join(GOLDEN, f"{name}.bin"), "wb") as handle:
            handle.write(answer_frame(answer))
