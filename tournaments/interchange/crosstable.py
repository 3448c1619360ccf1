"""The cross table as Swiss Perfect writes its text export (docs/notes/cbjd_rules.md section 3.2), byte for byte in layout.

Tab-separated columns ``No Name Feder Intl Id Loc Id Rtg Loc Title Total`` then one per round; every column is
padded with spaces to its widest value (header included), the round headers are the round number right-aligned
to the width of ``No`` followed by two spaces, and the round cells are right-aligned to that width plus two.
CRLF line ends, a blank line after the header, one line per entry by pairing number (``No``), as Swiss Perfect
lists them. The file is in Windows-1252 (Swiss Perfect is a Windows program of 1998): :func:`crosstable_sp_file`.

``Feder`` is the state (UF), or the federation for a player from abroad; ``Intl Id`` the ID of another federation
(FIDE, FMJD) an imported file gave; ``Loc Id`` the CBJD ID; ``Rtg`` the FMJD rating, ``Loc`` the national
rating, ``Total`` the game points. Each round cell is ``opp:R``: ``W``/``D``/``L`` for a game played,
``+``/``-`` for a forfeit won/lost (double forfeit: ``-``); a micro-match writes one such letter per game, from the
player's side, game 1 first (``12:WD``: won game 1, drew game 2; ``9:++`` a micro-match won by forfeit), which
Swiss Perfect's one letter a round cannot say and the standings need (issue 27.10: the import reads it back, the
columns are as wide as the widest cell); without a game, as the
real Swiss Perfect exports write it, ``0:W`` for the pairing-allocated bye worth a win (``0:D`` worth a draw: the
letters W D L are what the pairing gave, + = - what was given without a game),
``0:+`` / ``0:=`` / ``0:-`` for an announced absence worth a win / half a point / nothing (``0:L`` and ``0:D``
when the imported cross table wrote them so), and ``0:`` and a space
when the player has no record that round: not in the tournament yet or any more (late entry, withdrawal), or not
paired without an announced absence (imported rounds), as Swiss Perfect writes a round without a record.

User text is one line without tabs, never a spreadsheet formula, and only characters Windows-1252 has: any other
letter becomes its base letter (``Ł`` → ``L``, ``ő`` → ``o``, ``ș`` → ``s``), anything else ``?``; the padding is
counted on the text as written, so the columns stay aligned.
"""

import unicodedata
from dataclasses import dataclass
from typing import Any

from tournaments.core.safetext import neutralise_formula, one_line
from tournaments.domain import RoundKind
from tournaments.domain.model import GameResult, Scoring
from tournaments.interchange.swissperfect import SP_HALF_KEY, SP_ZERO_KEY
from tournaments.standings import number, tournament_standings

_GAME_LETTER = {
    GameResult.WIN: "W",
    GameResult.DRAW: "D",
    GameResult.LOSS: "L",
    GameResult.FORFEIT_WIN: "+",
    GameResult.FORFEIT_LOSS: "-",
    GameResult.DOUBLE_FORFEIT: "-",
}


@dataclass(frozen=True)
class _Style:
    """How the cells are written: the bye's value, the points of a round won (a game's, or a micro-match's two
    games'), the scoring, whether rounds are micro-matches (written game by game), and the letters of a round
    without a game worth nothing (``-`` or ``L``) or half (``=`` or ``D``), as the imported cross table wrote them."""

    bye_is_win: bool
    round_win: Any
    scoring: Scoring
    micro: bool
    zero: str = "-"
    half: str = "="


HEADER = ["No", "Name", "Feder", "Intl Id", "Loc Id", "Rtg", "Loc", "Title", "Total"]
ENCODING = "cp1252"
# Letters without a Unicode decomposition to a base letter, and their closest Latin letter.
_NO_DECOMPOSITION = str.maketrans({"Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Ŧ": "T",
                                   "ŧ": "t", "ĸ": "k", "Ŋ": "N", "ŋ": "n", "ſ": "s"})  # fmt: skip


_GAME_LETTER = {
    GameResult.WIN: "W",
    GameResult.DRAW: "D",
    GameResult.LOSS: "L",
    GameResult.FORFEIT_WIN: "+",
    GameResult.FORFEIT_LOSS: "-",
    GameResult.DOUBLE_FORFEIT: "-",
}


def _cell(record, announced, style):
    """One round's cell, written in ``style`` (:class:`_Style`)."""
    kind = record.kind
    if kind is RoundKind.BYE:
        return "0:W" if style.bye_is_win else "0:D"  # what the pairing gave: W or D (an absence's half is =)
    if kind is RoundKind.ABSENT and not announced:
        return "0: "  # not paired and no absence announced (an imported round without a record)
    if kind is RoundKind.ABSENT:
        if record.points >= style.round_win:
            return "0:+"
        return f"0:{style.half}" if record.points > 0 else f"0:{style.zero}"
    if kind in (RoundKind.WITHDRAWN, RoundKind.NOT_ENTERED):
        return "0:=" if record.points > 0 else "0: "  # a round without a record, as Swiss Perfect writes it
    if style.micro and record.games:
        # a micro-match: each game's letter from this player's side, game 1 first (Swiss Perfect's one letter
        # cannot say how the games went, and the standings need it)
        return f"{record.opponent}:" + "".join(_GAME_LETTER[g] for g in record.games)
    if kind is RoundKind.FORFEIT_WIN:
        return f"{record.opponent}:+"
    if kind in (RoundKind.FORFEIT_LOSS, RoundKind.DOUBLE_FORFEIT):
        return f"{record.opponent}:-"
    mine = record.points
    theirs = sum(style.scoring.game_points(g.mirror) for g in record.games)
    return f"{record.opponent}:{'W' if mine > theirs else 'L' if mine < theirs else 'D'}"


def cp1252_text(text: str) -> str:
    """``text`` with only characters Windows-1252 can write: each other one becomes its base letter (accents
    dropped) when that can be written, else ``?``."""
    out = []
    for ch in text:
        try:
            ch.encode(ENCODING)
        except UnicodeEncodeError:
            base = "".join(
                c
                for c in unicodedata.normalize("NFKD", ch.translate(_NO_DECOMPOSITION))
                if not unicodedata.combining(c)
            )
            try:
                base.encode(ENCODING)
            except UnicodeEncodeError:
                base = ""
            ch = base or "?"
        out.append(ch)
    return "".join(out)


def _clean(text):
    """User text as one cell: on one line, no tab, Windows-1252 only, and never read as a formula by a
    spreadsheet."""
    return neutralise_formula(cp1252_text(one_line(text or "")).replace("\t", " "))


def crosstable_sp(tournament, public=False) -> str:
    """The text of the cross table (every character one Windows-1252 can write)."""
    st = tournament_standings(tournament, public=public, rights=False, categories=())
    rounds = st.counted
    settings = st.snapshot.settings
    games = settings.games_per_round
    header = tournament.trf_header or {}
    style = _Style(
        bye_is_win=settings.bye_value == "win",
        round_win=settings.score_win * games,
        scoring=settings.scoring,
        micro=games > 1,
        # as the imported file wrote them
        zero="L" if header.get(SP_ZERO_KEY) == "L" else "-",
        # D is the bye's letter when the bye is worth a draw: an absence's half point is then always =
        half="D" if header.get(SP_HALF_KEY) == "D" and settings.bye_value == "win" else "=",
    )
    announced = st.snapshot.absences
    table = []
    for row in sorted(st.rows, key=lambda r: r.id):
        e = st.entries[row.id]
        p = e.player
        cells = [
            str(row.id),
            _clean(p.name),
            _clean(p.state or p.federation),
            _clean(p.foreign_id),
            _clean(p.cbjd_id),
            str(e.fmjd_rating or ""),
            str(e.rating or ""),
            _clean(p.title),
            str(number(row.points)),
        ]
        records = st.records[e.pk]
        table.append(
            (
                cells,
                [_cell(rec, (e.pk, rnd.number) in announced, style) for rnd, rec in zip(rounds, records)],
            )
        )
    widths = [max([len(h)] + [len(cells[i]) for cells, _ in table]) for i, h in enumerate(HEADER)]
    w_no = widths[0]
    # a round's column: the width of No and two spaces, wider when a micro-match's cells are (``12:WD``)
    w_round = max([w_no + 2] + [len(r) for _, results in table for r in results])
    lines = [
        "\t".join(
            [h.ljust(w) for h, w in zip(HEADER, widths)] + [f"{r:>{w_round - 2}}  " for r in range(1, len(rounds) + 1)]
        )
    ]
    lines.append("")
    for cells, results in table:
        lines.append("\t".join([c.ljust(w) for c, w in zip(cells, widths)] + [r.rjust(w_round) for r in results]))
    return "\r\n".join(lines) + "\r\n"


def crosstable_sp_file(tournament, public=False) -> bytes:
    """The cross-table file as Swiss Perfect writes it: the text in Windows-1252."""
    return crosstable_sp(tournament, public=public).encode(ENCODING)
