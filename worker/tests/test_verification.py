"""The model file's SHA-256, computed in a child process, and the sentence when it differs."""

import hashlib

import pytest

from parley_worker.verification import Verification, file_sha256, python_sha256


@pytest.fixture
def model(tmp_path):
    """A model file of over one 1 MiB block, and its SHA-256."""
    path = tmp_path / "model.bin"
    data = bytes(range(256)) * 5000
    path.write_bytes(data)
    return str(path), hashlib.sha256(data).hexdigest()


def test_file_sha256(model):
    path, digest = model
    assert file_sha256(path) == digest


def test_pythons_own_hash():
    digest = python_sha256()
    digest.update(b"abc")
    assert digest.hexdigest() == hashlib.sha256(b"abc").hexdigest()


def test_the_pinned_file_has_no_problem(model):
    path, digest = model
    assert Verification(path, digest).problem() is None
    assert Verification(path, "").problem() is None  # nothing pinned: not checked


def test_another_file_is_one_sentence(model):
    path, digest = model
    assert Verification(path, "0" * 64).problem() == (
        f"the model file {path} has SHA-256 {digest}, expected {'0' * 64}: "
        "it is damaged or not the pinned model; reinstall it (make models)")


def test_an_unreadable_file(model, tmp_path):
    _, digest = model
    missing = str(tmp_path / "missing.bin")
    problem = Verification(missing, digest).problem()
    assert problem.startswith(f"cannot read {missing}: "), problem
