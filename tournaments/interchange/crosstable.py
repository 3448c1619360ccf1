"""The cross table as tab-separated text in the Swiss Perfect export layout (cbjd_rules.md section 3.2).

Header ``No Name Feder IntlId LocId Rtg Loc Title Total 1 2 ...``; one row per entry in standings order.
``No`` is the pairing number, ``Feder`` the state (UF), ``LocId`` the CBJD ID, ``Rtg`` the FMJD rating,
``Loc`` the national rating, ``Total`` the game points. Each round cell is ``opp:result`` with ``W``/``D``/``L``
for a played game or micro-match (its overall result), ``+``/``-`` for a forfeit win/loss (double forfeit:
``-``), ``0:+`` for the pairing-allocated bye worth a win (``0:=`` worth a draw), ``0:=`` for an absence given
the draw value and ``0:`` when the player had no opponent and no points (absence, withdrawal, late entry).
"""

from ..safetext import neutralise_formula, one_line
from ..standings import number, tournament_standings

HEADER = ["No", "Name", "Feder", "IntlId", "LocId", "Rtg", "Loc", "Title", "Total"]


def _cell(record, bye_is_win):
    kind = record.kind
    if kind == "pab":
        return "0:+" if bye_is_win else "0:="
    if kind in ("absent", "withdrawn", "late"):
        return "0:=" if record.points > 0 else "0:"
    if kind == "forfeit_win":
        return f"{record.opponent}:+"
    if kind in ("forfeit_loss", "double_forfeit"):
        return f"{record.opponent}:-"
    mine, theirs = record.points, record.opponent_points
    return f"{record.opponent}:{'W' if mine > theirs else 'L' if mine < theirs else 'D'}"


def _clean(text):
    """User text as one cell: on one line, no tab, and never read as a formula by a spreadsheet."""
    return neutralise_formula(one_line(text))


def crosstable_sp(tournament, public=False) -> str:
    st = tournament_standings(tournament, public=public, rights=False)
    rounds = st.rounds_completed
    lines = ["\t".join(HEADER + [str(r) for r in range(1, rounds + 1)])]
    bye_is_win = tournament.bye_value == "win"
    for row in st.rows:
        e = st.entries[row.id]
        p = e.player
        cells = [
            str(row.id),
            _clean(p.name),
            _clean(p.state),
            "",
            _clean(p.cbjd_id),
            str(e.fmjd_rating or ""),
            str(e.rating or ""),
            _clean(p.title),
            str(number(row.points)),
        ]
        cells += [_cell(rec, bye_is_win) for rec in st.history[e.pk][:rounds]]
        lines.append("\t".join(cells))
    return "\n".join(lines) + "\n"
