"""Rounds as the public and printed pages show them: boards with results seen from the first player, who sat
out and why, every entry by name, and each entry's card (opponents, colours, games, running score).

Everything is read once per page by ``PublicData`` (published rounds only, unless the tournament's staff prints a
draft) and handed to the templates as plain rows, numbers already formatted in the active locale.
"""

import logging
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

from django.http import Http404
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _

from tournaments.core.labels import kind_label, one_sided_label, player_outcome, show_code
from tournaments.models import Category
from tournaments.rounds.scoring import MIRROR, board_points, is_complete, white_is_first
from tournaments.selectors import board_pair, entries_in_order, scoring_of, tournament_history
from tournaments.standings import selectors as standings_module
from tournaments.templatetags.damas import board_svg_markup, fmt_number

logger = logging.getLogger(__name__)


def sort_key(name):
    """Alphabetical order that ignores accents and case (Á sorts with A)."""
    text = unicodedata.normalize("NFKD", name or "")
    return "".join(c for c in text if not unicodedata.combining(c)).casefold()


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


def one_sided_row(entry, record, opponent, micro, fmt):
    """A round an imported file recorded for ``entry`` alone (a ``selectors.RoundRecord`` with ``one_sided``):
    the opponent its line names (an Entry, or None for a bye), the colour, the game as that line gives it from the
    player's side (none when the line gives no colour), the label that says it is on that line alone, and the
    points it counts. The one presentation of such a round: the player card and the round pages use it."""
    games = []
    code = None
    if record.opponent is not None and record.colour:
        for number, stored in sorted(record.results.items()):
            white = record.colour == "w"
            code = stored if white else MIRROR[stored]
            games.append(
                {
                    "number": number,
                    "white": white,
                    "code": code,
                    "show": show_code(code, micro),
                    "outcome": player_outcome(code),
                }
            )
    return {
        "entry": entry,
        "opponent": opponent,
        "colour": record.colour,
        "games": games,
        "kind": record.kind,
        "label": one_sided_label(record.kind, code, micro),
        "points": fmt(record.points),
    }


def published_rounds(tournament, entries, published_only=True):
    """Rounds with boards, seats and games; drafts filtered out in the query (never in a template). The
    standings module's lean reader gives plain rows, several times faster than the model prefetch."""
    return standings_module.lean_rounds_with_boards(tournament, entries, published_only=published_only)


class PublicData:
    """Everything the public pages show, from a handful of queries (published rounds only)."""

    def __init__(self, tournament, include_drafts=False):
        """``include_drafts`` is for the tournament's own staff (printing a round before publishing it)."""
        self.tournament = tournament
        self.scoring = scoring_of(tournament)
        self.micro = tournament.is_micro_match
        self.entries = entries_in_order(tournament)
        self.rounds = published_rounds(tournament, self.entries, published_only=not include_drafts)
        self.by_id = {e.pk: e for e in self.entries}
        self.categories = list(Category.objects.filter(tournament=tournament).order_by("position", "code"))
        _e, _r, self.history = tournament_history(tournament, rounds=self.rounds, entries=self.entries)
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
        last = self.rounds[-1]
        return all(g.result is not None for b in last.boards.all() for g in b.games.all())

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
        for board in rnd.boards.all():
            first, second = board_pair(board)
            if first is None or second is None:
                continue
            results = {g.number: g.result for g in board.games.all()}
            p1, p2 = board_points(results, self.scoring)
            complete = is_complete(results)
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
        return [seat.entry for seat in rnd.bye_seats]

    def record(self, entry_id, number):
        """What happened to an entry in round ``number`` (a ``selectors.RoundRecord``), or None."""
        return next((r for r in self.history.get(entry_id, []) if r.round == number), None)

    def not_paired(self, rnd):
        """Entries with no seat in the round (absent, withdrawn, entered later), with what they scored. A round an
        imported file recorded for one player alone is not here: see ``one_sided``."""
        seated = {s.entry_id for b in rnd.boards.all() for s in b.seats.all()} | {s.entry_id for s in rnd.bye_seats}
        out = []
        for entry in self.entries:
            if entry.pk in seated:
                continue
            record = self.record(entry.pk, rnd.number)
            if record is not None and record.one_sided:
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
            if record is None or not record.one_sided:
                continue
            opponent = self.by_number.get(record.opponent) if record.opponent is not None else None
            row = one_sided_row(entry, record, opponent, self.micro, self.fmt)
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
            for board in rnd.boards.all():
                first, second = board_pair(board)
                if first is None or second is None:
                    continue
                index[(rnd.number, first.pk)] = index[(rnd.number, second.pk)] = (board, first, second)
        return index

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
                for game in board.games.all():
                    white = white_is_first(game.number) == am_first
                    code = None
                    if game.result:
                        code = game.result if white else MIRROR[game.result]
                    item.games.append(
                        {
                            "number": game.number,
                            "white": white,
                            "code": code,
                            "show": show_code(code, self.micro),
                            "outcome": player_outcome(code) if code else None,
                        }
                    )
            item.label = kind_label(record.kind)
            if seat is None and record.one_sided:  # a round an imported file gives for this player alone
                opponent = self.by_number.get(record.opponent) if record.opponent is not None else None
                row = one_sided_row(entry, record, opponent, self.micro, self.fmt)
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
