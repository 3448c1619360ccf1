"""The tournament interchange file (``damas-swiss/1``, docs/interchange.md): export and import.

Export then import (into an empty database) then export gives the same JSON. Besides the fields of the
contract the file carries optional fields that make the round trip lossless (the importer accepts files
without them and takes the defaults):

* ``tournament``: ``venue``, ``chief_arbiter``, ``time_zone``, ``absence`` (``zero``/``draw``: value of an
  announced absence), ``provisional_rating``, ``initial_colour``, ``opening_table`` (code, or null for free
  openings), ``opening_draw`` (``round``/``board``), ``tiebreak_edition``, ``progressive_move``,
  ``corrected_progressive_cut``, ``corrected_progressive_unplayed``, ``king_moves_per_player``, ``top3_order``,
  ``participant_rule``, ``spot_tie_rule``, ``pairing_program_rule``, ``rating_list`` (``{"name", "date"}``: the
  national rating list round 1 used, or null);
* ``players[]``: ``title``, ``fmjd_rating``, ``declared_adult``, ``rating_kept_reason``, ``withdrawn_from`` and
  ``withdrawal`` (``approved``/``abandonment``: an abandonment suspends the player, art. 10), ``late_entry``;
* ``rounds[]``: ``manually_edited``; ``engine`` (the engine that paired the round, so a restored backup keeps
  it; a file without it is marked ``imported``); ``boards[].opening`` when openings are drawn per board;
* ``absences``: announced absences for rounds not paired yet (``[{"round": 5, "player": 12}]``);
* ``tournament``: the readings of issue 26 (``top3_scope``, ``direct_encounter_scope``, ``acceleration_order``,
  ``time_unit``, ``tablita_100``, ``unrated_in_average``, ``spots_min_entries``, ``double_spot_rule``) and
  ``settings_changes`` (top level: the settings that decide the homologation changed after round 1, see
  :mod:`tournaments.interchange.settings_changes`).

What an imported file (TRF, Swiss Perfect) carries beyond that, optional too: ``tournament``: ``start_date_unknown`` (the
file gave no start date; the director is asked for it), ``time_control`` (as written), ``trf_header`` (the TRF
header lines no field holds); ``players[]``: ``federation``, ``foreign_id`` (FIDE or another federation's ID:
never a CBJD ID), ``title_as_written``, ``birth_year``, ``accelerations`` (virtual points per round), and ``sex``
may be ``""`` (not given); ``boards[].colourless`` (a forfeit without colours); ``rounds[].absent_values`` and
``absences[].value`` (``zero``/``draw``/``win``: an absence's own value, else the tournament's setting);
``tournament.scoring.forfeit_loss`` and ``zero_bye`` (a forfeit lost, a round not played at zero, when not worth a
loss); ``tournament.bye_points`` (points per game of the pairing-allocated bye when it is worth neither a win nor a
draw: it takes the place of ``bye``);
``forbidden`` (``[{"players": [3, 8], "from": null, "to": null}]``: players that must not meet, all mutually);
``rounds[].one_sided`` (``[{"player": 3, "opponent": 7, "colour": "w", "result": "+"}]``: a player's round as
the file writes it when the opponent's line does not say the same, or a second bye, ``"result": "U"`` with
``"opponent": null``; ``result`` is the TRF character ``1 = 0 + - U``, ``colour`` ``w``, ``b`` or ``""``).

``absent`` lists the announced absences of a paired round; a player on no board, not the bye and not
absent (a withdrawal, a late entry) is simply not listed. Import is one transaction: the whole file is
validated first, every problem is reported with where it is, and nothing is written unless the file is
clean. Imported rounds are created as they are in the file (the file is the truth), with the file's ``engine``
or ``imported``.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.audit.services import audit
from tournaments.core import cache
from tournaments.core.agreement import plural
from tournaments.core.safetext import has_control_characters, one_line
from tournaments.core.slugs import free_slug
from tournaments.domain import TIEBREAK_KEYS
from tournaments.domain.fingerprints import is_fingerprint
from tournaments.entries.services import abandonment_suspend
from tournaments.homologation.conditions import IMPORTED
from tournaments.interchange.adjustments import adjustment_in, adjustment_out
from tournaments.interchange.errors import InterchangeError
from tournaments.interchange.limits import MAX_FILE_BYTES
from tournaments.interchange.settings_changes import KEY as SETTINGS_CHANGES
from tournaments.interchange.settings_changes import (
    export_changes,
    export_tournament_extras,
    read_changes,
    read_tournament_extras,
    write_changes,
)
from tournaments.models import (
    Absence,
    Board,
    Category,
    Entry,
    ForbiddenPair,
    Game,
    OneSidedRound,
    Opening,
    OpeningTable,
    Player,
    Round,
    Seat,
    Tournament,
)
from tournaments.models.choices import (
    BRAZIL_TIME_ZONES,
    MAX_ROUNDS,
    RATING_MAX,
    RATING_MIN,
    UF_CODES,
    AbsenceValue,
    Acceleration,
    AuditAction,
    ByeValue,
    EntryStatus,
    InitialColour,
    OpeningDrawMode,
    OwnAbsenceValue,
    PairingProgramRule,
    ParticipantRule,
    ProgressiveMove,
    RoundFormat,
    RoundStatus,
    SeatSide,
    Sex,
    SpotTieRule,
    TiebreakEdition,
    TiebreakProfile,
    Title,
    Top3Order,
    Variant,
    WithdrawalKind,
)
from tournaments.models.rounds import lock_facts
from tournaments.rounds.scoring import PLAYED, RESULT_CODES
from tournaments.setup.openings_data import DEFAULT_TABLE
from tournaments.setup.tiebreak_list import custom_tiebreaks
from tournaments.standings import number, read_snapshot

FORMAT = "damas-swiss/1"
IMPORTED_ENGINE = IMPORTED  # the program of rounds imported from a file that does not name it
PROVENANCE_KEYS = ("file", "sha256", "format", "program", "at")  # tournament.provenance (issue 35.4)
MAX_REASON = 500  # one reason the file gives for a round changed since it was published (an audit line)
ONE_SIDED_RESULTS = ("1", "=", "0", "+", "-", "U")  # models.OneSidedRound.result
MAX_ERRORS = 50


# --------------------------------------------------------------------------------------------------- export
def _iso(d):
    return d.isoformat() if d else None


def export_data(tournament) -> dict:
    """The interchange file of ``tournament`` as a dict (constant number of queries)."""
    t = Tournament.objects.select_related("opening_table").get(pk=tournament.pk)
    categories = list(Category.objects.filter(tournament=t).order_by("position", "code"))
    snapshot = read_snapshot(t, public=False)
    ids = {e.pk: e.number for e in snapshot.entries}
    absences = defaultdict(list)
    own_values: dict[int, dict[int, str]] = defaultdict(dict)
    for (entry_id, rnum), value in snapshot.absences.items():
        absences[rnum].append(ids[entry_id])
        if value:
            own_values[rnum][ids[entry_id]] = value
    out: dict[str, Any] = {
        "format": FORMAT,
        "tournament": {**_export_tournament(t), **export_tournament_extras(t)},
        "categories": [_export_category(c) for c in categories],
        "players": [_export_player(e) for e in snapshot.entries],
        "rounds": [_export_round(rnd, ids, absences, own_values) for rnd in snapshot.rounds],
    }
    _export_fingerprints(t, snapshot, out["rounds"])
    paired = {rnd.number for rnd in snapshot.rounds}
    ahead = _export_absences_ahead(absences, own_values, paired)
    if ahead:
        out["absences"] = ahead
    forbidden = [
        {"players": [ids[fp.entry_a_id], ids[fp.entry_b_id]], "from": fp.from_round, "to": fp.to_round}
        for fp in ForbiddenPair.objects.filter(tournament=t).order_by("pk")
        if fp.entry_a_id in ids and fp.entry_b_id in ids
    ]
    if forbidden:
        out["forbidden"] = forbidden
    out.update(export_changes(t))
    return out


def _export_fingerprints(t, snapshot, rounds) -> None:
    """Each round's fingerprints as stored when published (issue 35.4), with the reasons given for a round changed
    since: those the file it was imported from gave, then the audit log's (its queries only when a round no longer
    matches)."""
    from tournaments.domain.fingerprints import stored_chain
    from tournaments.rounds.fingerprints import round_breaks

    stored = stored_chain(snapshot)
    if not any(s.pairing for s in stored.values()):
        return
    reasons: dict[int, dict[str, list[str]]] = defaultdict(dict)
    for brk in round_breaks(t, snapshot=snapshot):
        reasons[brk.round][brk.kind] = list(brk.reasons)
    for r in rounds:
        s = stored.get(r["number"])
        if s is None or not s.pairing:
            continue
        r["fingerprints"] = {"pairing": s.pairing, **({"results": s.results} if s.results else {})}
        if r["number"] in reasons:
            r["fingerprints"]["reasons"] = reasons[r["number"]]


def _export_tournament(t) -> dict[str, Any]:
    # the list the standings use: a broken stored list is the CBJD profile (issue 25, item 4)
    tiebreaks = "cbjd" if (custom := custom_tiebreaks(t)) is None else list(custom)
    return {
        "name": t.name,
        "slug": t.slug,
        "variant": t.variant,
        "format": t.format,
        "rounds": t.planned_rounds,
        "minutes_per_game": t.minutes_per_game,
        "start_date": _iso(t.start_date),
        "end_date": _iso(t.end_date),
        "city": t.city,
        "state": t.state,
        "scoring": {
            "win": number(t.score_win),
            "draw": number(t.score_draw),
            "loss": number(t.score_loss),
            **({"forfeit_loss": number(t.score_forfeit_loss)} if t.score_forfeit_loss is not None else {}),
            **({"zero_bye": number(t.score_zero_bye)} if t.score_zero_bye is not None else {}),
        },
        "bye": t.bye_value,
        **({"bye_points": number(t.bye_points)} if t.bye_points is not None else {}),
        "acceleration": t.acceleration,
        "tiebreaks": tiebreaks,
        "min_participants": t.min_participants,
        "venue": t.venue,
        "chief_arbiter": t.chief_arbiter,
        "time_zone": t.time_zone,
        "absence": t.absence_value,
        "provisional_rating": t.provisional_rating,
        "initial_colour": t.initial_colour,
        "opening_table": t.opening_table.code if t.opening_table else None,  # select_related: no query
        "opening_draw": t.opening_draw_mode,
        "tiebreak_edition": t.tiebreak_edition,
        "progressive_move": t.progressive_move,
        "corrected_progressive_cut": t.corrected_progressive_cut,
        "corrected_progressive_unplayed": t.corrected_progressive_unplayed,
        "king_moves_per_player": t.king_moves_per_player,
        "top3_order": t.top3_order,
        "participant_rule": t.participant_rule,
        "spot_tie_rule": t.spot_tie_rule,
        "pairing_program_rule": t.pairing_program_rule,
        "rating_list": {"name": t.rating_list_name, "date": _iso(t.rating_list_date)} if t.rating_list_date else None,
        **({"stage_id": t.stage_id} if t.stage_id else {}),
        **({"provenance": dict(t.provenance)} if t.provenance else {}),
    }


def _export_category(c) -> dict[str, Any]:
    cat: dict[str, Any] = {"code": c.code, "name": c.name}
    if c.sex:
        cat["sex"] = c.sex
    if c.max_age is not None:
        cat["max_age"] = c.max_age
    if c.min_age is not None:
        cat["min_age"] = c.min_age
    return cat


def _export_player(e) -> dict[str, Any]:
    p = e.player
    player = {
        "id": e.number,
        "cbjd_id": p.cbjd_id,
        "name": p.name,
        "sex": p.sex,
        "birth_date": _iso(p.birth_date),
        "state": p.state,
        "club": p.club,
        "rating": e.rating,
        "categories": list(e.categories),
    }
    return {**player, **_export_player_optional(e), **adjustment_out(e)}


def _export_player_optional(e) -> dict[str, Any]:
    """The optional fields of a player that the file carries only when set."""
    p = e.player
    player: dict[str, Any] = {"title": p.title} if p.title else {}
    player.update(_export_entry_optional(e))
    for key in ("federation", "foreign_id", "title_as_written"):
        if getattr(p, key):
            player[key] = getattr(p, key)
    if p.birth_year is not None:
        player["birth_year"] = p.birth_year
    if e.accelerations:
        player["accelerations"] = list(e.accelerations)
    return player


def _export_entry_optional(e) -> dict[str, Any]:
    """The optional fields of the entry: FMJD rating, adult declaration, rating kept, withdrawal, late entry."""
    entry: dict[str, Any] = {}
    if e.fmjd_rating is not None:
        entry["fmjd_rating"] = e.fmjd_rating
    if e.declared_adult:
        entry["declared_adult"] = True
    if e.rating_kept_reason:
        entry["rating_kept_reason"] = e.rating_kept_reason
    if e.withdrawn_from_round is not None:
        entry["withdrawn_from"] = e.withdrawn_from_round
        if e.withdrawal_kind:
            entry["withdrawal"] = e.withdrawal_kind
    if e.late_entry_round is not None:
        entry["late_entry"] = e.late_entry_round
    return entry


def _export_board(board, ids) -> dict[str, Any]:
    b: dict[str, Any] = {
        "board": board.number,
        "first": None if board.first is None else ids[board.first],
        "second": None if board.second is None else ids[board.second],
        "games": [code for _n, code in board.games],
    }
    if board.opening is not None:
        b["opening"] = board.opening.code
    if board.colourless:
        b["colourless"] = True
    return b


def _export_round(rnd, ids, absences, own_values) -> dict[str, Any]:
    bye = rnd.byes[0] if rnd.byes else None
    r = {
        "number": rnd.number,
        "status": rnd.status,
        "opening": rnd.opening.code if rnd.opening is not None else None,
        "boards": [_export_board(board, ids) for board in rnd.boards],
        "bye": ids[bye] if bye is not None else None,
        "absent": sorted(absences.get(rnd.number, [])),
    }
    if own_values.get(rnd.number):
        r["absent_values"] = {str(pid): v for pid, v in sorted(own_values[rnd.number].items())}
    if rnd.one_sided:
        r["one_sided"] = [
            {"player": ids[o.entry], "opponent": o.opponent, "colour": o.colour, "result": o.result}
            for o in sorted(rnd.one_sided, key=lambda o: ids[o.entry])
        ]
    if rnd.manually_edited:
        r["manually_edited"] = True
    if rnd.engine and rnd.engine != IMPORTED_ENGINE:
        r["engine"] = rnd.engine
    return r


def _export_absences_ahead(absences, own_values, paired) -> list[dict[str, Any]]:
    """The announced absences of rounds not paired yet."""
    ahead: list[dict[str, Any]] = []
    for n in sorted(absences):
        if n not in paired:
            for pid in sorted(absences[n]):
                item: dict[str, Any] = {"round": n, "player": pid}
                if own_values[n].get(pid):
                    item["value"] = own_values[n][pid]
                ahead.append(item)
    return ahead


def export_json(tournament) -> str:
    return json.dumps(export_data(tournament), ensure_ascii=False, indent=2) + "\n"


# --------------------------------------------------------------------------------------------------- import
class _Checker:
    def __init__(self):
        self.errors = []

    def fits(self, where, label, value, limit):
        """Text longer than the field that keeps it is refused, never cut (issue 25, item 13)."""
        text = str(value or "")
        if len(text) > limit:
            self.add(where, f"{label} com {len(text)} caracteres (no máximo {limit}): “{text[:40]}…”")
        return text[:limit]

    def add(self, where, message):
        self.errors.append(f"{where}: {message}" if where else message)

    def require(self, obj, key, where):
        if not isinstance(obj, dict) or key not in obj or obj[key] is None or obj[key] == "":
            self.add(where, f"campo obrigatório “{key}” ausente")
            return False
        return True

    def fail_if_any(self):
        if self.errors:
            raise InterchangeError(self.errors[:MAX_ERRORS])


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _date(value, where, field, ck, required=True):
    if value is None:
        if required:
            ck.add(where, f"campo obrigatório “{field}” ausente")
        return None
    if not isinstance(value, str) or len(value) != 10:
        ck.add(where, f"data inválida em “{field}”: {value!r} (use AAAA-MM-DD)")
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        ck.add(where, f"data inválida em “{field}”: {value!r} (use AAAA-MM-DD)")
        return None


def _points(value, where, field, ck):
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        ck.add(where, f"valor inválido em “{field}”: {value!r}")
        return None
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        ck.add(where, f"valor inválido em “{field}”: {value!r}")
        return None
    if not d.is_finite():  # NaN would make every comparison below raise
        ck.add(where, f"valor inválido em “{field}”: {value!r}")
        return None
    if d < 0 or d * 10 != (d * 10).to_integral_value() or d > 99:
        ck.add(where, f"valor inválido em “{field}”: {value!r} (use no máximo uma casa decimal)")
        return None
    return d


def _choice(obj, key, choices, default, where, ck):
    value = obj.get(key, default) if isinstance(obj, dict) else default
    if value not in choices:
        ck.add(where, f"valor inválido em “{key}”: {value!r} (use {', '.join(map(str, choices))})")
        return default
    return value


def _texts(obj, path="arquivo"):
    """Every string of the file with where it is (``players[3].name``): none may hold a line break or a
    control character (every field of the interchange file is one line)."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for key, value in obj.items():
            yield from _texts(value, f"{path}.{one_line(key)[:40]}" if path != "arquivo" else one_line(key)[:40])
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _texts(value, f"{path}[{i}]")


def _validate(data, new_slug=True):
    """Validate the whole file; returns the normalised plan or raises InterchangeError with every problem.
    ``new_slug=False``: the file need not name a slug free in this database (the federation's check).

    One section of the file after the other (texts, tournament, categories, players, rounds, absences ahead,
    forbidden pairs, settings changes), each reporting into the same checker, in the file's order."""
    ck = _Checker()
    if not isinstance(data, dict):
        raise InterchangeError(["arquivo: o conteúdo não é um objeto JSON"])
    _check_texts(data, ck)
    if data.get("format") != FORMAT:
        ck.add("arquivo", f"formato “{data.get('format')}” desconhecido (esperado “{FORMAT}”)")
    t = data.get("tournament")
    if not isinstance(t, dict):
        ck.add("arquivo", "campo obrigatório “tournament” ausente")
        ck.fail_if_any()
    fields, planned = _tournament_fields(t, new_slug, ck)
    categories = _categories(data, ck)
    codes = {c["code"] for c in categories}
    players = _Players(ck, planned, codes)
    players.read(data)
    rounds = _Rounds(ck, planned, players, fields)
    rounds.read(data)
    plan = {
        "fields": fields,
        "categories": categories,
        "players": players.plan,
        "rounds": rounds.plan,
        "ahead": _absences_ahead(data, players.by_id, rounds.numbers_seen, planned, ck),
        "forbidden": _forbidden_pairs(data, players.by_id, ck),
        # the values of unplayed rounds the file gives (issue 35.1: one it does not give is the edition's)
        "unplayed_given": {field for field, key in (("bye_value", "bye"), ("absence_value", "absence")) if key in t},
    }
    plan[SETTINGS_CHANGES] = read_changes(data, ck.add)
    ck.fail_if_any()
    return plan


def _check_texts(data, ck):
    for path, text in _texts(data):
        if has_control_characters(text):
            ck.add(
                path,
                f"quebra de linha ou caractere de controle (invisível) em “{one_line(text)[:60]}”: "
                "nomes e demais campos de uma linha não os admitem",
            )


def _int_field(t, key, default, valid, where, ck, message):
    """``t[key]`` (``default`` if absent) when it is an int for which ``valid`` holds; else the error
    ``message`` (formatted with the value) and ``default``."""
    value = t.get(key, default)
    if not _is_int(value) or not valid(value):
        ck.add(where, message.format(value=value))
        return default
    return value


def _bool_field(t, key, default, where, ck):
    value = t.get(key, default)
    if not isinstance(value, bool):
        ck.add(where, f"valor inválido em “{key}”: {value!r}")
        return default
    return value


# ----------------------------------------------------------------------------------------- import: tournament
def _tournament_fields(t, new_slug, ck):
    """The Tournament model's fields from the file's ``tournament`` object, and the number of planned rounds
    the file gives (None when absent or invalid: the checks that depend on it are then skipped)."""
    where = "torneio"
    for key in ("name", "slug", "variant", "format", "rounds", "start_date", "end_date"):
        ck.require(t, key, where)
    fields = {"name": ck.fits(where, "nome do torneio", t.get("name"), 200), "slug": _slug(t, new_slug, where, ck)}
    fields["variant"] = _choice(t, "variant", Variant.values, Variant.BRAZILIAN_64, where, ck)
    fields["format"] = _choice(t, "format", RoundFormat.values, RoundFormat.MICRO_MATCH, where, ck)
    planned = t.get("rounds")
    if planned is not None and (not _is_int(planned) or not 1 <= planned <= MAX_ROUNDS):
        ck.add(where, f"número de rodadas inválido: {planned!r} (de 1 a {MAX_ROUNDS})")
        planned = None
    fields["planned_rounds"] = planned or 1
    fields["minutes_per_game"] = _int_field(
        t, "minutes_per_game", 21, lambda v: v >= 1, where, ck, "minutos por jogo inválidos: {value!r}"
    )
    _place_and_dates(t, fields, where, ck)
    _scoring(t, fields, where, ck)
    _rules(t, fields, where, ck)
    _imported_extras(t, fields, where, ck)
    fields.update(read_tournament_extras(t, ck.add))
    return fields, planned


def _slug(t, new_slug, where, ck):
    slug = t.get("slug")
    if not slug:
        return slug
    try:
        validate_slug(slug)
    except ValidationError:
        ck.add(where, f"endereço (slug) inválido: {slug!r} (use letras, números, hífen e sublinhado)")
        return slug
    if new_slug and Tournament.objects.filter(slug=slug).exists():
        ck.add(
            where,
            f"já existe um torneio com o endereço “{slug}”; para importar uma cópia, informe outro endereço "
            f"(por exemplo “{free_slug(slug, slug)}”: campo “Endereço na web” da página de importação, ou a opção "
            "--slug do manage.py import_tournament)",
        )
    return slug


def _place_and_dates(t, fields, where, ck):
    start = _date(t.get("start_date"), where, "start_date", ck, required=False)
    end = _date(t.get("end_date"), where, "end_date", ck, required=False)
    if start and end and end < start:
        ck.add(where, f"a data de término ({end.isoformat()}) é anterior à de início ({start.isoformat()})")
    fields["start_date"], fields["end_date"] = start, end
    for key, model_field in (("city", "city"), ("venue", "venue"), ("chief_arbiter", "chief_arbiter")):
        value = t.get(key) or ""
        if not isinstance(value, str):
            ck.add(where, f"valor inválido em “{key}”: {value!r}")
            value = ""
        fields[model_field] = value
    state = t.get("state") or ""
    if state and state not in UF_CODES:
        ck.add(where, f"UF inválida: {state!r}")
        state = ""
    fields["state"] = state


def _scoring(t, fields, where, ck):
    """Points of a game, of the bye and of an absence, acceleration and the tie-break list."""
    scoring = t.get("scoring") or {}
    if not isinstance(scoring, dict):
        ck.add(where, "“scoring” deve ser um objeto com win, draw e loss")
        scoring = {}
    win = _points(scoring.get("win", 2), where, "scoring.win", ck)
    draw = _points(scoring.get("draw", 1), where, "scoring.draw", ck)
    loss = _points(scoring.get("loss", 0), where, "scoring.loss", ck)
    if None not in (win, draw, loss) and not (win > draw >= loss >= 0):
        ck.add(where, "pontuação inválida: é preciso vitória > empate >= derrota >= 0")
    fields["score_win"], fields["score_draw"], fields["score_loss"] = win, draw, loss
    for key, field in (("forfeit_loss", "score_forfeit_loss"), ("zero_bye", "score_zero_bye")):
        given = scoring.get(key)
        fields[field] = None if given is None else _points(given, where, f"scoring.{key}", ck)
    fields["bye_value"] = _choice(t, "bye", ByeValue.values, ByeValue.WIN, where, ck)
    fields["bye_points"] = _points(t["bye_points"], where, "bye_points", ck) if "bye_points" in t else None
    fields["absence_value"] = _choice(t, "absence", AbsenceValue.values, AbsenceValue.ZERO, where, ck)
    fields["acceleration"] = _choice(t, "acceleration", Acceleration.values, Acceleration.NONE, where, ck)
    tiebreaks = t.get("tiebreaks", "cbjd")
    if tiebreaks == "cbjd":
        fields["tiebreak_profile"], fields["tiebreak_keys"] = TiebreakProfile.CBJD, []
    elif isinstance(tiebreaks, list) and tiebreaks and all(k in TIEBREAK_KEYS for k in tiebreaks):
        fields["tiebreak_profile"], fields["tiebreak_keys"] = TiebreakProfile.CUSTOM, list(tiebreaks)
    else:
        ck.add(where, f"desempates inválidos: {tiebreaks!r} (use “cbjd” ou uma lista de: {', '.join(TIEBREAK_KEYS)})")


def _rules(t, fields, where, ck):
    """The settings of the regulation: participants, time zone, ratings, colours, openings, tie-break readings."""
    fields["min_participants"] = _int_field(
        t, "min_participants", 30, lambda v: v >= 0, where, ck, "mínimo de participantes inválido: {value!r}"
    )
    fields["time_zone"] = _choice(t, "time_zone", [z for z, _ in BRAZIL_TIME_ZONES], "America/Sao_Paulo", where, ck)
    fields["provisional_rating"] = _int_field(
        t,
        "provisional_rating",
        1600,
        lambda v: RATING_MIN <= v <= RATING_MAX,
        where,
        ck,
        "rating provisório inválido: {value!r}",
    )
    fields["initial_colour"] = _choice(t, "initial_colour", InitialColour.values, InitialColour.WHITE, where, ck)
    fields["opening_draw_mode"] = _choice(
        t, "opening_draw", OpeningDrawMode.values, OpeningDrawMode.PER_ROUND, where, ck
    )
    fields["tiebreak_edition"] = _choice(
        t, "tiebreak_edition", TiebreakEdition.values, TiebreakEdition.FIDE2026, where, ck
    )
    fields["progressive_move"] = _choice(t, "progressive_move", ProgressiveMove.values, ProgressiveMove.END, where, ck)
    fields["corrected_progressive_cut"] = _int_field(
        t,
        "corrected_progressive_cut",
        1,
        lambda v: v >= 0,
        where,
        ck,
        "corte do escore acumulado corrigido inválido: {value!r}",
    )
    fields["corrected_progressive_unplayed"] = _bool_field(t, "corrected_progressive_unplayed", True, where, ck)
    fields["king_moves_per_player"] = _bool_field(t, "king_moves_per_player", True, where, ck)
    fields["top3_order"] = _choice(t, "top3_order", Top3Order.values, Top3Order.BUCHHOLZ, where, ck)
    fields["participant_rule"] = _choice(
        t, "participant_rule", ParticipantRule.values, ParticipantRule.PLAYED, where, ck
    )
    fields["spot_tie_rule"] = _choice(t, "spot_tie_rule", SpotTieRule.values, SpotTieRule.COMMITTEE, where, ck)
    fields["pairing_program_rule"] = _choice(
        t, "pairing_program_rule", PairingProgramRule.values, PairingProgramRule.NAMED, where, ck
    )


def _imported_extras(t, fields, where, ck):
    """The rating list, the opening table, and what an imported file carries (time control, TRF header)."""
    rating_list = t.get("rating_list")
    if rating_list is not None:
        if not isinstance(rating_list, dict) or not isinstance(rating_list.get("name", ""), str):
            ck.add(where, f'lista de rating inválida: {rating_list!r} (use {{"name": ..., "date": AAAA-MM-DD}})')
        else:
            fields["rating_list_name"] = rating_list.get("name", "")[:200]
            fields["rating_list_date"] = _date(rating_list.get("date"), where, "rating_list.date", ck)
    table = None
    if "opening_table" in t:
        code = t["opening_table"]
        if code is not None:
            table = OpeningTable.objects.filter(code=code).first()
            if table is None:
                ck.add(where, f"tabela de aberturas “{code}” desconhecida")
    elif fields["variant"] == Variant.BRAZILIAN_64:
        table = OpeningTable.objects.filter(code=DEFAULT_TABLE).first()
    fields["opening_table"] = table
    time_control = t.get("time_control", "")
    if not isinstance(time_control, str):
        ck.add(where, f"valor inválido em “time_control”: {time_control!r}")
        time_control = ""
    fields["time_control"] = " ".join(time_control.split())[:120]
    header = t.get("trf_header", {})
    if not isinstance(header, dict) or not all(
        isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v)) for v in header.values()
    ):
        ck.add(where, "“trf_header” deve ser um objeto de textos")
        header = {}
    fields["trf_header"] = header
    _stage_fields(t, fields, where, ck)


def _stage_fields(t, fields, where, ck):
    """The stage the event is (its identifier in the federation's calendar) and where an imported event came
    from (issue 35.2, 35.4): optional, an old file has neither."""
    stage_id = t.get("stage_id") or ""
    if not isinstance(stage_id, str) or not re.fullmatch(r"(CBJD-\d{4}-\d{3,6})?", stage_id):
        ck.add(where, f"identificador de etapa inválido: {stage_id!r} (use CBJD-AAAA-NNN)")
        stage_id = ""
    fields["stage_id"] = stage_id
    provenance = t.get("provenance") or {}
    if not isinstance(provenance, dict) or not all(
        isinstance(k, str) and isinstance(v, str) and len(v) <= 300 for k, v in provenance.items()
    ):
        ck.add(where, "“provenance” deve ser um objeto de textos")
        provenance = {}
    fields["provenance"] = {k: provenance[k] for k in PROVENANCE_KEYS if k in provenance}


# ----------------------------------------------------------------------------------------- import: categories
def _categories(data, ck):
    cats = data.get("categories")
    if cats is None:
        cats = [{"code": "ABS", "name": "Absoluto"}]
    if not isinstance(cats, list):
        ck.add("categorias", "deve ser uma lista")
        cats = []
    plan_cats, codes = [], set()
    for i, c in enumerate(cats):
        category = _category(c, i, codes, ck)
        if category is not None:
            plan_cats.append(category)
    return plan_cats


def _category(c, i, codes, ck):
    """One category of the file (None if it lacks its code or name); adds its code to ``codes``."""
    cw = f"categoria {i + 1}"
    if not isinstance(c, dict):
        ck.add(cw, "deve ser um objeto")
        return None
    ok = ck.require(c, "code", cw) & ck.require(c, "name", cw)
    if not ok:
        return None
    code = str(c["code"])
    cw = f"categoria {code}"
    if code in codes:
        ck.add(cw, "código repetido")
    if len(code) > 10:
        ck.add(cw, "código com mais de 10 caracteres")
    codes.add(code)
    sex = c.get("sex") or ""
    if sex and sex not in Sex.values:
        ck.add(cw, f"sexo inválido: {sex!r} (use F ou M)")
        sex = ""
    ages = {}
    for key in ("min_age", "max_age"):
        v = c.get(key)
        if v is not None and (not _is_int(v) or not 0 <= v <= 120):
            ck.add(cw, f"idade inválida em “{key}”: {v!r} (de 0 a 120)")
            v = None
        ages[key] = v
    if ages["min_age"] is not None and ages["max_age"] is not None and ages["max_age"] < ages["min_age"]:
        ck.add(cw, "idade máxima menor que a mínima")
    return {"code": code, "name": str(c["name"])[:60], "sex": sex, **ages}


# ----------------------------------------------------------------------------------------- import: players
class _Players:
    """The file's ``players``: ``plan`` (the valid ones, in order), ``by_id`` (the same by pairing number) and
    ``broken`` (the numbers of players already reported as incomplete, so the rounds do not report them again)."""

    def __init__(self, ck, planned, codes):
        self.ck, self.planned, self.codes = ck, planned, codes
        self.plan, self.by_id, self.cbjd_seen, self.broken = [], {}, {}, set()
        self.today = timezone.localdate()

    def read(self, data):
        players = data.get("players")
        if not isinstance(players, list):
            self.ck.add("jogadores", "campo obrigatório “players” ausente (uma lista)")
            players = []
        for i, p in enumerate(players):
            pid = self._id(p, i)
            if pid is not None:
                self._player(p, pid)

    def _id(self, p, i):
        """The player's pairing number, or None (reported) when the item cannot be a player."""
        pw = f"jogador {i + 1}"
        if not isinstance(p, dict):
            self.ck.add(pw, "deve ser um objeto")
            return None
        pid = p.get("id")
        if pid is None:
            self.ck.add(pw, "campo obrigatório “id” ausente")
            return None
        if not _is_int(pid) or pid < 1:
            self.ck.add(pw, f"id inválido: {pid!r} (número de emparceiramento, inteiro positivo)")
            return None
        if pid in self.by_id:
            self.ck.add(f"jogador {pid}", "id repetido")
            return None
        return pid

    def _player(self, p, pid):
        ck, pw = self.ck, f"jogador {pid}"
        ok = ck.require(p, "name", pw)
        if "sex" not in p or p["sex"] is None:
            ck.add(pw, "campo obrigatório “sex” ausente")
            ok = False
        identity = self._identity(p, pid, pw)
        entry_fields = self._participation(p, pw)
        extra = self._imported(p, pw)
        if not ok:
            self.broken.add(pid)
            return
        entry = {
            **extra,
            "id": pid,
            **identity,
            "name": ck.fits(pw, "nome", p["name"], 120),
            "club": ck.fits(pw, "clube", p.get("club"), 120),
            **entry_fields,
        }
        self.by_id[pid] = entry
        self.plan.append(entry)

    def _identity(self, p, pid, pw):
        """Sex, birth date, CBJD ID, state, ratings and title."""
        ck = self.ck
        sex = p.get("sex")
        if sex is not None and sex not in (*Sex.values, ""):
            ck.add(pw, f"sexo inválido: {sex!r} (use F ou M, ou vazio quando o arquivo não diz)")
        birth = _date(p.get("birth_date"), pw, "birth_date", ck, required=False)
        if birth and not date(1900, 1, 1) <= birth <= self.today:
            ck.add(pw, f"data de nascimento impossível: {birth.isoformat()}")
        cbjd = p.get("cbjd_id")
        if cbjd is not None:
            cbjd = str(cbjd).strip()
            if not cbjd or len(cbjd) > 20:
                ck.add(pw, f"ID CBJD inválido: {p.get('cbjd_id')!r}")
            elif cbjd in self.cbjd_seen:
                ck.add(pw, f"ID CBJD {cbjd} repetido (também no jogador {self.cbjd_seen[cbjd]})")
            self.cbjd_seen[cbjd] = pid
        state = p.get("state") or ""
        if state and state not in UF_CODES:
            ck.add(pw, f"UF inválida: {state!r}")
        rating = p.get("rating")
        if rating is not None and (not _is_int(rating) or not RATING_MIN <= rating <= RATING_MAX):
            ck.add(pw, f"rating inválido: {rating!r} (de {RATING_MIN} a {RATING_MAX}, ou null)")
        fmjd = p.get("fmjd_rating")
        if fmjd is not None and (not _is_int(fmjd) or not RATING_MIN <= fmjd <= RATING_MAX):
            ck.add(pw, f"rating FMJD inválido: {fmjd!r}")
        title = p.get("title") or ""
        if title and title not in Title.values:
            ck.add(pw, f"título inválido: {title!r}")
        return {
            "cbjd_id": cbjd or None,
            "sex": sex,
            "birth_date": birth,
            "state": state,
            "rating": rating,
            "fmjd_rating": fmjd,
            "title": title,
        }

    def _participation(self, p, pw):
        """Categories, withdrawal, late entry, the adult declaration and why the rating was kept."""
        ck, last = self.ck, self.planned or 30
        pcats = p.get("categories")
        if pcats is None:
            pcats = []
        if not isinstance(pcats, list):
            ck.add(pw, "“categories” deve ser uma lista de códigos")
            pcats = []
        for code in pcats:
            if not isinstance(code, str) or code not in self.codes:  # a list or an object: not a code either
                ck.add(pw, f"categoria “{code}” não existe no torneio")
        withdrawn = p.get("withdrawn_from")
        if withdrawn is not None and (not _is_int(withdrawn) or not 1 <= withdrawn <= last):
            ck.add(pw, f"rodada de desistência inválida: {withdrawn!r}")
            withdrawn = None
        # a withdrawal without its kind stays without one: the director classifies it (issue 26, point 15)
        withdrawal = p.get("withdrawal") or ""
        if withdrawal and withdrawal not in WithdrawalKind.values:
            ck.add(pw, f"tipo de desistência inválido: {withdrawal!r}")
        late = p.get("late_entry")
        if late is not None and (not _is_int(late) or not 2 <= late <= last):
            ck.add(pw, f"rodada de entrada tardia inválida: {late!r} (a partir da rodada 2)")
            late = None
        declared_adult = _bool_field(p, "declared_adult", False, pw, ck)
        kept = p.get("rating_kept_reason", "")
        if not isinstance(kept, str):
            ck.add(pw, f"valor inválido em “rating_kept_reason”: {kept!r}")
            kept = ""
        return {
            "categories": [c for c in pcats if isinstance(c, str) and c in self.codes],
            "withdrawn_from": withdrawn,
            "withdrawal": withdrawal if withdrawn else "",
            "late_entry": late,
            "declared_adult": declared_adult,
            "rating_kept_reason": " ".join(kept.split())[:200],
        }

    def _imported(self, p, pw):
        """What an imported file carries: federation, foreign ID, title as written, birth year, accelerations
        and the score adjustments."""
        ck, extra = self.ck, {}
        for key, size in (("federation", 3), ("foreign_id", 20), ("title_as_written", 10)):
            value = p.get(key, "")
            if not isinstance(value, str) or len(value) > size:
                ck.add(pw, f"valor inválido em “{key}”: {value!r}")
                value = ""
            extra[key] = value
        birth_year = p.get("birth_year")
        if birth_year is not None and (not _is_int(birth_year) or not 1900 <= birth_year <= self.today.year):
            ck.add(pw, f"ano de nascimento impossível: {birth_year!r}")
            birth_year = None
        extra["birth_year"] = birth_year
        accelerations = p.get("accelerations", [])
        if not isinstance(accelerations, list) or len(accelerations) > MAX_ROUNDS:
            ck.add(pw, f"valor inválido em “accelerations”: {accelerations!r}")
            accelerations = []
        checked = [_points(a, pw, "accelerations", ck) for a in accelerations]
        extra.update(adjustment_in(p, pw, ck), accelerations=[f"{a:.1f}" for a in checked if a is not None])
        return extra


# ----------------------------------------------------------------------------------------- import: rounds
class _Openings:
    """The openings of the tournament's table by code; ``of(code, where)`` reports a code it does not know."""

    def __init__(self, table, ck):
        self.table, self.ck = table, ck
        self.codes = {}
        if table is not None:
            self.codes = {o.code.upper(): o for o in Opening.objects.filter(table=table)}

    def of(self, code, where):
        if code in (None, ""):
            return None
        if self.table is None:
            self.ck.add(where, f"abertura “{code}” informada, mas o torneio não tem tabela de aberturas")
            return None
        o = self.codes.get(str(code).strip().upper())
        if o is None:
            self.ck.add(where, f"abertura “{code}” não existe na tabela {self.table.code}")
        return o


class _Seats:
    """Where each player is in one round (a board, the bye, absent, a one-sided record): ``place`` accepts a
    player once per round, and only in a round the player may play."""

    def __init__(self, ck, by_id, broken, num, rw):
        self.ck, self.by_id, self.broken, self.num, self.rw = ck, by_id, broken, num, rw
        self.seen = {}  # player -> where in this round

    def place(self, pid, what):
        ck, rw, num = self.ck, self.rw, self.num
        if _is_int(pid) and pid in self.broken:  # already reported with the player
            return False
        if not _is_int(pid) or pid not in self.by_id:
            ck.add(rw, f"jogador {pid!r} ({what}) não está na lista de jogadores")
            return False
        if pid in self.seen:
            ck.add(rw, f"o jogador {pid} aparece mais de uma vez ({self.seen[pid]} e {what})")
            return False
        self.seen[pid] = what
        p = self.by_id[pid]
        if p["withdrawn_from"] is not None and num >= p["withdrawn_from"] and what != "ausente":
            ck.add(rw, f"o jogador {pid} desistiu a partir da rodada {p['withdrawn_from']} e não pode jogar ({what})")
        if p["late_entry"] is not None and num < p["late_entry"] and what != "ausente":
            ck.add(rw, f"o jogador {pid} só entrou na rodada {p['late_entry']} ({what})")
        return True


class _Rounds:
    """The file's ``rounds``: ``plan`` (the valid ones, in order) and ``numbers_seen``; a pair that played in an
    earlier round may not meet again."""

    def __init__(self, ck, planned, players, fields):
        self.ck, self.planned, self.players = ck, planned, players
        self.openings = _Openings(fields["opening_table"], ck)
        self.games_per_round = 2 if fields["format"] == RoundFormat.MICRO_MATCH else 1
        self.played_pairs = {}  # frozenset(a, b) -> round number of a played encounter
        self.plan, self.numbers_seen = [], set()

    def read(self, data):
        rounds = data.get("rounds") or []
        if not isinstance(rounds, list):
            self.ck.add("rodadas", "deve ser uma lista")
            rounds = []
        for i, r in enumerate(rounds):
            num = self._number(r, i)
            if num is not None:
                self.plan.append(self._round(r, num))
        for r in self.plan[:-1]:
            if r["status"] == RoundStatus.DRAFT:
                self.ck.add(f"rodada {r['number']}", "uma rodada em rascunho só pode ser a última")
            if r["pending"]:
                self.ck.add(
                    f"rodada {r['number']}", "há resultados pendentes, mas a rodada seguinte já foi emparceirada"
                )

    def _number(self, r, i):
        """The round's number, or None (reported) when it is not the next one."""
        rw = f"rodada {i + 1}"
        if not isinstance(r, dict):
            self.ck.add(rw, "deve ser um objeto")
            return None
        num = r.get("number")
        if not _is_int(num):
            self.ck.add(rw, "campo obrigatório “number” ausente ou inválido")
            return None
        if num != i + 1:
            self.ck.add(f"rodada {num}", f"rodadas fora de ordem ou faltando (esperada a rodada {i + 1})")
            return None
        return num

    def _round(self, r, num):
        ck, rw = self.ck, f"rodada {num}"
        self.numbers_seen.add(num)
        if self.planned and num > self.planned:
            ck.add(rw, f"o torneio tem só {self.planned} rodadas previstas")
        status = r.get("status", RoundStatus.PUBLISHED)
        if status not in RoundStatus.values:
            ck.add(rw, f"situação inválida: {status!r} (use published ou draft)")
            status = RoundStatus.PUBLISHED
        round_opening = self.openings.of(r.get("opening"), rw)
        seats = _Seats(ck, self.players.by_id, self.players.broken, num, rw)
        plan_boards, pending = self._boards(r, seats, num)
        bye = r.get("bye")
        if isinstance(bye, dict):
            ck.add(rw, "resultado registrado para o bye; o bye não tem resultado, informe só o número do jogador")
            bye = None
        elif bye is not None and not seats.place(bye, "bye"):
            bye = None
        absent = r.get("absent") or []
        if not isinstance(absent, list):
            ck.add(rw, "“absent” deve ser uma lista de jogadores")
            absent = []
        plan_absent = [pid for pid in absent if seats.place(pid, "ausente")]
        plan_one_sided = self._one_sided(r, seats)
        return {
            "number": num,
            "status": status,
            "opening": round_opening,
            "boards": plan_boards,
            "bye": bye,
            "absent": plan_absent,
            "absent_values": self._absent_values(r, rw, plan_absent),
            "one_sided": plan_one_sided,
            "pending": pending,
            "manually_edited": bool(r.get("manually_edited", False)),
            "fingerprints": self._fingerprints(r, rw),
            "engine": r["engine"][:120]
            if isinstance(r.get("engine"), str) and r["engine"].strip()
            else IMPORTED_ENGINE,
        }

    def _fingerprints(self, r, rw):
        """The round's fingerprints as the file carries them (pairing, results) and the reasons it gives for a
        change since (the venue's audit lines, kept so the homologation report and a later export show them)."""
        prints = r.get("fingerprints")
        if prints is None:
            return {}
        if not isinstance(prints, dict) or not all(
            is_fingerprint(prints.get(k)) for k in ("pairing", "results") if prints.get(k) is not None
        ):
            self.ck.add(rw, "impressões inválidas (“fingerprints”: 12 dígitos hexadecimais cada)")
            return {}
        out = {k: prints[k] for k in ("pairing", "results") if prints.get(k) is not None}
        reasons = prints.get("reasons") or {}
        if not isinstance(reasons, dict) or not all(
            isinstance(v, list) and all(isinstance(x, str) and len(x) <= MAX_REASON for x in v)
            for k, v in reasons.items()
            if k in ("pairing", "results")
        ):
            self.ck.add(rw, f"motivos das impressões inválidos (listas de textos de até {MAX_REASON} caracteres)")
            return {}
        kept = {k: [x for x in reasons[k] if x.strip()] for k in ("pairing", "results") if reasons.get(k)}
        if kept:
            out["reasons"] = kept
        return out

    def _boards(self, r, seats, num):
        """The round's boards and whether a result is pending; the pairs that played are remembered after."""
        ck = self.ck
        boards = r.get("boards") or []
        if not isinstance(boards, list):
            ck.add(seats.rw, "“boards” deve ser uma lista")
            boards = []
        plan_boards, board_numbers, pending, round_pairs = [], set(), False, []
        for j, b in enumerate(boards):
            checked = self._board(b, j, seats, board_numbers)
            if checked is None:
                continue
            bw, board = checked
            games = board["games"]
            if any(g is None for g in games):
                pending = True
            key = frozenset((board["first"], board["second"]))
            if key in self.played_pairs:
                ck.add(
                    bw,
                    f"os jogadores {board['first']} e {board['second']} já se enfrentaram na rodada {self.played_pairs[key]}",
                )
            if any(g in PLAYED for g in games):
                round_pairs.append(key)
            colourless = b.get("colourless", False)
            if not isinstance(colourless, bool) or (colourless and any(g in PLAYED for g in games)):
                ck.add(bw, "“colourless” só vale para W.O. (true ou false)")
                colourless = False
            plan_boards.append({**board, "opening": self.openings.of(b.get("opening"), bw), "colourless": colourless})
        for key in round_pairs:
            self.played_pairs.setdefault(key, num)
        return plan_boards, pending

    def _board(self, b, j, seats, board_numbers):
        """(where, the board's number, players and games) of a board whose players may meet and whose results
        are valid, or None (reported)."""
        ck = self.ck
        bw = f"{seats.rw}, mesa {b.get('board', j + 1) if isinstance(b, dict) else j + 1}"
        if not isinstance(b, dict):
            ck.add(bw, "deve ser um objeto")
            return None
        bn = b.get("board")
        if not _is_int(bn) or not 1 <= bn <= MAX_PLAYERS:
            ck.add(bw, "campo obrigatório “board” ausente ou inválido")
            return None
        if bn in board_numbers:
            ck.add(bw, "número de mesa repetido")
        board_numbers.add(bn)
        first, second = b.get("first"), b.get("second")
        games = b.get("games")
        if not self._two_players(bw, first, second, games):
            return None
        ok = seats.place(first, f"mesa {bn}") & seats.place(second, f"mesa {bn}")
        if not isinstance(games, list):
            ck.add(bw, "campo obrigatório “games” ausente (lista de resultados)")
            return None
        if len(games) != self.games_per_round:
            given = f"{len(games)} {plural(len(games), 'resultado informado', 'resultados informados')}"
            each = f"{self.games_per_round} {plural(self.games_per_round, 'partida', 'partidas')}"
            ck.add(bw, f"{given}; cada mesa tem {each}")
            return None
        bad = False
        for g, code in enumerate(games, start=1):
            if code is not None and (not isinstance(code, str) or code not in RESULT_CODES):
                ck.add(bw, f"resultado inválido na partida {g}: {code!r} (use 1-0, 0-1, 1/2, +/-, -/+, -/- ou null)")
                bad = True
        if bad or not ok:
            return None
        return bw, {"number": bn, "first": first, "second": second, "games": list(games)}

    def _two_players(self, bw, first, second, games):
        """Whether the board has two different players (a bye belongs in the round's ``bye``)."""
        if first is None:
            self.ck.add(bw, "campo obrigatório “first” ausente")
            return False
        if second in (None, 0):
            if isinstance(games, list) and any(g is not None for g in games):
                self.ck.add(
                    bw,
                    f"resultado registrado para um bye (jogador {first} sem adversário); o bye não tem "
                    "resultado: indique-o no campo “bye” da rodada",
                )
            else:
                self.ck.add(bw, f"mesa sem segundo jogador; indique o bye do jogador {first} no campo “bye” da rodada")
            return False
        if first == second:
            self.ck.add(bw, f"o jogador {first} não pode jogar contra si mesmo")
            return False
        return True

    def _one_sided(self, r, seats):
        ck, rw, by_id = self.ck, seats.rw, self.players.by_id
        plan_one_sided = []
        for item in r.get("one_sided") or []:
            if not isinstance(item, dict):
                ck.add(rw, f"“one_sided”: item inválido {item!r}")
                continue
            pid, opp = item.get("player"), item.get("opponent")
            colour, result = item.get("colour", ""), item.get("result")
            if result not in ONE_SIDED_RESULTS or colour not in ("w", "b", ""):
                ck.add(rw, f"“one_sided”: resultado {result!r} ou cor {colour!r} inválidos (jogador {pid!r})")
                continue
            if (result == "U") != (opp is None) or (result == "U" and colour) or (result in "1=0" and not colour):
                ck.add(
                    rw, f"“one_sided”: o jogador {pid!r} tem resultado {result!r}, adversário {opp!r}, cor {colour!r}"
                )
                continue
            if opp is not None and (not _is_int(opp) or opp not in by_id or opp == pid):
                ck.add(rw, f"“one_sided”: adversário {opp!r} do jogador {pid!r} inválido")
                continue
            if seats.place(pid, "registro de um só jogador"):
                plan_one_sided.append((pid, opp, colour, result))
        return plan_one_sided

    def _absent_values(self, r, rw, plan_absent):
        own = r.get("absent_values") or {}
        if not isinstance(own, dict):
            self.ck.add(rw, "“absent_values” deve ser um objeto (jogador -> zero, draw ou win)")
            own = {}
        absent_values = {}
        for key, value in own.items():
            pid = int(key) if str(key).isdigit() else None
            if pid not in plan_absent:
                self.ck.add(rw, f"“absent_values”: o jogador {key} não está entre os ausentes da rodada")
            elif value not in OwnAbsenceValue.values or not value:
                self.ck.add(rw, f"“absent_values”: valor inválido {value!r} (use zero, draw ou win)")
            else:
                absent_values[pid] = value
        return absent_values


# ----------------------------------------------------------------------------------------- import: the rest
def _absences_ahead(data, by_id, numbers_seen, planned, ck):
    """Announced absences for rounds not paired yet: [(round, player, value)]."""
    ahead = data.get("absences") or []
    plan_ahead, seen_ahead = [], set()
    if not isinstance(ahead, list):
        ck.add("ausências", "deve ser uma lista")
        ahead = []
    for a in ahead:
        if not isinstance(a, dict) or not _is_int(a.get("round")) or not _is_int(a.get("player")):
            ck.add("ausências", f'item inválido: {a!r} (use {{"round": N, "player": ID}})')
            continue
        aw = f"ausências, rodada {a['round']}"
        if a["player"] not in by_id:
            ck.add(aw, f"jogador {a['player']} não está na lista de jogadores")
        elif a["round"] in numbers_seen:
            ck.add(aw, "a rodada já foi emparceirada: use “absent” na rodada")
        elif planned and not 1 <= a["round"] <= planned:
            ck.add(aw, "rodada inexistente")
        elif (a["round"], a["player"]) in seen_ahead:
            ck.add(aw, f"ausência do jogador {a['player']} repetida")
        elif a.get("value", "") not in OwnAbsenceValue.values:
            ck.add(aw, f"valor inválido {a.get('value')!r} (use zero, draw ou win)")
        else:
            seen_ahead.add((a["round"], a["player"]))
            plan_ahead.append((a["round"], a["player"], a.get("value", "")))
    return plan_ahead


def _forbidden_pairs(data, by_id, ck):
    """Players that must not meet, all mutually: [(a, b, from, to)] for every pair of each group."""
    forbidden = data.get("forbidden") or []
    plan_forbidden = []
    if not isinstance(forbidden, list):
        ck.add("pares proibidos", "deve ser uma lista")
        forbidden = []
    for f in forbidden:
        members = f.get("players") if isinstance(f, dict) else None
        first, last = (f.get("from"), f.get("to")) if isinstance(f, dict) else (None, None)
        if (
            not isinstance(members, list)
            or len(members) < 2
            or not all(_is_int(x) and x in by_id for x in members)
            or not all(r is None or (_is_int(r) and r >= 1) for r in (first, last))
            or (first is not None and last is not None and last < first)
        ):
            ck.add(
                "pares proibidos",
                f'item inválido: {f!r} (use {{"players": [ID, ID, ...], "from": N ou null, "to": N ou null}})',
            )
            continue
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                if a != b:
                    plan_forbidden.append((a, b, first, last))
    return plan_forbidden


def import_data(data, *, user=None) -> Tournament:
    """Create the tournament of an interchange file (a dict). All-or-nothing; raises InterchangeError."""
    plan = _validate(data)
    try:
        with transaction.atomic():
            return _write(plan, user)
    except IntegrityError as exc:
        raise InterchangeError([f"arquivo: dados inconsistentes, nada foi gravado ({exc})"]) from exc


# The largest real events have a few hundred players; this keeps a hostile or broken file from tying up a server.
MAX_PLAYERS = 5000


class _BadNumber(ValueError):
    """A number JSON should not carry here: NaN, Infinity (Python's json reads them), or one too large."""

    def __init__(self, literal, reason):
        super().__init__(literal)
        self.literal, self.reason = literal, reason

    def message(self, text):
        at = text.find(self.literal)
        where = f" na linha {text.count(chr(10), 0, at) + 1}" if at >= 0 else ""
        shown = self.literal if len(self.literal) <= 20 else self.literal[:20] + "…"
        return f"arquivo: número inválido “{shown}”{where}: {self.reason}"


def _no_constant(name):
    raise _BadNumber(name, "o arquivo de intercâmbio só admite números finitos (nada de NaN ou Infinity)")


def _bounded_int(literal):
    if len(literal.lstrip("-")) > 18:
        raise _BadNumber(literal, "número grande demais")
    return int(literal)


def _finite_float(literal):
    value = float(literal)
    if not math.isfinite(value):
        raise _BadNumber(literal, "número grande demais")
    return value


def import_json(text, *, user=None, slug=None) -> Tournament:
    """The tournament of an interchange file's text; ``slug``: another web address (a copy in the same database)."""
    data = load_json(text)
    if slug and isinstance(data, dict) and isinstance(data.get("tournament"), dict):
        data["tournament"]["slug"] = slug
    return import_data(data, user=user)


def validate_file(data) -> None:
    """Raise InterchangeError unless ``data`` is a whole, importable interchange file (writes nothing; the slug
    may be one this database knows: the federation receives every version of an event)."""
    _validate(data, new_slug=False)


def load_json(text):
    """The parsed interchange file, read as hostile: size, UTF-8, finite and bounded numbers, nesting, players;
    raises InterchangeError (one message) otherwise. Does not validate the content (:func:`validate_file`)."""
    if len(text) > MAX_FILE_BYTES:
        raise InterchangeError([f"arquivo: grande demais (mais de {MAX_FILE_BYTES // (1024 * 1024)} MB)"])
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InterchangeError(["arquivo: não está em UTF-8"]) from None
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int, parse_float=_finite_float)
    except _BadNumber as exc:
        raise InterchangeError([exc.message(text)]) from None
    except json.JSONDecodeError as exc:
        raise InterchangeError(
            [f"arquivo: JSON inválido na linha {exc.lineno}, coluna {exc.colno}: {exc.msg}"]
        ) from exc
    except RecursionError:
        raise InterchangeError(["arquivo: JSON aninhado demais (não é um arquivo de torneio)"]) from None
    if isinstance(data, dict) and isinstance(data.get("players"), list) and len(data["players"]) > MAX_PLAYERS:
        raise InterchangeError([f"arquivo: jogadores demais ({len(data['players'])}; no máximo {MAX_PLAYERS})"])
    return data


def _write(plan, user):
    """Write a validated plan: the tournament, its players and entries, its rounds, the forbidden pairs and the
    settings changes, then the audit line."""
    tournament = _write_tournament(plan, user)
    by_id = _write_entries(tournament, plan, user)
    round_objs = _write_rounds(tournament, plan, by_id)
    ForbiddenPair.objects.bulk_create(
        [
            ForbiddenPair(tournament=tournament, entry_a=by_id[a], entry_b=by_id[b], from_round=first, to_round=last)
            for a, b, first, last in plan["forbidden"]
        ],
        batch_size=1000,
    )
    write_changes(tournament, plan[SETTINGS_CHANGES])
    if round_objs:  # an event imported with its rounds: its facts are locked from now on (issue 35.3)
        lock_facts(tournament.pk)
        tournament.refresh_from_db(fields=["facts_locked_at"])
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.TOURNAMENT_IMPORT,
        obj=tournament,
        summary=tournament.name,
        new={"players": len(by_id), "rounds": len(round_objs)},
    )
    cache.bump(tournament.pk)
    return tournament


def _write_tournament(plan, user):
    from tournaments.setup.services import tournament_create

    fields = dict(plan["fields"])
    try:
        return tournament_create(
            user=user,
            categories=[{k: v for k, v in c.items() if v is not None} for c in plan["categories"]],
            file_values=_unplayed_values_used(plan["rounds"]) & plan["unplayed_given"],
            **fields,
        )
    except ValidationError as exc:
        raise InterchangeError([f"torneio: {m}" for m in exc.messages]) from exc


def _unplayed_values_used(rounds):
    """The tournament's values of unplayed rounds the file's rounds were scored with: the bye's when a round has a
    pairing-allocated bye, the absence's when a paired round has an absence without its own value. Where the
    stage's edition fixes a value (issue 35.1), those the file gives keep the file's (the homologation names the
    difference); a value no round used, or the file does not give, is the edition's."""
    used = set()
    for r in rounds:
        if r["bye"] is not None:
            used.add("bye_value")
        if any(pid not in r["absent_values"] for pid in r["absent"]):
            used.add("absence_value")
    return used


def _write_entries(tournament, plan, user):
    """The players (a stored player with the same CBJD ID is reused, the others created), their entries and
    categories; an abandonment in the file suspends the player as when typed. Returns {pairing number: entry}."""
    cats = {c.code: c for c in tournament.categories.all()}
    _write_players(plan["players"])
    entries = [_entry(tournament, p) for p in plan["players"]]
    Entry.objects.bulk_create(entries, batch_size=500)
    for p, entry in zip(plan["players"], entries):
        if p["withdrawal"] == WithdrawalKind.ABANDONMENT:  # regulation art. 10: suspended at once, as when typed
            abandonment_suspend(entry=entry, user=user, from_file=True)  # this event only, until confirmed
    by_id = {p["id"]: e for p, e in zip(plan["players"], entries)}
    Through = Entry.categories.through
    Through.objects.bulk_create(
        [
            Through(entry_id=by_id[p["id"]].pk, category_id=cats[code].pk)
            for p in plan["players"]
            for code in p["categories"]
        ],
        batch_size=1000,
    )
    return by_id


def _write_players(players):
    """``p["player"]`` for each player of the plan: the stored one with its CBJD ID, or a new one (created)."""
    wanted = [p["cbjd_id"] for p in players if p["cbjd_id"]]
    existing = {pl.cbjd_id: pl for pl in Player.objects.filter(cbjd_id__in=wanted)}
    new = []
    for p in players:
        if p["cbjd_id"] and p["cbjd_id"] in existing:
            p["player"] = existing[p["cbjd_id"]]
        else:
            p["player"] = Player(
                name=p["name"],
                sex=p["sex"],
                birth_date=p["birth_date"],
                state=p["state"],
                club=p["club"],
                cbjd_id=p["cbjd_id"],
                rating=p["rating"],
                fmjd_rating=p["fmjd_rating"],
                title=p["title"],
                federation=p["federation"],
                foreign_id=p["foreign_id"],
                title_as_written=p["title_as_written"],
                birth_year=p["birth_year"],
            )
            new.append(p["player"])
    Player.objects.bulk_create(new, batch_size=500)


def _entry(tournament, p):
    return Entry(
        tournament=tournament,
        player=p["player"],
        pairing_number=p["id"],
        rating=p["rating"],
        fmjd_rating=p["fmjd_rating"],
        status=EntryStatus.WITHDRAWN if p["withdrawn_from"] else EntryStatus.ACTIVE,
        withdrawn_from_round=p["withdrawn_from"],
        withdrawal_kind=p["withdrawal"],
        late_entry_round=p["late_entry"],
        declared_adult=p["declared_adult"],
        rating_kept_reason=p["rating_kept_reason"],
        accelerations=p["accelerations"],
        points_adjustment=p["points_adjustment"],
        points_adjustment_reason=p["points_adjustment_reason"],
        adjustment_lines=p["adjustment_lines"],
    )


def _write_rounds(tournament, plan, by_id):
    """The rounds as the file has them: boards, seats, games, one-sided rounds, byes and absences (those of rounds
    not paired yet too). Returns the rounds."""
    now = timezone.now()
    round_objs = Round.objects.bulk_create(
        [
            Round(
                tournament=tournament,
                number=r["number"],
                status=r["status"],
                opening=r["opening"],
                engine=r["engine"],
                manually_edited=r["manually_edited"],
                pairing_fingerprint=r["fingerprints"].get("pairing", ""),
                results_fingerprint=r["fingerprints"].get("results", ""),
                fingerprint_reasons=r["fingerprints"].get("reasons", {}),
                pairing_fingerprint_at=now if r["fingerprints"].get("pairing") else None,
                results_fingerprint_at=now if r["fingerprints"].get("results") else None,
                paired_at=now,
                published_at=now if r["status"] == RoundStatus.PUBLISHED else None,
            )
            for r in plan["rounds"]
        ]
    )
    rounds = list(zip(round_objs, plan["rounds"]))
    seats, games = _write_boards(rounds, by_id)
    _write_one_sided(tournament, rounds, by_id)
    absences = []
    for rnd, r in rounds:
        if r["bye"] is not None:
            seats.append(Seat(round=rnd, entry=by_id[r["bye"]], side=SeatSide.BYE))
        absences.extend(
            Absence(entry=by_id[pid], round_number=r["number"], value=r["absent_values"].get(pid, ""))
            for pid in r["absent"]
        )
    absences.extend(Absence(entry=by_id[pid], round_number=n, value=v) for n, pid, v in plan["ahead"])
    Seat.objects.bulk_create(seats, batch_size=1000)
    Game.objects.bulk_create(games, batch_size=1000)
    Absence.objects.bulk_create(absences, batch_size=1000)
    return round_objs


def _write_boards(rounds, by_id):
    """The boards (created), and their seats and games (to create)."""
    boards, board_plans = [], []
    for rnd, r in rounds:
        for b in r["boards"]:
            boards.append(Board(round=rnd, number=b["number"], opening=b["opening"], colourless=b["colourless"]))
            board_plans.append((rnd, b))
    Board.objects.bulk_create(boards, batch_size=1000)
    seats, games = [], []
    for board, (rnd, b) in zip(boards, board_plans):
        seats.append(Seat(round=rnd, entry=by_id[b["first"]], board=board, side=SeatSide.FIRST))
        seats.append(Seat(round=rnd, entry=by_id[b["second"]], board=board, side=SeatSide.SECOND))
        games.extend(Game(board=board, number=n, result=code) for n, code in enumerate(b["games"], start=1))
    return seats, games


def _write_one_sided(tournament, rounds, by_id):
    one_sided = [
        OneSidedRound(
            round=rnd,
            entry=by_id[pid],
            opponent=by_id[opp] if opp is not None else None,
            colour=colour,
            result=result,
        )
        for rnd, r in rounds
        for pid, opp, colour, result in r["one_sided"]
    ]
    if one_sided:
        OneSidedRound.objects.bulk_create(one_sided, batch_size=1000)
        Tournament.objects.filter(pk=tournament.pk).update(has_one_sided_rounds=True)
        tournament.has_one_sided_rounds = True
