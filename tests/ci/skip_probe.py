"""Not collected by a normal run (its name does not start with test_): tests/test_ci_skips.py runs it on purpose,
in a pytest of its own, to see what CI makes of its skips."""

import pytest


def test_skipped_because_something_is_missing():
    pytest.skip("needs Chromium: absent")


@pytest.mark.skipif(True, reason="row locks are real only on PostgreSQL (SQLite serialises writers)")
def test_skipped_on_sqlite_only():
    pass


def test_passes():
    assert True
