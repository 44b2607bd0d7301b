"""The worker's tests (pytest; configuration in ../pyproject.toml). A package, so that the tests
and make_golden.py import golden_values as tests.golden_values."""
