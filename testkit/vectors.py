"""The pairing reference cases (bbpPairings 6.0.0, FIDE Dutch 2026), carried in the repository.

``tests/data/pairing-vectors.tar.xz`` holds ``README.md`` and ``cases/NAME.trf`` + ``cases/NAME.pairs`` for
1,894 cases (about 25 MB unpacked, 0.7 MB packed). The archive is read once per process, in memory.
"""

import tarfile
from functools import cache
from pathlib import Path

ARCHIVE = Path(__file__).resolve().parents[1] / "tests" / "data" / "pairing-vectors.tar.xz"


@cache
def _members() -> dict[str, str]:
    with tarfile.open(ARCHIVE) as tf:
        out = {}
        for m in tf:
            if m.isfile() and m.name.startswith("cases/"):
                out[m.name[len("cases/") :]] = tf.extractfile(m).read().decode("latin-1")
        return out


def names() -> list[str]:
    """Every case name (``tSSSSSS-nPPP-rKK``), sorted."""
    return sorted(n[: -len(".trf")] for n in _members() if n.endswith(".trf"))


def trf_text(name: str) -> str:
    """The case's input: the tournament cut just before the round to pair."""
    return _members()[f"{name}.trf"]


def expected_pairs(name: str) -> str:
    """The reference engine's pairing of that round, in the ``-p`` output format."""
    return _members()[f"{name}.pairs"]


def write_case(name: str, folder: Path) -> Path:
    """Write the case's TRF into ``folder`` (for tests of the command line); returns its path."""
    path = Path(folder) / f"{name}.trf"
    path.write_bytes(trf_text(name).encode("latin-1"))
    return path
