"""The model file's SHA-256, computed in a child process, and the sentence when it differs."""

import hashlib
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from parley_worker.verification import Verification, file_sha256, python_sha256  # noqa: E402


class VerificationTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.folder.name, "model.bin")
        with open(self.path, "wb") as handle:
            handle.write(bytes(range(256)) * 5000)  # over one 1 MiB block
        with open(self.path, "rb") as handle:
            self.digest = hashlib.sha256(handle.read()).hexdigest()

    def tearDown(self):
        self.folder.cleanup()

    def test_file_sha256(self):
        self.assertEqual(file_sha256(self.path), self.digest)

    def test_pythons_own_hash(self):
        digest = python_sha256()
        digest.update(b"abc")
        self.assertEqual(digest.hexdigest(), hashlib.sha256(b"abc").hexdigest())

    def test_the_pinned_file_has_no_problem(self):
        self.assertIsNone(Verification(self.path, self.digest).problem())
        self.assertIsNone(Verification(self.path, "").problem())  # nothing pinned: not checked

    def test_another_file_is_one_sentence(self):
        problem = Verification(self.path, "0" * 64).problem()
        self.assertEqual(problem, f"the model file {self.path} has SHA-256 {self.digest}, expected {'0' * 64}: "
                         "it is damaged or not the pinned model; reinstall it (make models)")

    def test_an_unreadable_file(self):
        missing = os.path.join(self.folder.name, "missing.bin")
        problem = Verification(missing, self.digest).problem()
        self.assertTrue(problem.startswith(f"cannot read {missing}: "), problem)


if __name__ == "__main__":
    unittest.main()
