"""The first look at an uploaded zip, before ``zipfile`` reads it: ``zipfile.ZipFile`` builds an object for every
entry of the central directory at once, so a 20 MB upload of nothing but directory entries (400,000 of them)
would take hundreds of MB before any member's size could be checked. :func:`directory_fits` reads only the end
record (22 bytes near the end of the file) and says whether the directory is small enough to open.
"""

from __future__ import annotations

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
