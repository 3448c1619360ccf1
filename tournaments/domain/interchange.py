"""The :class:`~tournaments.domain.snapshot.Snapshot` of an interchange file (docs/interchange.md), no database.

The file is read as the importer stores it, so a file and the same file imported give the same snapshot, the same
standings and the same homologation conditions: the federation verifies a submitted stage from the file alone.
Readings:

* ``boards[].games`` are from the point of view of each game's White: ``first`` has White in game 1, ``second``
  in game 2.
* A player on no board, not the bye, not ``absent`` and without a ``one_sided`` round: before ``late_entry`` a
  late-entry round, from ``withdrawn_from`` on a withdrawal, else not paired (zero, or the imported zero-point
  bye). ``absent`` players score their absence's value (``absent_values``, else the tournament's ``absence``);
  ``absences[]`` are absences announced for rounds not paired yet.
* ``one_sided`` rounds (a round one player's line of an imported file gives alone) count for that player as
  written: ``1 = 0`` a game, ``+ -`` a forfeit, ``U`` the bye.
* ``rounds[].fingerprints``: the chain the file carries (issue 35.4; a value that is not a fingerprint is left
  out) and the reasons it gives for a change since publication, judged by
  :func:`tournaments.domain.fingerprints.chain_breaks`.
* ``scoring`` values (JSON numbers) become the domain's scores as the database keeps them: ``int`` when whole,
  else the ``Decimal`` written (``0.5``), never a float.

The file is taken as the importer validated it (``tournaments.interchange.jsonfile`` checks a file first): a
malformed file raises ``KeyError``/``ValueError``/``TypeError`` here, never a partial snapshot.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from tournaments.domain.edition import Edition, current_text, edition_in_force, shipped_by_code
from tournaments.domain.fingerprints import PAIRING, RESULTS, is_fingerprint
from tournaments.domain.model import ByeValue, Format, Number, TournamentData, UnplayedRules
from tournaments.domain.settings_lock import SettingsChange
from tournaments.domain.snapshot import (
    IMPORTED,
    SnapBoard,
    SnapCategory,
    SnapEntry,
    SnapOneSided,
    SnapOpening,
    SnapPlayer,
    SnapRound,
    SnapSettings,
    Snapshot,
    exact,
    played_ratings,
    stage_settings,
    standings_input,
)
from tournaments.domain.text import clean


def _score(value: int | float | str) -> Number:
    return exact(str(value))


def _date(value: Any) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) and value else None


def _opening(value: Any) -> SnapOpening | None:
    return SnapOpening(str(value)) if value else None


def file_edition(t: dict[str, Any], editions: Iterable[Edition] = ()) -> Edition:
    """The edition a file's stage is judged by: the one in force on its start date among ``editions`` (the
    federation's published ones) and the shipped ones; the current text when none is (issue 35.1). The file's
    ``edition`` code is only what the venue said: a code that is not the one in force is
    :func:`edition_differences`'s finding."""
    known = {**shipped_by_code(), **{e.code: e for e in editions}}
    return edition_in_force(known.values(), _date(t.get("start_date"))) or current_text()


def edition_differences(t: dict[str, Any], settings: SnapSettings) -> list[tuple[str, Any, Any]]:
    """A circuit stage's file values that are not its edition's: (key, the file's, the edition's), the edition's
    code first. They are not applied (the snapshot takes the edition's); the verification reports them."""
    if not settings.circuit_stage:
        return []
    out: list[tuple[str, Any, Any]] = []
    if t.get("edition") and t["edition"] != settings.edition.code:
        out.append(("edition", t["edition"], settings.edition.code))
    for key, value in settings.edition.settings_values().items():
        if key in t and t[key] != value:
            out.append((key, t[key], value))
    return out


# ``data`` is the parsed JSON file: ``Any`` is its honest type.
def settings_from_interchange(
    t: dict[str, Any], provisional_rating: int | None = None, editions: Iterable[Edition] = ()
) -> SnapSettings:
    """The file's settings; for a circuit stage (``circuit_stage``, true unless the file says false) its
    edition's numbers and readings in place of the file's (:func:`edition_differences` lists those that differ)."""
    sc = t.get("scoring") or {}
    tiebreaks = t.get("tiebreaks", "cbjd")
    rating_list = t.get("rating_list") or {}
    edition = file_edition(t, editions)
    circuit_stage = t.get("circuit_stage", True) is not False
    # a value of unplayed rounds the file does not give: the one the stage's edition fixes (issue 35.1); one it
    # gives is what its rounds were scored with, kept (the homologation's ``unplayed_values`` names a difference)
    fixed = edition.fixed_unplayed() if circuit_stage else {}
    settings = SnapSettings(
        name=str(t.get("name") or ""),
        slug=str(t.get("slug") or ""),
        city=str(t.get("city") or ""),
        state=str(t.get("state") or ""),
        venue=str(t.get("venue") or ""),
        chief_arbiter=str(t.get("chief_arbiter") or ""),
        start_date=_date(t.get("start_date")),
        end_date=_date(t.get("end_date")),
        time_zone=t.get("time_zone") or "America/Sao_Paulo",
        variant=t.get("variant") or "brazilian-64",
        format=Format(t.get("format", "micro-match")),
        planned_rounds=int(t.get("rounds", 0) or 0),
        minutes_per_game=int(t.get("minutes_per_game", 21)),
        score_win=_score(sc.get("win", 2)),
        score_draw=_score(sc.get("draw", 1)),
        score_loss=_score(sc.get("loss", 0)),
        score_forfeit_loss=None if sc.get("forfeit_loss") is None else _score(sc["forfeit_loss"]),
        score_zero_bye=None if sc.get("zero_bye") is None else _score(sc["zero_bye"]),
        bye_value=ByeValue(t.get("bye") or fixed.get("bye_value") or "win"),
        bye_points=None if t.get("bye_points") is None else _score(t["bye_points"]),
        absence_value=t.get("absence") or fixed.get("absence_value") or "zero",
        acceleration=t.get("acceleration") or "none",
        tiebreak_profile="cbjd" if tiebreaks == "cbjd" else "custom",
        tiebreak_keys=() if tiebreaks == "cbjd" else tuple(tiebreaks),
        tiebreak_edition=UnplayedRules(t.get("tiebreak_edition") or "fide2026"),
        corrected_progressive_cut=int(t.get("corrected_progressive_cut", 1)),
        corrected_progressive_unplayed=bool(t.get("corrected_progressive_unplayed", True)),
        progressive_move=t.get("progressive_move") or "end",
        top3_order=t.get("top3_order") or "buchholz",
        top3_scope=t.get("top3_scope") or "tie",
        direct_encounter_scope=t.get("direct_encounter_scope") or "pair",
        acceleration_order=t.get("acceleration_order") or "buchholz",
        provisional_rating=provisional_rating or int(t.get("provisional_rating", 1600)),
        participant_rule=t.get("participant_rule") or "played",
        spot_tie_rule=t.get("spot_tie_rule") or "committee",
        min_participants=int(t.get("min_participants", 30)),
        pairing_program_rule=t.get("pairing_program_rule") or "named",
        opening_table=str(t.get("opening_table") or ""),
        rating_list_name=str(rating_list.get("name") or ""),
        rating_list_date=_date(rating_list.get("date")),
        time_unit=t.get("time_unit") or "game",
        tablita_100=t.get("tablita_100") or "required",
        unrated_in_average=t.get("unrated_in_average") or "provisional",
        spots_min_entries=int(t.get("spots_min_entries", 0)),
        double_spot_rule=t.get("double_spot_rule") or "both",
        circuit_stage=circuit_stage,
        edition=edition,
    )
    return stage_settings(settings)


def _entry(p: dict[str, Any]) -> SnapEntry:
    pid = p["id"]
    player = SnapPlayer(
        name=p.get("name", str(pid)),
        state=p.get("state") or "",
        sex=p.get("sex") or "",
        birth_date=_date(p.get("birth_date")),
        birth_year=p.get("birth_year"),
        club=p.get("club") or "",
        cbjd_id=p.get("cbjd_id") or None,
        title=p.get("title") or "",
        federation=p.get("federation") or "",
        foreign_id=p.get("foreign_id") or "",
        title_as_written=p.get("title_as_written") or "",
    )
    withdrawn = p.get("withdrawn_from")
    return SnapEntry(
        pk=pid,
        number=pid,
        pairing_number=pid,
        rating=p.get("rating"),
        player=player,
        fmjd_rating=p.get("fmjd_rating"),
        withdrawn_from_round=withdrawn,
        withdrawal_kind=p.get("withdrawal") or ("approved" if withdrawn else ""),
        late_entry_round=p.get("late_entry"),
        declared_adult=bool(p.get("declared_adult", False)),
        rating_kept_reason=p.get("rating_kept_reason") or "",
        categories=tuple(p.get("categories") or ()),
        accelerations=tuple(p.get("accelerations") or ()),
        points_adjustment=Decimal(str(p.get("points_adjustment") or 0)),
        points_adjustment_reason=p.get("points_adjustment_reason") or "",
        adjustment_lines=tuple(p.get("trf_299") or ()),
    )


def _round(r: dict[str, Any], absences: dict[tuple[int, int], str]) -> SnapRound:
    number = r["number"]
    boards = tuple(
        SnapBoard(
            number=b.get("board", i),
            first=b["first"],
            second=b["second"],
            games=tuple((n, code) for n, code in enumerate(b.get("games") or (), start=1)),
            opening=_opening(b.get("opening")),
            colourless=bool(b.get("colourless", False)),
        )
        for i, b in enumerate(r.get("boards") or (), start=1)
    )
    own = r.get("absent_values") or {}
    for pid in r.get("absent") or ():
        absences[(pid, number)] = own.get(str(pid), "")
    one_sided = tuple(
        SnapOneSided(item["player"], item.get("opponent"), item.get("colour") or "", item["result"])
        for item in r.get("one_sided") or ()
    )
    engine = r.get("engine")
    found = r.get("fingerprints")
    prints: dict[str, Any] = found if isinstance(found, dict) else {}
    return SnapRound(
        number=number,
        status=r.get("status") or "published",
        boards=boards,
        byes=() if r.get("bye") is None else (r["bye"],),
        one_sided=one_sided,
        opening=_opening(r.get("opening")),
        engine=engine.strip()[:120] if isinstance(engine, str) and engine.strip() else IMPORTED,
        manually_edited=bool(r.get("manually_edited", False)),
        fingerprints=(_print(prints.get(PAIRING)), _print(prints.get(RESULTS))),
        fingerprint_reasons=(_reasons(prints, PAIRING), _reasons(prints, RESULTS)),
    )


def _print(value: Any) -> str:
    """A fingerprint the file carries ("" when none, or not one: 12 hexadecimal digits)."""
    return str(value) if is_fingerprint(value) else ""


def _reasons(prints: dict[str, Any], kind: str) -> tuple[str, ...]:
    """The reasons the file gives for a change of the round's pairing or results since it was published (the venue's
    audit lines), each made safe to show (one line, 200 characters at most)."""
    reasons = prints.get("reasons")
    items = reasons.get(kind) if isinstance(reasons, dict) else None
    if not isinstance(items, list):
        return ()
    return tuple(clean(x, 200) for x in items if isinstance(x, str) and x.strip())


def snapshot_from_interchange(
    data: dict[str, Any],
    *,
    public: bool = False,
    provisional_rating: int | None = None,
    editions: Iterable[Edition] = (),
) -> Snapshot:
    """The snapshot of an interchange file (every round, drafts included; ``public``: the published ones only)."""
    players = data.get("players") or []
    ids = [p["id"] for p in players]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate player ids")
    absences: dict[tuple[int, int], str] = {}
    rounds = tuple(
        _round(r, absences)
        for r in sorted(data.get("rounds") or (), key=lambda r: r["number"])
        if not public or (r.get("status") or "published") == "published"
    )
    for a in data.get("absences") or ():
        absences.setdefault((a["player"], a["round"]), a.get("value", ""))
    changes = tuple(
        SettingsChange(
            c["field"],
            c.get("before"),
            c.get("after"),
            datetime.fromisoformat(c["at"]),
            c.get("by", ""),
            c["reason"],
        )
        for c in data.get("settings_changes") or ()
    )
    entries = tuple(sorted((_entry(p) for p in players), key=lambda e: e.number))
    return Snapshot(
        settings=settings_from_interchange(data["tournament"], provisional_rating, editions),
        entries=entries,
        rounds=rounds,
        categories=tuple(SnapCategory(c["code"], c.get("name", "")) for c in data.get("categories") or ()),
        absences=absences,
        public=public,
        settings_changes=changes,
        played_ratings=played_ratings(entries, changes),  # the file's ratings are the current ones (issue 35.3)
    )


def tournament_from_interchange(
    data: dict[str, Any], rounds_completed: int | None = None, provisional_rating: int | None = None
) -> TournamentData:
    """The standings' input of an interchange file: :func:`standings_input` of its snapshot (the counted rounds,
    or the first ``rounds_completed`` of them)."""
    snapshot = snapshot_from_interchange(data, provisional_rating=provisional_rating)
    if rounds_completed is not None:
        snapshot = replace(snapshot, rounds=snapshot.rounds[:rounds_completed])
    return standings_input(snapshot)
