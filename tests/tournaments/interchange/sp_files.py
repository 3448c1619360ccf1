"""Swiss Perfect 98 files shaped like the real ones, written here (the tests carry their own data).

The layout is the one Swiss Perfect writes (checked against public tournament files of a national federation,
the Irish Chess Union's, which are not in the repository): ``.trn`` and ``.sco`` are dBase III tables with these
fields, in this order and these widths; some numeric fields are written as C strings, a NUL then left-over bytes;
text in Windows-1252; the file ends with 0x1A; the dBase header's date is always 1996-03-01 (no tournament
date anywhere). What those files taught, and the tests reproduce: a lone record of type 1 is the pairing bye
(or an absence when the player is marked ``ABSENT``), type 35 a point given without a game; ``WITHDRAWAL`` is the
first round out; ``BONUS`` half points fill rounds without a record; ``INTL_ID`` sometimes holds a birth date.
"""

import io
import struct
import zipfile

TRN_FIELDS = [
    ("ORDER", "N", 5),
    ("ID", "N", 5),
    ("START_NO", "C", 5),
    ("SURNAME", "C", 25),
    ("FIRSTNAME", "C", 25),
    ("FEDER", "C", 4),
    ("CLUB", "C", 30),
    ("INTL_RTG", "N", 4),
    ("LOC_RTG", "N", 4),
    ("LOC_RTG2", "N", 4),
    ("INTL_ID", "C", 12),
    ("LOC_ID", "C", 12),
    ("TITLE", "C", 3),
    ("SEX", "C", 1),
    ("BIRTH_DATE", "D", 8),
    ("LATE_ENTRY", "N", 2),
    ("WITHDRAWAL", "N", 2),
    ("ABSENT", "N", 16),
    ("BONUS", "N", 3),
    ("TECH_SCORE", "N", 3),
    ("FORB_PAIRS", "N", 3),
    ("TEAM", "N", 3),
    ("BOARD", "N", 3),
    ("MEMO", "C", 20),
]
SCO_FIELDS = [
    ("ROUND", "N", 3),
    ("WHITE", "N", 5),
    ("BLACK", "N", 5),
    ("W_SCORE", "N", 3),
    ("B_SCORE", "N", 3),
    ("W_TYPE", "N", 2),
    ("B_TYPE", "N", 2),
    ("W_SUBSCO", "N", 4),
    ("B_SUBSCO", "N", 4),
]


def dbf(fields, records, *, declared=None):
    """A dBase III table; each record a dict (missing fields blank). A value given as bytes is written as is
    (to write Swiss Perfect's NUL-ended values)."""
    header_len = 32 + 32 * len(fields) + 1
    record_len = 1 + sum(length for _, _, length in fields)
    out = bytearray(struct.pack("<B3BIHH20x", 0x03, 110, 3, 1, declared or len(records), header_len, record_len))
    for name, kind, length in fields:
        out += struct.pack("<11sc4xBB14x", name.encode(), kind.encode(), length, 0)
    out += b"\x0d"
    for rec in records:
        out += b" "
        for name, _kind, length in fields:
            value = rec.get(name, "")
            raw = value if isinstance(value, bytes) else str(value).encode("cp1252")
            out += raw[:length].ljust(length, b" ")
    out += b"\x1a"
    return bytes(out)


def ini(name="Aberto de Olinda", rounds=3, multi_games=1, team=0, arbiter="Carlos Árbitro"):
    return (
        "[Tournament Info]\r\n"
        f"Name={name}\r\nArbiter={arbiter}\r\nOrganiser=\r\nRounds={rounds}\r\nTableNosStart=1\r\n"
        f"Multi Games={multi_games}\r\nSystem=1\r\nTeam or Individual={team}\r\nUse Minor Scores=0\r\n"
        "[Standings]\r\nTie Breaks=1219,1217,\r\n"
        "[TextDump]\r\nFormatted=1\r\nInclHeader=1\r\n"
    ).encode("cp1252")


def player(pid, start, surname, first, **kw):
    rec = {"ORDER": start, "ID": pid, "START_NO": start, "SURNAME": surname, "FIRSTNAME": first, "TITLE": "0"}
    rec.update({"SEX": "0", "ABSENT": "0" * 16})
    rec.update(kw)
    return rec


def game(rnd, white, black, ws, bs, wt=1, bt=1):
    return {
        "ROUND": rnd,
        "WHITE": white,
        "BLACK": black,
        "W_SCORE": ws,
        "B_SCORE": bs,
        "W_TYPE": wt,
        "B_TYPE": bt,
        "W_SUBSCO": 0,
        "B_SUBSCO": 0,
    }


def zipped(files, saved=(2010, 9, 12, 18, 36, 0)):
    """The files in a zip, each recorded as saved at ``saved`` (as Windows' "Send to > Compressed folder" keeps
    the files' times)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, date_time=saved), data, zipfile.ZIP_DEFLATED)
    return buf.getvalue()
