"""Tournament files in and out: the JSON interchange file (backup, restore, import), TRF for single-game
tournaments, Swiss Perfect 98 files (in), and the Swiss Perfect cross table (out).

Public API::

    export_data(tournament) -> dict            export_json(tournament) -> str
    import_data(dict, user=None) -> Tournament import_json(text, user=None) -> Tournament
    export_trf(tournament) -> str              import_trf(text, user=None) -> Tournament
    crosstable_sp(tournament) -> str           the cross table as Swiss Perfect writes its text export
    crosstable_sp_file(tournament) -> bytes    the same as the file Swiss Perfect writes (Windows-1252)
    Swiss Perfect 98 files in (swissperfect.py, dBase reader dbase.py): through import_upload / import_file
    import_upload(Upload(data, name), user=None, options=None) -> Imported    the one entry point of the staff page
    import_file(path, user=None, options=None) -> Imported                    and of ``manage.py import_tournament``
    (``options``: :class:`ImportOptions`, what the director adds: the rounds of a TRF that does not say them)

``import_upload`` decides the file's type once (``dispatch.FILE_TYPES``: by content, else by extension) and
returns the new tournament with the warnings of the import.

Every import raises :class:`InterchangeError` (messages in pt-BR naming where) and writes nothing then.
"""

from tournaments.interchange.crosstable import crosstable_sp, crosstable_sp_file
from tournaments.interchange.dispatch import (
    FILE_TYPES,
    MAX_FILE_BYTES,
    Imported,
    ImportOptions,
    Upload,
    file_type_of,
    import_file,
    import_upload,
)
from tournaments.interchange.errors import InterchangeError
from tournaments.interchange.jsonfile import FORMAT, IMPORTED_ENGINE, export_data, export_json, import_data, import_json
from tournaments.interchange.trf import export_trf, import_trf, import_trf_with_warnings, parse_trf, read_trf

__all__ = [
    "FILE_TYPES",
    "FORMAT",
    "IMPORTED_ENGINE",
    "MAX_FILE_BYTES",
    "ImportOptions",
    "Imported",
    "InterchangeError",
    "Upload",
    "crosstable_sp",
    "crosstable_sp_file",
    "export_data",
    "export_json",
    "export_trf",
    "file_type_of",
    "import_data",
    "import_file",
    "import_json",
    "import_trf",
    "import_trf_with_warnings",
    "import_upload",
    "parse_trf",
    "read_trf",
]
