"""Rounds as the public and printed pages show them: boards with results seen from the first player, who sat
out and why, every entry by name, and each entry's card (opponents, colours, games, running score).

Everything is read once per page by ``PublicData`` (published rounds only, unless the tournament's staff prints a
draft) and handed to the templates as plain rows, numbers already formatted in the active locale.
"""

import logging
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property
from typing import NamedTuple

from django.http import Http404
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _

from tournaments.core.labels import kind_label, one_sided_label, player_outcome, show_code
from tournaments.domain import RoundKind
from tournaments.domain.model import Number
from tournaments.domain.names import name_sort_key
from tournaments.domain.snapshot import OffBoard, SnapOneSided, board_records, off_board, partial_points
from tournaments.rounds.scoring import MIRROR, white_is_first
from tournaments.rounds.selectors import entries_in_order
from tournaments.standings import read_snapshot
from tournaments.templatetags.damas import board_svg_markup, fmt_number

logger = logging.getLogger(__name__)


def sort_key(name):
    """Alphabetical order that ignores accents, case and apostrophes (Á sorts with A): ``domain.names``."""
    return name_sort_key(name)


def game_from_first(number, code):
    """A game's code seen from the board's first player (left), from the code seen from that game's White."""
    if code is None:
        return None
    return code if white_is_first(number) else MIRROR[code]


@dataclass
class Seen:
    """One entry's view of one round, for pairings, player cards and the cross table."""

    number: int
    kind: str
    points: Decimal
    board: int | None = None
    colour: str | None = None  # "w" first player (White in game 1), "b" second
    opponent: object = None  # Entry
    games: list = field(default_factory=list)  # dicts: number, white (own colour), code and outcome from me
    opening: object = None
    running: Decimal = Decimal(0)
    one_sided: bool = False  # a round the imported file recorded for this player alone (no board)


# A one-sided round's TRF character -> the game's code from the player's side.
ONE_SIDED_CODE = {"1": "1-0", "=": "1/2", "0": "0-1", "+": "+/-", "-": "-/+"}
# The domain's round kinds as the pages name them (labels, CSS classes): the bye is "pab", a round before a late
# entry "late"; the others as they are.
PAGE_KIND = {RoundKind.BYE: "pab", RoundKind.NOT_ENTERED: "late"}


def page_kind(kind):
    return PAGE_KIND.get(kind, str(kind))


def one_sided_row(entry, opponent, colour, code, kind, points, micro, fmt):
    """A round an imported file recorded for ``entry`` alone: the opponent its line names (an Entry, or None for a
    bye), the colour (``"w"``, ``"b"`` or ``""``), the game as that line gives it from the player's side (``code``;
    none when the line gives no colour), the label that says it is on that line alone, and the points it counts.
    The one presentation of such a round: the player card and the round pages use it."""
    games = []
    if opponent is not None and colour and code:
        games.append(
            {
                "number": 1,
                "white": colour == "w",
                "code": code,
                "show": show_code(code, micro),
                "outcome": player_outcome(code),
            }
        )
    else:
        code = None
    return {
        "entry": entry,
        "opponent": opponent,
        "colour": colour,
        "games": games,
        "kind": kind,
        "label": one_sided_label(kind, code, micro),
        "points": fmt(points),
    }


class Outcome(NamedTuple):
    """What a round gave an entry, as the pages show it: the page's kind (``page_kind``, or ``"pending"`` on a
    board without every result: the points entered so far), the points, and the one-sided round when it is one."""

    round: int
    kind: str
    points: Number
    one_sided: SnapOneSided | None = None


def outcomes(snapshot):
    """Per entry (pk), an :class:`Outcome` for every round of ``snapshot``, by number: the standings' rules
    (``domain.snapshot``: ``board_records``, ``off_board``) applied to every round, pending ones included."""
    settings = snapshot.settings
    scoring = settings.scoring
    numbers = {e.pk: e.number for e in snapshot.entries}
    out = {e.pk: [] for e in snapshot.entries}
    bye = settings.bye_round_points
    for rnd in snapshot.rounds:
        seen = set()
        for board in rnd.boards:
            first, second = board.first, board.second
            if first is None or second is None:
                continue
            if board.complete:
                r1, r2 = board_records(board, numbers, scoring)
                o1, o2 = (rnd.number, page_kind(r1.kind), r1.points), (rnd.number, page_kind(r2.kind), r2.points)
            else:
                p1, p2 = partial_points(board, scoring)
                o1, o2 = (rnd.number, "pending", p1), (rnd.number, "pending", p2)
            out[first].append(Outcome(*o1))
            out[second].append(Outcome(*o2))
            seen.update((first, second))
        for pk in rnd.byes:
            if pk in out and pk not in seen:
                out[pk].append(Outcome(rnd.number, "pab", bye))
                seen.add(pk)
        lone = {o.entry: o for o in rnd.one_sided}
        for entry in snapshot.entries:
            if entry.pk in seen:
                continue
            reason, record = off_board(snapshot, rnd, entry)
            item = lone.get(entry.pk) if reason is OffBoard.ONE_SIDED else None
            out[entry.pk].append(Outcome(rnd.number, page_kind(record.kind), record.points, item))
    return out


def published_rounds(tournament, published_only=True):
    """The rounds as the pages read them: the tournament's snapshot (``standings.read_snapshot``); drafts filtered
    out in the query (never in a template) unless ``published_only`` is False."""
    return read_snapshot(tournament, public=published_only)


class PublicData:
    """Everything the public pages show, from a handful of queries (published rounds only): the tournament's
    snapshot, and its entries as models for the templates."""

    def __init__(self, tournament, include_drafts=False, snapshot=None):
        """``include_drafts`` is for the tournament's own staff (printing a round before publishing it);
        ``snapshot``, the public one when the caller has read it already."""
        self.tournament = tournament
        self.micro = tournament.is_micro_match
        if snapshot is None:
            snapshot = published_rounds(tournament, published_only=not include_drafts)
        self.snapshot = snapshot
        self.rounds = list(self.snapshot.rounds)
        self.entries = entries_in_order(tournament)
        self.by_id = {e.pk: e for e in self.entries}
        self.categories = list(self.snapshot.categories)
        self.history = outcomes(self.snapshot)
        self.sep = formats.get_format("DECIMAL_SEPARATOR")
        # URL prefixes reversed once: a {% url %} tag per row costs more than the rest of the row.
        self.player_url = reverse("public:player", args=[tournament.slug, 0])[:-2]
        self.round_url = reverse("public:round", args=[tournament.slug, 0])[:-2]

    def fmt(self, value):
        return fmt_number(value, self.sep)

    def round(self, number):
        for rnd in self.rounds:
            if rnd.number == number:
                return rnd
        raise Http404(_("This round is not published."))

    @cached_property
    def finished(self):
        """Every planned round published with every result in: the tournament is over."""
        planned = self.tournament.planned_rounds
        if not self.rounds or self.rounds[-1].number < planned:
            return False
        return self.rounds[-1].complete

    @property
    def current(self):
        return self.rounds[-1] if self.rounds else None

    def score_before(self, number):
        """Points of every entry before round ``number``."""
        out = {}
        for entry_id, records in self.history.items():
            out[entry_id] = sum((r.points for r in records if r.round < number), Decimal(0))
        return out

    def totals(self):
        return {entry_id: sum((r.points for r in records), Decimal(0)) for entry_id, records in self.history.items()}

    def boards(self, rnd, with_scores=True):
        """Rows of the pairings-by-board table of a round."""
        before = self.score_before(rnd.number) if with_scores else {}
        rows = []
        scoring = self.snapshot.settings.scoring
        for board in rnd.boards:
            if board.first is None or board.second is None:
                continue
            first, second = self.by_id[board.first], self.by_id[board.second]
            results = board.results
            p1, p2 = partial_points(board, scoring)
            complete = board.complete
            started = any(r is not None for r in results.values())
            games = [
                {
                    "number": n,
                    "code": game_from_first(n, code),
                    "show": show_code(game_from_first(n, code), self.micro),
                    "white_is_first": white_is_first(n),
                }
                for n, code in sorted(results.items())
            ]
            rows.append(
                {
                    "number": board.number,
                    "first": first,
                    "second": second,
                    "first_url": f"{self.player_url}{first.pk}/",
                    "second_url": f"{self.player_url}{second.pk}/",
                    "url": f"{self.round_url}{rnd.number}/mesas/{board.number}/",
                    "first_before": self.fmt(before.get(first.pk)),
                    "second_before": self.fmt(before.get(second.pk)),
                    "first_points": self.fmt(p1),
                    "second_points": self.fmt(p2),
                    "complete": complete,
                    "started": started,
                    "games": games,
                    "opening": board.opening or rnd.opening,
                    "search": f"{first.player.name} {second.player.name} {first.pairing_number} {second.pairing_number}",
                }
            )
        return rows

    def bye_entries(self, rnd):
        return [self.by_id[pk] for pk in rnd.byes]

    def record(self, entry_id, number):
        """What happened to an entry in round ``number`` (an :class:`Outcome`), or None."""
        return next((r for r in self.history.get(entry_id, []) if r.round == number), None)

    def not_paired(self, rnd):
        """Entries with no seat in the round (absent, withdrawn, entered later), with what they scored. A round an
        imported file recorded for one player alone is not here: see ``one_sided``."""
        seated = {pk for b in rnd.boards for pk in (b.first, b.second)} | set(rnd.byes)
        out = []
        for entry in self.entries:
            if entry.pk in seated:
                continue
            record = self.record(entry.pk, rnd.number)
            if record is not None and record.one_sided is not None:
                continue
            kind = record.kind if record else "absent"
            out.append(
                {
                    "entry": entry,
                    "kind": kind,
                    "label": kind_label(kind),
                    "points": self.fmt(record.points if record else 0),
                }
            )
        return out

    def one_sided(self, rnd):
        """Rows (``one_sided_row``) of the rounds an imported file recorded for one player alone in ``rnd``
        (``models.OneSidedRound``), by pairing number: on no board, counted for that player as written. Read with
        the history (no query of its own); none unless the tournament has such rounds."""
        if not self.tournament.has_one_sided_rounds:
            return []
        rows = []
        for entry in self.entries:
            record = self.record(entry.pk, rnd.number)
            if record is None or record.one_sided is None:
                continue
            row, opponent = self._one_sided_row(entry, record)
            row["url"] = f"{self.player_url}{entry.pk}/"
            row["opponent_url"] = f"{self.player_url}{opponent.pk}/" if opponent is not None else ""
            rows.append(row)
        return rows

    def alphabetical(self, rnd):
        """Every entry of the round by name: board, colour and opponent (or bye / absence)."""
        before = self.score_before(rnd.number)
        rows = []
        for b in self.boards(rnd, with_scores=False):
            for me, opp, colour in ((b["first"], b["second"], "w"), (b["second"], b["first"], "b")):
                rows.append(
                    {
                        "entry": me,
                        "board": b["number"],
                        "colour": colour,
                        "opponent": opp,
                        "board_url": b["url"],
                        "before": self.fmt(before.get(me.pk)),
                        "kind": "board",
                    }
                )
        for entry in self.bye_entries(rnd):
            rows.append(
                {
                    "entry": entry,
                    "board": None,
                    "kind": "pab",
                    "label": kind_label("pab"),
                    "before": self.fmt(before.get(entry.pk)),
                }
            )
        for item in self.not_paired(rnd):
            rows.append(
                {
                    "entry": item["entry"],
                    "board": None,
                    "kind": item["kind"],
                    "label": item["label"],
                    "before": self.fmt(before.get(item["entry"].pk)),
                }
            )
        for item in self.one_sided(rnd):
            rows.append(
                {
                    "entry": item["entry"],
                    "board": None,
                    "kind": "one_sided",
                    "label": item["label"],
                    "opponent": item["opponent"],
                    "before": self.fmt(before.get(item["entry"].pk)),
                }
            )
        rows.sort(key=lambda r: (sort_key(r["entry"].player.name), r["entry"].pk))
        for row in rows:
            row["search"] = f"{row['entry'].player.name} {row['entry'].pairing_number or ''}"
            row["url"] = f"{self.player_url}{row['entry'].pk}/"
        return rows

    @cached_property
    def by_number(self):
        return {e.pairing_number: e for e in self.entries if e.pairing_number is not None}

    @cached_property
    def seat_index(self):
        """(round number, entry id) -> (board, first entry, second entry), built once for every card."""
        index = {}
        for rnd in self.rounds:
            for board in rnd.boards:
                if board.first is None or board.second is None:
                    continue
                first, second = self.by_id[board.first], self.by_id[board.second]
                index[(rnd.number, first.pk)] = index[(rnd.number, second.pk)] = (board, first, second)
        return index

    def _one_sided_row(self, entry, record):
        """(``one_sided_row``, the opponent Entry or None) of a one-sided round (an :class:`Outcome`)."""
        item = record.one_sided
        opponent = self.by_number.get(item.opponent) if item.opponent is not None else None
        code = ONE_SIDED_CODE.get(item.result)
        row = one_sided_row(entry, opponent, item.colour, code, record.kind, record.points, self.micro, self.fmt)
        return row, opponent

    def card(self, entry):
        """Every round of one entry: opponent, colours, opening, each game's result, running score."""
        seen = []
        running = Decimal(0)
        records = {r.round: r for r in self.history.get(entry.pk, [])}
        for rnd in self.rounds:
            record = records.get(rnd.number)
            if record is None:
                continue
            item = Seen(rnd.number, record.kind, record.points)
            seat = self.seat_index.get((rnd.number, entry.pk))
            if seat is not None:
                board, first, second = seat
                am_first = first.pk == entry.pk
                item.board = board.number
                item.colour = "w" if am_first else "b"
                item.opponent = second if am_first else first
                item.opening = board.opening or rnd.opening
                for number, result in board.games:
                    white = white_is_first(number) == am_first
                    code = None
                    if result:
                        code = result if white else MIRROR[result]
                    item.games.append(
                        {
                            "number": number,
                            "white": white,
                            "code": code,
                            "show": show_code(code, self.micro),
                            "outcome": player_outcome(code) if code else None,
                        }
                    )
            item.label = kind_label(record.kind)
            if seat is None and record.one_sided is not None:  # a round an imported file gives this player alone
                row, opponent = self._one_sided_row(entry, record)
                item.colour, item.opponent, item.games, item.label = row["colour"], opponent, row["games"], row["label"]
                item.one_sided = True
            running += record.points
            item.running = running
            item.points_text = self.fmt(record.points)
            item.running_text = self.fmt(running)
            seen.append(item)
        return seen


def game_viewer(t, game, op):
    """Positions of a recorded game as SVG diagrams (one per move), or None when no moves were recorded."""
    if not game.pdn.strip():
        return None
    try:
        from draughts import validate_game

        variant = "international" if t.variant == "international-100" else "brazilian"
        check = validate_game(game.pdn, variant, start_fen=op.fen if op else None)
    except Exception:  # an unreadable record must not break the page, but it is a bug of the reader: logged
        logger.warning("game %s: the recorded moves could not be read for the viewer", game.pk, exc_info=True)
        return None
    frames = [{"label": _("Start"), "svg": board_svg_markup(check.positions[0], t.variant)}] if check.positions else []
    for _index, move in enumerate(check.moves, start=1):
        label = f"{move.number}. {'' if move.side == 'W' else '… '}{move.notation}"
        frames.append({"label": label, "svg": board_svg_markup(move.fen_after, t.variant, last_move=move.notation)})
    return {"frames": frames, "ok": check.ok, "error": check.error}
