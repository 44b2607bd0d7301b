"""The model file's SHA-256, checked against the pinned one while the runtime imports."""

import os
import sys
import threading


# The child that hashes the model: the worker's own Python with hashlib (OpenSSL).
HASH_PROGRAM = """
import hashlib, sys
digest = hashlib.sha256()
with open(sys.argv[1], "rb") as handle:
    for block in iter(lambda: handle.read(1 << 20), b""):
        digest.update(block)
print(digest.hexdigest())
"""


def file_sha256(path):
    """The file's SHA-256, as lower-case hex, computed by a child process: the worker's own
    Python with hashlib, so OpenSSL's libcrypto (3.6 MiB of resident memory) is loaded in the
    child, which ends, and not in the worker. The child runs on the other core while the model
    loads (0.06 s for the 75 MB int8 model here). Python's own hash in this process is the
    fallback; it holds the interpreter's lock and takes 0.29 s, as coreutils' sha256sum does."""
    try:
        read, write = os.pipe()
        try:
            child = os.posix_spawn(sys.executable, [sys.executable, "-I", "-c", HASH_PROGRAM, path], os.environ,
                                   file_actions=[(os.POSIX_SPAWN_DUP2, write, 1), (os.POSIX_SPAWN_CLOSE, read)])
        finally:
            os.close(write)
        with os.fdopen(read, "rb") as output:
            text = output.read().decode("utf-8", errors="replace").strip()
        _, status = os.waitpid(child, 0)
        if os.waitstatus_to_exitcode(status) == 0 and len(text) == 64:
            return text
    except OSError:
        pass
    digest = python_sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def python_sha256():
    """A SHA-256 object from Python's own implementation (`_sha2`, or `_sha256` before 3.12),
    not OpenSSL's."""
    for name in ("_sha2", "_sha256"):
        try:
            return __import__(name).sha256()
        except (ImportError, AttributeError):
            continue
    import hashlib
    return hashlib.sha256()


class Verification:
    """Hashes the model file on a thread while the runtime imports."""

    def __init__(self, path, expected):
        self.path, self.expected, self.actual, self.error = path, expected, None, None
        self.thread = threading.Thread(target=self.run, daemon=True)
        if expected:
            self.thread.start()

    def run(self):
        try:
            self.actual = file_sha256(self.path)
        except OSError as error:
            self.error = str(error)

    def problem(self):
        """None when the file is what was pinned, else one sentence."""
        if not self.expected:
            return None
        self.thread.join()
        if self.error:
            return f"cannot read {self.path}: {self.error}"
        if self.actual != self.expected:
            return (f"the model file {self.path} has SHA-256 {self.actual}, expected {self.expected}: "
                    "it is damaged or not the pinned model; reinstall it (make models)")
        return None
