"""Every reference case: the engine must reproduce bbpPairings 6.0.0 exactly."""
from pathlib import Path

import pytest

from pairing import trf
from pairing.__main__ import format_pairs
from pairing.api import pair_trf

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "pairing-vectors"
CASES = sorted(p.stem for p in (VECTORS / "cases").glob("*.trf"))


@pytest.mark.skipif(not CASES, reason="pairing vectors not available")
@pytest.mark.parametrize("name", CASES)
def test_reference_case(name):
    case = VECTORS / "cases" / name
    expected = (case.with_suffix(".pairs")).read_text().split()
    result = pair_trf(trf.read(str(case.with_suffix(".trf"))))
    assert format_pairs(result).split() == expected
