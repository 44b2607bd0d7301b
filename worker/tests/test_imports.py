"""The worker's pure parts, and the entry script itself, import without CTranslate2."""

import os
import subprocess
import sys
import unittest

WORKER = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAM = """
import importlib.util, sys
sys.path.insert(0, sys.argv[1])
import parley_worker.alignment, parley_worker.arrays, parley_worker.decoder, parley_worker.framing
import parley_worker.loops, parley_worker.memory, parley_worker.silence, parley_worker.tokenizer
import parley_worker.verification, parley_worker.protocol, parley_worker.second_opinion
spec = importlib.util.spec_from_file_location("worker", sys.argv[1] + "/whisper_worker.py")
worker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(worker)
print(sorted(name for name in ("ctranslate2", "numpy", "tokenizers", "asyncio") if name in sys.modules))
print(worker.trim_loop is parley_worker.loops.trim_loop, worker.pair_silent is parley_worker.silence.pair_silent)
"""


class ImportTests(unittest.TestCase):
    def test_no_runtime_is_imported(self):
        output = subprocess.run([sys.executable, "-I", "-c", PROGRAM, WORKER], capture_output=True, text=True,
                                check=False)
        self.assertEqual(output.returncode, 0, output.stderr)
        self.assertEqual(output.stdout.splitlines(), ["[]", "True True"])


if __name__ == "__main__":
    unittest.main()
