"""The pairing engine is pure Python: these tests need neither Django nor a database."""

import sys
from pathlib import Path

import pytest

# The project root must be importable (the lead's pytest config sets pythonpath = .).
ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


@pytest.fixture(autouse=True)
def _fast_password_hashing():
    """Overrides the project-wide autouse fixture (which needs pytest-django's
    ``settings``) so that ``pytest tests/pairing -p no:django`` works."""
    yield
