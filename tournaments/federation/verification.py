"""The federation's verification of a stage (issue 29; regulation art. 2 to 6, 10 to 12): a pure function of the
submitted interchange file and the federation's registry at the event's date, trusting nothing the file claims.

* round 1 re-derived from the national rating list in force on the event's date (art. 4): the players ranked by
  the list's ratings and paired by this product's engine, compared board by board with the file's round 1
  (colours too when the file says the engine paired it); every rating that differs from the list is listed;
* every round that names this product's engine paired again from the file's earlier rounds and compared board by
  board (art. 5);
* the standings (with the order exceptions a, b, c of art. 6) and the spots of each category recomputed with the
  list's ratings; an abandonment (art. 10) takes no spot;
* suspensions of the registry in force on the event's dates (art. 3, 6); participants who played (art. 6);
  rounds, time and tablita (art. 2, 6); birth dates under 21 (art. 12); the tiebreak profile (art. 6);
* the settings changed after round 1 (the file's ``settings_changes``), listed with who, when and why;
* with the federation's data beside the file: the receipt date against the 2-day deadline (art. 6, 11), and the
  results changed since the version the federation homologated.

Each :class:`Finding` names its article and says, in Portuguese, what is wrong; ``blocking`` findings remove the
qualification rights. :func:`verify` never raises on a file that :func:`tournaments.interchange.jsonfile.validate_file`
accepted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from tournaments.domain import (
    CategoryRule,
    Person,
    StandingsSettings,
    category_standings,
    compute_standings,
    is_member,
    tournament_from_interchange,
)
from tournaments.domain.qualification import Candidate, SpotTieRule, category_qualification
from tournaments.federation.diff import result_changes
from tournaments.federation.repair import CannotRepair, Pairs, repair, round1_from_list
from tournaments.federation.text import clean

ENGINE_NAME = "damas-swiss Dutch (FIDE C.04.3, 2026)"  # as tournaments.pairing_bridge records it
MIN_PARTICIPANTS = 30  # art. 6 (the federation's number, whatever the file's setting says)
ROUNDS_AND_TIME = ((7, 21), (5, 30))  # art. 2, 6
DEADLINE_DAYS = 2  # art. 6, 11
ADULT_AGE = 21  # art. 12
LISTED = 8  # names or boards listed in one finding before "e mais N"


@dataclass(frozen=True)
class RegistryPlayer:
    cbjd_id: str
    name: str
    rating: int | None
    sex: str = ""
    birth_date: date | None = None


@dataclass(frozen=True)
class SuspensionPeriod:
    cbjd_id: str
    start: date
    end: date
    reason: str = ""


@dataclass(frozen=True)
class Registry:
    """The federation's registry as it stood on a date: the national list in force then (its name and date) and
    the suspensions (unlifted) of the registry."""

    list_date: date | None
    list_name: str
    players: Mapping[str, RegistryPlayer]
    suspensions: Sequence[SuspensionPeriod] = ()


@dataclass(frozen=True)
class Finding:
    code: str
    article: str
    message: str
    blocking: bool = True

    def as_json(self) -> dict[str, str]:
        return {"code": self.code, "article": self.article, "message": self.message}


@dataclass(frozen=True)
class Verification:
    findings: tuple[Finding, ...]
    qualification: tuple[dict[str, Any], ...] = ()
    participants: int = 0
    rounds_completed: int = 0
    list_date: date | None = None
    settings_changes: tuple[dict[str, Any], ...] = field(default=())

    @property
    def rights(self) -> bool:
        return not any(f.blocking for f in self.findings)

    def as_json(self) -> dict[str, Any]:
        """The object ``verify_event --format json`` prints (interchange.md)."""
        return {"findings": [f.as_json() for f in self.findings], "rights": self.rights}


def _listed(items: Sequence[str]) -> str:
    text = ", ".join(items[:LISTED])
    return text + (f" e mais {len(items) - LISTED}" if len(items) > LISTED else "")


def _date(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None


def _board_text(pair: tuple[int, int] | None, names: Mapping[int, str]) -> str:
    if pair is None:
        return "nenhuma"
    return f"{names.get(pair[0], pair[0])} × {names.get(pair[1], pair[1])}"


def _compare(
    number: int, expected: Pairs, bye: int | None, rnd: Mapping[str, Any], names: Mapping[int, str], colours: bool
) -> list[str]:
    """The boards where the file's round differs from the expected pairing (texts), empty when equal."""
    actual = [(b["first"], b["second"]) for b in sorted(rnd.get("boards") or [], key=lambda b: b.get("board", 0))]
    diffs = []
    if colours:
        for i in range(max(len(actual), len(expected))):
            a = actual[i] if i < len(actual) else None
            e = expected[i] if i < len(expected) else None
            if a != e:
                diffs.append(f"mesa {i + 1}: no arquivo {_board_text(a, names)}, recalculado {_board_text(e, names)}")
    else:
        got = {frozenset(p) for p in actual}
        want = {frozenset(p) for p in expected}
        for pair in sorted(got - want, key=sorted):
            a, b = sorted(pair)
            diffs.append(f"no arquivo {names.get(a, a)} × {names.get(b, b)}, que o rating nacional não forma")
    if rnd.get("bye") != bye:
        diffs.append(
            f"folga: no arquivo {names.get(rnd.get('bye'), 'ninguém')}, recalculada {names.get(bye, 'ninguém') if bye else 'ninguém'}"  # type: ignore[arg-type]
        )
    return diffs


def _completed(rounds: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    done = []
    for expected, rnd in enumerate(sorted(rounds, key=lambda r: r.get("number", 0)), start=1):
        complete = rnd.get("status", "published") != "draft" and all(
            g is not None for b in rnd.get("boards") or [] for g in b.get("games") or [None]
        )
        if rnd.get("number") != expected or not complete:
            break
        done.append(rnd)
    return done


def _played(rounds: Sequence[Mapping[str, Any]]) -> set[int]:
    """Who played at least one game over the board (art. 6: a participant)."""
    out: set[int] = set()
    for rnd in rounds:
        for b in rnd.get("boards") or []:
            if any(g in ("1-0", "0-1", "1/2") for g in b.get("games") or []):
                out.update((b["first"], b["second"]))
    return out


@dataclass
class _Stage:
    """What every check reads: the file, its players' names, dates and rounds, and the registry."""

    data: Mapping[str, Any]
    registry: Registry
    players: list[Mapping[str, Any]]
    names: dict[int, str]
    start: date | None
    end: date | None
    rounds: list[Mapping[str, Any]]
    completed: list[Mapping[str, Any]]
    played: set[int]
    list_ratings: dict[int, int | None] = field(default_factory=dict)

    @property
    def t(self) -> Mapping[str, Any]:
        """The tournament's settings as played: a setting changed after round 1 (the file's ``settings_changes``)
        is judged at its value before the first change, as the homologation check judges it."""
        return {**self.data["tournament"], **_as_played(self.data)}

    @property
    def when(self) -> str:
        return f" de {self.registry.list_date:%d/%m/%Y}" if self.registry.list_date else ""

    def listed_on(self, p: Mapping[str, Any]) -> RegistryPlayer | None:
        return self.registry.players.get(str(p.get("cbjd_id") or ""))


def _stage(data: Mapping[str, Any], registry: Registry) -> _Stage:
    t = data["tournament"]
    players = list(data.get("players", []))
    rounds = sorted(data.get("rounds", []), key=lambda r: r.get("number", 0))
    completed = _completed(rounds)
    stage = _Stage(
        data=data,
        registry=registry,
        players=players,
        names={p["id"]: clean(p.get("name")) for p in players},
        start=_date(t.get("start_date")),
        end=_date(t.get("end_date")),
        rounds=rounds,
        completed=completed,
        played=_played(completed),
    )
    for p in players:
        entry = stage.listed_on(p)
        stage.list_ratings[p["id"]] = entry.rating if entry else None
    return stage


def _check_list(s: _Stage) -> list[Finding]:
    """The national list in force on the event's date (art. 4): players it does not know, ratings it differs on."""
    out = []
    if s.registry.list_date is None:
        out.append(
            Finding(
                "no_rating_list", "art. 4", "A federação não tem lista de rating nacional em vigor na data do evento."
            )
        )
    unknown = [s.names[p["id"]] for p in s.players if s.listed_on(p) is None]
    differ = [
        f"{s.names[p['id']]} (arquivo {p.get('rating') or 'sem rating'}, lista {entry.rating or 'sem rating'})"
        for p in s.players
        if (entry := s.listed_on(p)) is not None and p.get("rating") != entry.rating
    ]
    if unknown:
        out.append(
            Finding(
                "player_unknown",
                "art. 4",
                f"Jogadores sem ID CBJD conhecido no cadastro nacional (tratados como sem rating): {_listed(unknown)}.",
                blocking=False,
            )
        )
    if differ:
        out.append(
            Finding(
                "rating_differs",
                "art. 4",
                f"Rating diferente da lista nacional{s.when}: {_listed(differ)}.",
                blocking=False,
            )
        )
    return out


def _check_round1(s: _Stage) -> list[Finding]:
    """Round 1 re-paired from the national list (art. 4)."""
    r1 = next((r for r in s.rounds if r.get("number") == 1), None)
    if r1 is None:
        return []
    try:
        expected, bye = round1_from_list(s.data, s.list_ratings)
        diffs = _compare(1, expected, bye, r1, s.names, colours=r1.get("engine") == ENGINE_NAME)
    except CannotRepair as exc:
        diffs = [str(exc)]
    if not diffs:
        return []
    return [
        Finding(
            "round1_not_by_rating",
            "art. 4",
            f"A 1ª rodada não corresponde ao emparceiramento pelo rating nacional{s.when}: {_listed(diffs)}.",
        )
    ]


def _check_engine_rounds(s: _Stage) -> list[Finding]:
    """Every later round that names this product's engine, paired again and compared board by board (art. 5);
    rounds edited by hand and other programs are said."""
    out = []
    for rnd in s.rounds:
        number = int(rnd.get("number") or 0)
        if number <= 1 or rnd.get("engine") != ENGINE_NAME or rnd.get("manually_edited"):
            continue
        try:
            expected, bye = repair(s.data, number)
            diffs = _compare(number, expected, bye, rnd, s.names, colours=True)
        except CannotRepair as exc:
            diffs = [str(exc)]
        if diffs:
            out.append(
                Finding(
                    "pairing_differs",
                    "art. 5",
                    f"A rodada {number} diz ter sido emparceirada por este programa, mas o motor emparceira outra: "
                    f"{_listed(diffs)}.",
                )
            )
    edited = [str(r.get("number")) for r in s.rounds if r.get("manually_edited")]
    if edited:
        out.append(
            Finding("pairing_edited", "art. 5", f"Emparceiramento alterado à mão nas rodadas {', '.join(edited)}.")
        )
    others = sorted({clean(r.get("engine") or "não informado") for r in s.rounds if r.get("engine") != ENGINE_NAME})
    if others:
        out.append(
            Finding(
                "pairing_program",
                "art. 5",
                f"Rodadas emparceiradas por outro programa ({', '.join(others)}): a federação decide se o aceita.",
                blocking=False,
            )
        )
    return out


def _check_suspensions(s: _Stage) -> list[Finding]:
    """Suspensions of the registry in force on the event's dates (art. 3, 6)."""
    if s.start is None or s.end is None:
        return []
    ids = {str(p.get("cbjd_id")): p["id"] for p in s.players if p.get("cbjd_id")}
    suspended = [
        f"{s.names[ids[x.cbjd_id]]} (suspenso de {x.start:%d/%m/%Y} a {x.end:%d/%m/%Y}"
        + (f": {clean(x.reason, 120)}" if x.reason else "")
        + ")"
        for x in s.registry.suspensions
        if x.cbjd_id in ids and x.start <= s.end and x.end >= s.start
    ]
    if not suspended:
        return []
    return [Finding("suspended_player", "art. 3, 6", f"Jogador suspenso na data do evento: {_listed(suspended)}.")]


def _check_play(s: _Stage) -> list[Finding]:
    """Participants who played (art. 6); rounds, time, micro-match and tablita (art. 2, 6); tiebreaks (art. 6)."""
    out = []
    if len(s.played) < MIN_PARTICIPANTS:
        out.append(
            Finding(
                "participants",
                "art. 6",
                f"{len(s.played)} participantes jogaram ao menos uma partida; o mínimo é {MIN_PARTICIPANTS}.",
            )
        )
    minutes = s.t.get("minutes_per_game") or 0
    if not any(len(s.completed) >= r and minutes >= m for r, m in ROUNDS_AND_TIME):
        out.append(
            Finding(
                "rounds_and_time",
                "art. 2, 6",
                f"{len(s.completed)} rodadas completas de {minutes} minutos; exigem-se 7 rodadas de 21 minutos ou 5 de 30.",
            )
        )
    if s.t.get("format", "micro-match") != "micro-match":
        out.append(Finding("not_micro_match", "art. 2, 6", "As rodadas não foram jogadas em micro-match."))
    if s.t.get("variant", "brazilian-64") == "brazilian-64":
        missing = [
            str(r.get("number"))
            for r in s.completed
            if not r.get("opening") and not all(b.get("opening") for b in r.get("boards") or [{}])
        ]
        if missing:
            out.append(Finding("tablita", "art. 2, 6", f"Rodadas sem abertura da tablita: {', '.join(missing)}."))
    if s.t.get("tiebreaks", "cbjd") != "cbjd":
        out.append(Finding("tiebreaks", "art. 6", "Critérios de desempate diferentes dos da CBJD."))
    declared = s.t.get("min_participants")
    if isinstance(declared, int) and declared < MIN_PARTICIPANTS:
        out.append(
            Finding(
                "setting_min_participants",
                "art. 6",
                f"O arquivo declara mínimo de {declared} participantes; a federação aplica {MIN_PARTICIPANTS}.",
                blocking=False,
            )
        )
    return out


def _check_birth_dates(s: _Stage) -> list[Finding]:
    """Birth dates of the participants (art. 12: those under 21; a participant without one and not declared 21 or
    older is listed)."""
    if s.start is None:
        return []
    no_date = []
    for p in s.players:
        if p["id"] not in s.played or p.get("declared_adult"):
            continue
        entry = s.listed_on(p)
        if ((entry.birth_date if entry else None) or _date(p.get("birth_date"))) is None:
            no_date.append(s.names[p["id"]])
    if not no_date:
        return []
    return [
        Finding(
            "birth_dates",
            "art. 12",
            f"Participantes sem data de nascimento (nem declarados com 21 anos ou mais): {_listed(no_date)}.",
        )
    ]


def _check_settings_changes(s: _Stage) -> list[Finding]:
    """The settings changed after round 1, from the file's log: who, when, why."""
    return [
        Finding(
            "settings_changed",
            "art. 6",
            f"Configuração “{clean(c.get('field'))}” alterada após a 1ª rodada: {clean(c.get('before'))} → "
            f"{clean(c.get('after'))}, por {clean(c.get('by')) or 'desconhecido'} em "
            f"{clean(c.get('at'), 25) or 'data não informada'} (motivo: {clean(c.get('reason'), 200) or 'não informado'}).",
            blocking=False,
        )
        for c in _settings_changes(s.data)
    ]


def _settings_changes(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [c for c in data.get("settings_changes") or [] if isinstance(c, Mapping)]


# the settings log names the tournament's fields; the file's ``tournament`` object names two of them otherwise
_FILE_KEY = {"planned_rounds": "rounds"}


def _as_played(data: Mapping[str, Any]) -> dict[str, Any]:
    """Each setting changed after round 1 at its value before its first change (earliest ``at`` first)."""
    out: dict[str, Any] = {}
    for change in sorted(_settings_changes(data), key=lambda c: str(c.get("at") or "")):
        key = _FILE_KEY.get(str(change.get("field")), str(change.get("field")))
        out.setdefault(key, change.get("before"))
    return out


def _check_received(s: _Stage, received_on: date | None, approved: Mapping[str, Any] | None) -> list[Finding]:
    """With the federation's own data: its receipt date against the deadline (art. 6, 11) and the results changed
    since the version it homologated."""
    out = []
    if received_on is not None and s.end is not None:
        deadline = s.end + timedelta(days=DEADLINE_DAYS)
        if received_on > deadline:
            late = (received_on - deadline).days
            out.append(
                Finding(
                    "deadline",
                    "art. 6, 11",
                    f"Recebido pela federação em {received_on:%d/%m/%Y}, {late} dia{'s' if late > 1 else ''} após o "
                    f"prazo ({deadline:%d/%m/%Y}).",
                )
            )
    changed = result_changes(approved, s.data) if approved is not None else []
    if changed:
        out.append(
            Finding(
                "changed_after_approval",
                "art. 6, 11",
                "Resultados alterados depois da homologação: "
                + _listed([f"{c['what']} ({c['before']} → {c['after']})" for c in changed])
                + ".",
            )
        )
    return out


def verify(
    data: Mapping[str, Any],
    registry: Registry,
    *,
    received_on: date | None = None,
    approved: Mapping[str, Any] | None = None,
) -> Verification:
    """Verify a stage. ``received_on``: the day the federation received it (its own clock, the event's time
    zone), judged against the deadline; ``approved``: the version the federation homologated before, if any."""
    s = _stage(data, registry)
    findings = [
        *_check_list(s),
        *_check_round1(s),
        *_check_engine_rounds(s),
        *_check_suspensions(s),
        *_check_play(s),
        *_check_birth_dates(s),
        *_check_settings_changes(s),
        *_check_received(s, received_on, approved),
    ]
    rights = not any(f.blocking for f in findings)
    return Verification(
        findings=tuple(findings),
        qualification=tuple(_qualification(data, registry, s.list_ratings, s.completed, s.played, rights, s.start)),
        participants=len(s.played),
        rounds_completed=len(s.completed),
        list_date=registry.list_date,
        settings_changes=tuple(dict(c) for c in _settings_changes(data)),
    )


def _qualification(
    data: Mapping[str, Any],
    registry: Registry,
    list_ratings: Mapping[int, int | None],
    completed: Sequence[Mapping[str, Any]],
    played: set[int],
    rights: bool,
    start: date | None,
) -> list[dict[str, Any]]:
    """Per category: the spots from the list's ratings and who takes them in the recomputed standings."""
    t = data["tournament"]
    players = list(data.get("players", []))
    rated = {**data, "players": [{**p, "rating": list_ratings.get(p["id"])} for p in players]}
    try:
        standings = compute_standings(
            tournament_from_interchange(rated, rounds_completed=len(completed)), StandingsSettings()
        )
    except ValueError:
        return []
    year = start.year if start else date.today().year
    people = []
    for p in players:
        entry = registry.players.get(str(p.get("cbjd_id") or ""))
        people.append(
            Person(
                id=p["id"],
                sex=(entry.sex if entry and entry.sex else p.get("sex")) or None,
                birth_date=(entry.birth_date if entry else None) or _date(p.get("birth_date")),
                birth_year=p.get("birth_year"),
            )
        )
    by_id = {p["id"]: p for p in players}
    abandoned = {p["id"] for p in players if p.get("withdrawal") == "abandonment"}
    out = []
    categories = data.get("categories") or [{"code": "ABS", "name": "Absoluto"}]
    for cat in categories:
        rule = CategoryRule(
            code=str(cat.get("code")),
            name=clean(cat.get("name")),
            sex=cat.get("sex"),
            max_age=cat.get("max_age"),
            min_age=cat.get("min_age"),
        )
        ids = {person.id for person in people if is_member(rule, person, year)}
        rows = category_standings(standings, ids)
        candidates = [
            Candidate(
                id=r.row.id,
                place=r.row.place,
                points=r.row.points,
                tiebreaks=r.row.tiebreaks,
                order=r.row.order,
                abandoned=r.row.id in abandoned,
            )
            for r in rows
        ]
        result = category_qualification(
            rule.code,
            [list_ratings.get(i) for i in ids],
            len(played),
            rights=rights,
            provisional=int(t.get("provisional_rating") or 1600),
            candidates=candidates,
            tie_rule=SpotTieRule.COMMITTEE,
        )

        def who(pid: int) -> dict[str, Any]:
            p = by_id[pid]
            return {"id": pid, "cbjd_id": p.get("cbjd_id"), "name": clean(p.get("name"))}

        out.append(
            {
                "code": rule.code,
                "name": rule.name or rule.code,
                "spots": result.spots,
                "average": None if result.average is None else str(round(result.average, 2)),
                "qualified": [who(pid) for pid in result.qualified],
                # the next placed, best first: a spot passed on (a player already qualified) goes to them
                "order": [who(c.id) for c in candidates if not c.abandoned][: result.spots + 10],
            }
        )
    return out
