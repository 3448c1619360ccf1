"""The regulation's tests share the stage of the audit's attempts (``build``: paired here, every round published
with its results, sent on time)."""

from tests.regulation.test_bending_attempts import build  # noqa: F401  (the fixture)
