"""One way in for every tournament file: the staff "importar" page and ``manage.py import_tournament`` both call
:func:`import_upload` (the command through :func:`import_file`).

The file's type is decided once, here: by its content when the content says it clearly, else by its extension.
Each type is one :class:`FileType` in :data:`FILE_TYPES`; a new format is one more entry (a test that the content
is of that type, its extensions, and its importer). Every importer is all-or-nothing and raises
:class:`InterchangeError` with pt-BR messages naming where the problem is.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from tournaments.interchange import notices
from tournaments.interchange.errors import InterchangeError
from tournaments.interchange.limits import MAX_FILE_BYTES

logger = logging.getLogger(__name__)

if TYPE_CHECKING:
    from tournaments.models import Tournament


@dataclass(frozen=True)
class Upload:
    """A file handed in by a user: its bytes, its name as given, and where it is on disk when it is there (the
    command line), for formats whose tournament is spread over sibling files."""

    data: bytes
    name: str
    path: Path | None = None

    @property
    def extension(self) -> str:
        return Path(self.name).suffix.lower()


@dataclass(frozen=True)
class ImportOptions:
    """What the director adds to a file at import: the number of rounds, for a file that does not say it (a TRF
    without ``XXR``/``142``), the web address of the new tournament (else the file's, or one made from its
    name), and two readings of a TRF (issue 38): its declared points rather than its results' sum, and its
    complete rounds without the round in progress."""

    rounds: int | None = None
    slug: str | None = None  # another web address, to import a copy of a tournament this database already has
    # a TRF whose declared points differ from its results: the declared points count (the difference as points
    # outside the games, with the reason), not the results' sum
    follow_declared_points: bool = False
    # a TRF whose round in progress (paired, results not all in) contradicts itself: import the complete rounds
    leave_out_round_in_progress: bool = False


@dataclass
class Imported:
    """What an import created, the type of file it was, and what was read with a warning (pt-BR, one per line:
    data the product keeps in another form, or lines of the file it does not use), every one, what changes points,
    pairings or rights first (``notices``)."""

    tournament: Tournament
    file_type: str
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class FileType:
    key: str
    label: str  # pt-BR, as the error message lists the accepted types
    extensions: tuple[str, ...]
    looks_like: Callable[[bytes], bool]  # the content is clearly of this type
    load: Callable[[Upload, Any, ImportOptions], Imported]  # (upload, user, options) -> Imported


def _text_start(data: bytes, size: int = 4096) -> str:
    head = data[:size]
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    return head.decode("latin-1")


def _looks_like_json(data: bytes) -> bool:
    return _text_start(data).lstrip().startswith("{")


def _looks_like_trf(data: bytes) -> bool:
    from pairing.trf import looks_like_trf

    return looks_like_trf(_text_start(data, 64 * 1024))


def _load_json(upload: Upload, user: Any, options: ImportOptions) -> Imported:
    from tournaments.interchange.jsonfile import import_json

    return Imported(import_json(upload.data, user=user, slug=options.slug), "json")


def _load_trf(upload: Upload, user: Any, options: ImportOptions) -> Imported:
    from tournaments.interchange.trf import import_trf_file

    tournament, warnings = import_trf_file(
        upload.data,
        user=user,
        rounds=options.rounds,
        slug=options.slug,
        follow_declared=options.follow_declared_points,
        leave_out_in_progress=options.leave_out_round_in_progress,
    )
    return Imported(tournament, "trf", warnings)


def _looks_like_sp_native(data: bytes) -> bool:
    from tournaments.interchange.swissperfect import looks_like_sp_dbase, looks_like_sp_zip

    return looks_like_sp_zip(data) or looks_like_sp_dbase(data)


def _load_sp_native(upload: Upload, user: Any, options: ImportOptions) -> Imported:
    from tournaments.interchange.swissperfect import import_native

    tournament, warnings = import_native(upload, user, slug=options.slug)
    return Imported(tournament, "swissperfect", warnings)


def _looks_like_sp_text(data: bytes) -> bool:
    from tournaments.interchange.swissperfect import looks_like_sp_text

    return looks_like_sp_text(data)


def _load_sp_text(upload: Upload, user: Any, options: ImportOptions) -> Imported:
    from tournaments.interchange.swissperfect import import_text

    tournament, warnings = import_text(upload, user, slug=options.slug)
    return Imported(tournament, "swissperfect-text", warnings)


FILE_TYPES: list[FileType] = [
    FileType("json", "arquivo de intercâmbio (.json)", (".json",), _looks_like_json, _load_json),
    FileType("trf", "TRF (.trf, .trfx, .txt, .tab)", (".trf", ".trfx", ".txt", ".tab"), _looks_like_trf, _load_trf),
    FileType(
        "swissperfect",
        "Swiss Perfect 98 (.zip com .ini, .trn e .sco)",
        (".zip", ".trn", ".sco", ".ini"),
        _looks_like_sp_native,
        _load_sp_native,
    ),
    FileType(
        "swissperfect-text",
        "tabela cruzada exportada pelo Swiss Perfect (.txt)",
        (".txt",),
        _looks_like_sp_text,
        _load_sp_text,
    ),
]


def file_type_of(upload: Upload) -> FileType:
    """The type of ``upload``: the only type its content looks like, else the one its extension names."""
    by_content = [ft for ft in FILE_TYPES if ft.looks_like(upload.data)]
    if len(by_content) == 1:
        return by_content[0]
    candidates = by_content or FILE_TYPES
    named = [ft for ft in candidates if upload.extension in ft.extensions]
    if len(named) > 1 and not by_content:
        # the extension fits several formats and the content none: say so rather than blame one of them
        raise InterchangeError(
            [
                f"arquivo {upload.name}: o conteúdo não é de nenhum dos formatos {upload.extension} aceitos ("
                + "; ".join(ft.label for ft in named)
                + "): um TRF tem linhas 001 de jogadores, a tabela cruzada do Swiss Perfect começa pelo cabeçalho "
                "“No Name …”"
            ]
        )
    if named:
        return named[0]
    accepted = "; ".join(ft.label for ft in FILE_TYPES)
    raise InterchangeError([f"arquivo {upload.name}: tipo de arquivo não reconhecido (aceitos: {accepted})"])


def import_upload(upload: Upload, *, user: Any = None, options: ImportOptions | None = None) -> Imported:
    """Create a tournament from a file of any accepted type (all-or-nothing); the user becomes its director."""
    try:
        with transaction.atomic():
            imported = _import(upload, user, options or ImportOptions())
            record_provenance(imported, upload)
    except InterchangeError as exc:
        logger.info("import of %s refused: %s", upload.name, exc.one_line())
        raise
    logger.info(
        "%s: imported from %s (%s, %s warnings)",
        imported.tournament.slug,
        upload.name,
        imported.file_type,
        len(imported.warnings),
    )
    return imported


# the program a file's format says wrote it, when its rounds do not name one
FORMAT_PROGRAM = {"swissperfect": "Swiss Perfect 98", "swissperfect-text": "Swiss Perfect 98"}


def record_provenance(imported: Imported, upload: Upload) -> None:
    """Mark the event imported, with the file's provenance (issue 35.4): its name, its SHA-256, its format and the
    program it names (its rounds', or its format's). Recorded by the import, never typed. A file that carries the
    provenance of an earlier import (a JSON export of an imported event) keeps it. The rounds a file leaves
    unnamed are the format's program's, when the format says one."""
    from tournaments.domain.snapshot import IMPORTED
    from tournaments.models import Round

    tournament = imported.tournament
    if tournament.provenance:
        return
    fallback = FORMAT_PROGRAM.get(imported.file_type, "")
    if fallback:
        Round.objects.filter(tournament=tournament, engine__in=["", IMPORTED]).update(engine=fallback)
    named = sorted(set(Round.objects.filter(tournament=tournament).values_list("engine", flat=True)) - {"", IMPORTED})
    tournament.provenance = {
        "file": " ".join(upload.name.split())[:200],
        "sha256": hashlib.sha256(upload.data).hexdigest(),
        "format": imported.file_type,
        "program": ", ".join(named)[:200],
        "at": timezone.now().isoformat(timespec="seconds"),
    }
    tournament.save(update_fields=["provenance"])


def _import(upload: Upload, user: Any, options: ImportOptions) -> Imported:
    if len(upload.data) > MAX_FILE_BYTES:
        raise InterchangeError([f"arquivo {upload.name}: grande demais (mais de {MAX_FILE_BYTES // (1024 * 1024)} MB)"])
    if not upload.data.strip():
        raise InterchangeError([f"arquivo {upload.name}: vazio"])
    imported = file_type_of(upload).load(upload, user, options)
    imported.warnings = notices.by_consequence(imported.warnings)  # what changes points first (issue 38.2)
    return imported


def import_file(path: str | Path, *, user: Any = None, options: ImportOptions | None = None) -> Imported:
    """:func:`import_upload` of a file on disk (the command line)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InterchangeError([f"arquivo {path}: não foi possível ler ({exc.strerror or exc})"]) from exc
    return import_upload(Upload(data, path.name, path), user=user, options=options)
