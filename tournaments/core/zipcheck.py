"""The first look at an uploaded zip, before ``zipfile`` reads it: ``zipfile.ZipFile`` builds an object for every
entry of the central directory at once, so a 20 MB upload of nothing but directory entries (400,000 of them)
would take hundreds of MB before any member's size could be checked. :func:`directory_fits` reads only the end
record (22 bytes near the end of the file) and says whether the directory is small enough to open.

Issue 25, item 5: ``zipfile`` bounds a deflated member's inflation to the size its directory declares, but it
inflates a whole bzip2 or LZMA read at once (a 686-byte member became 901 MB before its size was checked). An
upload has no business with those: :func:`unsafe_member` finds a member compressed any other way than stored or
deflated, and the callers refuse the file before reading it.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable

MAX_DIRECTORY_BYTES = 256 * 1024  # a workbook or a Swiss Perfect zip has a few dozen entries (a few KB)
_END = b"PK\x05\x06"


def directory_size(data: bytes) -> int | None:
    """The size in bytes the zip end record of ``data`` gives its central directory (at least 46 bytes an entry),
    or None when there is no end record (not a zip, or a truncated one) or it defers to a zip64 record (not
    expected here)."""
    at = data.rfind(_END, max(0, len(data) - 65_536 - 22))
    if at < 0 or len(data) < at + 22:
        return None
    entries = int.from_bytes(data[at + 10 : at + 12], "little")
    size = int.from_bytes(data[at + 12 : at + 16], "little")
    if entries == 0xFFFF or size == 0xFFFFFFFF:  # zip64
        return None
    return max(size, entries * 46)


def directory_fits(data: bytes, max_bytes: int = MAX_DIRECTORY_BYTES) -> bool:
    """True when ``data`` has a zip end record whose central directory is at most ``max_bytes``."""
    size = directory_size(data)
    return size is not None and size <= max_bytes


# The compression methods an upload may use: what Excel, LibreOffice and Windows' own zip write.
SAFE_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
METHOD_NAMES = {
    9: "deflate64",
    zipfile.ZIP_BZIP2: "bzip2",
    zipfile.ZIP_LZMA: "LZMA",
    93: "Zstandard",
    95: "XZ",
    98: "PPMd",
}


def unsafe_member(infos: Iterable[zipfile.ZipInfo]) -> zipfile.ZipInfo | None:
    """The first member compressed with a method other than stored or deflate (never to be read), or None."""
    return next((info for info in infos if info.compress_type not in SAFE_METHODS), None)


def method_name(info: zipfile.ZipInfo) -> str:
    return METHOD_NAMES.get(info.compress_type, f"método {info.compress_type}")


CHUNK = 64 * 1024


def read_member(zf: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    """A member's bytes, read 64 KB at a time: ``zipfile`` bounds each piece's inflation by the piece, while a
    whole ``read()`` inflates every compressed byte of a member at once whatever size its directory declares (a
    16 KB deflated member declared 2 KB took 48 MB). Stops past ``limit`` bytes (the caller then refuses)."""
    parts, total = [], 0
    with zf.open(info) as fh:
        while chunk := fh.read(CHUNK):
            total += len(chunk)
            parts.append(chunk)
            if total > limit:
                break
    return b"".join(parts)
