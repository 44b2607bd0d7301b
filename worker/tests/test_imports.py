"""The worker's pure parts, and the entry script itself, import without CTranslate2."""

import os
import subprocess
import sys

WORKER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Run in the worker's folder, which `-c` puts first on sys.path; -E and -s keep PYTHONPATH and
# the user's site-packages out, so that only the environment's own packages could be imported.
PROGRAM = """
import importlib.util, sys
import parley_worker.alignment, parley_worker.arrays, parley_worker.decoder, parley_worker.framing
import parley_worker.loops, parley_worker.memory, parley_worker.silence, parley_worker.tokenizer
import parley_worker.verification, parley_worker.protocol, parley_worker.second_opinion
spec = importlib.util.spec_from_file_location("worker", "whisper_worker.py")
worker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(worker)
print(sorted(name for name in ("ctranslate2", "numpy", "tokenizers", "asyncio") if name in sys.modules))
print(worker.trim_loop is parley_worker.loops.trim_loop, worker.pair_silent is parley_worker.silence.pair_silent)
"""


def test_no_runtime_is_imported():
    output = subprocess.run([sys.executable, "-E", "-s", "-c", PROGRAM], cwd=WORKER, capture_output=True, text=True,
                            check=False)
    assert output.returncode == 0, output.stderr
    assert output.stdout.splitlines() == ["[]", "True True"]
