"""Every reference case: the engine must reproduce bbpPairings 6.0.0 exactly (cases carried in tests/data)."""

import pytest

from pairing import trf
from pairing.__main__ import format_pairs
from pairing.api import pair_trf
from testkit import vectors

CASES = vectors.names()


def test_every_reference_case_is_carried():
    assert len(CASES) == 1894


@pytest.mark.parametrize("name", CASES)
def test_reference_case(name):
    expected = vectors.expected_pairs(name).split()
    result = pair_trf(trf.parse(vectors.trf_text(name)))
    assert format_pairs(result).split() == expected
