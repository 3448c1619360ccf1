"""Tournament files in and out: the JSON interchange file (backup, restore, import), TRF for single-game
tournaments, and the Swiss Perfect style tab-separated cross table.

Public API::

    export_data(tournament) -> dict            export_json(tournament) -> str
    import_data(dict, user=None) -> Tournament import_json(text, user=None) -> Tournament
    export_trf(tournament) -> str              import_trf(text, user=None) -> Tournament
    crosstable_sp(tournament) -> str
    import_file(path, user=None) -> Tournament (by extension: .json or .trf)

Every import raises :class:`InterchangeError` (messages in pt-BR naming where) and writes nothing then.
"""

from pathlib import Path

from .crosstable import crosstable_sp
from .errors import InterchangeError
from .jsonfile import FORMAT, IMPORTED_ENGINE, export_data, export_json, import_data, import_json
from .trf import export_trf, import_trf, parse_trf

__all__ = [
    "FORMAT",
    "IMPORTED_ENGINE",
    "InterchangeError",
    "crosstable_sp",
    "export_data",
    "export_json",
    "export_trf",
    "import_data",
    "import_file",
    "import_json",
    "import_trf",
    "parse_trf",
]


def import_file(path, user=None):
    """Import a ``.json`` interchange file or a ``.trf`` file; returns the new tournament."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InterchangeError([f"arquivo {path}: não foi possível ler ({exc.strerror or exc})"]) from exc
    suffix = path.suffix.lower()
    if suffix == ".json":
        return import_json(raw, user=user)
    if suffix == ".trf" or suffix == ".txt" and raw[:3] in (b"012", b"001"):
        return import_trf(raw, user=user)
    raise InterchangeError([f"arquivo {path.name}: extensão desconhecida (use .json ou .trf)"])
