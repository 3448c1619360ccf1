"""The federation's verification of a stage (issue 29, issue 36; regulation art. 2 to 6, 10 to 12): a pure function of
the submitted interchange file and the federation's registry as of the event's dates, trusting nothing the file
claims, and judging with the venue's own rules (one implementation, issue 36.1):

* the file becomes a :class:`~tournaments.domain.snapshot.Snapshot` (``snapshot_from_interchange``), its entries'
  ratings replaced by the national list's in force on the event's date (art. 4) and their sex and birth date by
  the registry's;
* the venue's report composes the rest (``homologation_report``): the overall standings and who is a participant
  (``tournaments.standings.compute``), the conditions and the rights (``tournaments.homologation.conditions``),
  the categories' spots (``tournaments.domain.qualification`` through ``with_categories``). Every round is taken
  as imported: round 1 is paired again from the list's ratings and every round naming this product's engine is
  paired again from the rounds before it (``tournaments.homologation.repairing`` on the snapshot alone, through
  ``tournaments.rounds.pairing_bridge.snapshot_state``: no database);
* the suspensions of the registry that count for the event's dates (``tournaments.domain.suspensions``), a
  suspension this very stage gave left out (issue 36.2);
* what only the federation can see beside the file: the list's players and ratings, the players without an ID
  who look like a registered player (issue 36.3), the points given outside the games and a withdrawal that hides
  an abandonment (issue 36.6), the settings changed after round 1, the receipt date against the deadline and the
  results changed since the version it homologated.

Each :class:`Finding` names its article and says, in Portuguese, what is wrong; ``blocking`` findings remove the
qualification rights. An unmet condition of the venue's report is a finding whose message is the condition's
detail, so the venue and the federation say the same thing for the same fact.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from pairing.model import ForbiddenPair
from tournaments.domain.edition import Edition, edition_in_force, shipped_editions
from tournaments.domain.fingerprints import chain_breaks
from tournaments.domain.interchange import snapshot_from_interchange
from tournaments.domain.settings_lock import CATEGORY_AFTER_IMPORT, SettingsChange, first_values
from tournaments.domain.snapshot import Snapshot
from tournaments.domain.suspensions import counts_for_event
from tournaments.domain.text import clean
from tournaments.federation.checks import (
    check_categories,
    check_identities,
    check_points_adjustments,
    check_withdrawals,
)
from tournaments.federation.diff import result_changes
from tournaments.federation.findings import (
    Finding,
    Registry,
    RegistryPlayer,
    Stage,
    SuspensionPeriod,
    listed,
    parse_date,
)
from tournaments.federation.provenance import StageFacts, provenance_findings
from tournaments.homologation.changes import FACT_TEXTS
from tournaments.homologation.conditions import RESULTS_KEY, Suspended
from tournaments.homologation.repairing import check_snapshot_pairings
from tournaments.homologation.report import HomologationReport, categories_json, homologation_report
from tournaments.rounds.pairing_bridge import ENGINE_NAME
from tournaments.standings import TournamentStandings, with_categories

__all__ = ["ENGINE_NAME", "Finding", "Registry", "RegistryPlayer", "SuspensionPeriod", "Verification", "verify"]

DEADLINE_DAYS = 2  # art. 6, 11
# the finding of an unmet condition of the report (tournaments.homologation.conditions.CONDITION_KEYS)
CONDITION_CODES = {
    "participants": "participants",
    "rounds_and_time": "rounds_and_time",
    "no_suspended": "suspended_player",
    "round1_by_rating": "round1_not_by_rating",
    "pairing_engine": "pairing_differs",
    "tiebreaks": "tiebreaks",
    "birth_dates": "birth_dates",
    "unplayed_values": "unplayed_values",  # only when the stage's edition fixes the bye's or the absence's value
}


@dataclass(frozen=True)
class Verification:
    findings: tuple[Finding, ...]
    qualification: tuple[dict[str, Any], ...] = ()
    participants: int = 0
    rounds_completed: int = 0
    list_date: date | None = None
    settings_changes: tuple[dict[str, Any], ...] = field(default=())
    # the venue's report of the snapshot judged, and the standings with the spots as the federation awards them
    report: HomologationReport | None = field(default=None, compare=False, repr=False)
    standings: TournamentStandings | None = field(default=None, compare=False, repr=False)

    @property
    def rights(self) -> bool:
        return not any(f.blocking for f in self.findings)

    @property
    def categories(self) -> list[dict[str, Any]]:
        """The categories as ``homologation_check --format json`` prints them (code, entries, average, counted,
        spots, qualified: pairing numbers)."""
        if self.standings is None:
            return []
        return categories_json(c.qualification for c in self.standings.categories)

    def as_json(self) -> dict[str, Any]:
        """The object ``verify_event --format json`` prints (interchange.md)."""
        return {"findings": [f.as_json() for f in self.findings], "rights": self.rights, "categories": self.categories}


def _stage(data: Mapping[str, Any], registry: Registry, resolutions: Mapping[str, Any]) -> Stage:
    t = data["tournament"]
    players = list(data.get("players", []))
    stage = Stage(
        data=data,
        registry=registry,
        players=players,
        names={p["id"]: clean(p.get("name")) for p in players},
        slug=str(t.get("slug") or ""),
        start=parse_date(t.get("start_date")),
        end=parse_date(t.get("end_date")),
    )
    ids = {str(p["id"]) for p in players}
    for pid, answer in resolutions.items():
        same = str((answer or {}).get("cbjd_id") or "") if isinstance(answer, Mapping) else ""
        if str(pid) in ids and same in registry.players:
            stage.identified[int(pid)] = same
    return stage


def _registered(snapshot: Snapshot, s: Stage) -> Snapshot:
    """The snapshot with each entry's rating the national list's (a player it does not know: unrated), its sex
    and birth date the registry's when it has them, and the CBJD ID the officer identified."""
    by_id = {p["id"]: p for p in s.players}
    entries = []
    for e in snapshot.entries:
        listed = s.listed_on(by_id[e.pk])
        if listed is None:
            entries.append(e._replace(rating=None))
            continue
        player = e.player._replace(
            cbjd_id=listed.cbjd_id,
            sex=listed.sex or e.player.sex,
            birth_date=listed.birth_date or e.player.birth_date,
        )
        entries.append(e._replace(rating=listed.rating, player=player))
    # the list round 1 is judged by is the registry's; the minimum the edition's in force on the start date, not
    # the file's (issue 35: until the snapshot's settings come from the edition)
    settings = dataclasses.replace(
        snapshot.settings, rating_list_name=s.registry.list_name, rating_list_date=s.registry.list_date
    )
    if s.edition is not None:
        settings = dataclasses.replace(settings, min_participants=s.edition.min_participants)
    # the list's ratings are the ones judged, not the file's as played (issue 35.3)
    return dataclasses.replace(snapshot, entries=tuple(entries), settings=settings, played_ratings={})


def _suspended(s: Stage) -> list[Suspended]:
    """The registry's suspensions of the stage's players that count for its dates, those the stage itself gave
    left out (issue 36.2)."""
    if s.start is None or s.end is None:
        return []
    tz = str(s.data["tournament"].get("time_zone") or "America/Sao_Paulo")
    players = {s.cbjd_id(p): s.names[p["id"]] for p in s.players if s.cbjd_id(p)}
    return [
        Suspended(players[x.cbjd_id], x.start, x.end)
        for x in s.registry.suspensions
        if x.cbjd_id in players
        and not (x.origin and x.origin in (s.slug, s.data["tournament"].get("stage_id")))
        and counts_for_event(
            x.start,
            x.end,
            abandonment=x.abandonment,
            lifted_at=x.lifted_at,
            event_start=s.start,
            event_end=s.end,
            time_zone=tz,
        )
    ]


def _check_conditions(report: HomologationReport) -> list[Finding]:
    """The report's unmet conditions (those that decide the rights), each a finding with the condition's words."""
    return [
        Finding(CONDITION_CODES[c.key], c.article, f"{c.label}: {c.detail}")
        for c in report.conditions
        # results changed after they were complete: one round_changed finding per round (federation.provenance),
        # blocking by the same rule (ChainBreak.blocking) as the report's condition
        if c.decides_rights and not c.met and c.key != RESULTS_KEY
    ]


def _check_list(s: Stage) -> list[Finding]:
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
                f"Jogadores sem ID CBJD conhecido no cadastro nacional (tratados como sem rating): {listed(unknown)}.",
                blocking=False,
            )
        )
    if differ:
        out.append(
            Finding(
                "rating_differs",
                "art. 4",
                f"Rating diferente da lista nacional{s.when}: {listed(differ)}.",
                blocking=False,
            )
        )
    return out


def _check_settings_changes(s: Stage) -> list[Finding]:
    """The settings changed after round 1, from the file's log: who, when, why. A stage's categories, who is in
    them and the entries' ratings changed after round 1 in words (issue 35.3); the categories an imported event
    defined after the import in one finding (they are the venue's, not the file's)."""
    out = []
    imported = []
    for c in s.data.get("settings_changes") or []:
        if not isinstance(c, Mapping):
            continue
        field_name = c.get("field")
        if field_name == CATEGORY_AFTER_IMPORT:
            imported.append(c)
            continue
        if field_name in FACT_TEXTS:
            what = f"Após a 1ª rodada, {clean(FACT_TEXTS[field_name](_as_change(c)), 300)}"
        else:
            what = (
                f"Configuração “{clean(field_name)}” alterada após a 1ª rodada: {clean(c.get('before'))} → "
                f"{clean(c.get('after'))}"
            )
        out.append(
            Finding(
                "settings_changed",
                "art. 6",
                f"{what}, por {clean(c.get('by')) or 'desconhecido'} em {clean(c.get('at'), 25) or 'data não informada'} "
                f"(motivo: {clean(c.get('reason'), 200) or 'não informado'}).",
                blocking=False,
            )
        )
    if imported:
        codes = listed([clean((c.get("after") or {}).get("code")) for c in imported])
        out.append(
            Finding(
                "categories_after_import",
                "art. 6",
                f"Evento importado: as categorias {codes} foram definidas no local depois da importação do arquivo "
                "(não vêm do programa que emparceirou o evento); quem está nelas é a regra do local.",
                blocking=False,
            )
        )
    return out


def _as_change(c: Mapping[str, Any]) -> SettingsChange:
    return SettingsChange(str(c.get("field")), c.get("before"), c.get("after"), datetime.min, "", "")


def _check_declared_minimum(snapshot: Snapshot, s: Stage) -> list[Finding]:
    """The file's minimum of participants (as played: before a change after round 1) other than the edition's."""
    # the file's own value: a stage's snapshot already holds the edition's (issue 35.1, settings_from_interchange)
    written = s.data["tournament"].get("min_participants", snapshot.settings.min_participants)
    declared = first_values(snapshot.settings_changes).get("min_participants", written)
    if s.edition is None or declared == s.edition.min_participants:
        return []
    return [
        Finding(
            "setting_min_participants",
            "art. 6",
            f"O arquivo declara mínimo de {declared} participantes; a federação aplica {s.edition.min_participants} "
            f"({s.edition.title}).",
            blocking=False,
        )
    ]


def _check_received(s: Stage, received_on: date | None, approved: Mapping[str, Any] | None) -> list[Finding]:
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
                + listed([f"{c['what']} ({c['before']} → {c['after']})" for c in changed])
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
    earlier: Sequence[Mapping[str, Any]] = (),
    resolutions: Mapping[str, Any] | None = None,
    editions: Sequence[Edition] | None = None,
    stage: StageFacts | None = None,
    calendar: bool = False,
) -> Verification:
    """Verify a stage. ``received_on``: the day the federation received it (its own clock, the event's time
    zone), judged against the deadline; ``approved``: the version the federation homologated before, if any;
    ``earlier``: the earlier versions it received (oldest first); ``resolutions``: the officer's answers to the
    registry matches (player id -> ``{"cbjd_id": ...}`` for "the same player", ``{"cbjd_id": ""}`` for "another
    player"); ``editions``: the regulation's editions (default: those the product ships), the one in force on the
    event's start date judging it; ``stage``: what the federation recorded of the stage the file names (its calendar
    entry, the fingerprints received), judged with the calendar when ``calendar`` (the server; a file verified
    alone has no calendar). ``data`` must have passed ``validate_file``."""
    answers = resolutions or {}
    s = _stage(data, registry, answers)
    s.edition = edition_in_force(shipped_editions() if editions is None else editions, s.start)
    t = data["tournament"]
    as_sent = snapshot_from_interchange(dict(data), editions=editions or ())
    # the rounds' chain judged on the file as sent: the players as the venue named them when it fingerprinted
    # each round, before the registry identifies them (the venue's report judges its own by the same rule)
    chain = chain_breaks(as_sent, (ENGINE_NAME,))
    snapshot = _registered(as_sent, s)
    forbidden = [
        ForbiddenPair(players=list(f["players"]), first_round=f.get("from"), last_round=f.get("to"))
        for f in data.get("forbidden") or []
    ]
    checks = check_snapshot_pairings(snapshot, forbidden=forbidden, initial_colour=t.get("initial_colour") or "white")
    report = homologation_report(snapshot, _suspended(s), received_on, checks, chain)
    origin = provenance_findings(data, stage, engine_name=ENGINE_NAME, calendar=calendar, chain=chain)
    findings = [
        *(Finding(*note) for note in origin),
        *_check_list(s),
        *check_identities(s, answers),
        *_check_conditions(report),
        *check_categories(s),
        *check_points_adjustments(s),
        *check_withdrawals(s, earlier),
        *_check_declared_minimum(as_sent, s),
        *_check_settings_changes(s),
        *_check_received(s, received_on, approved),
    ]
    rights = not any(f.blocking for f in findings)
    standings = report.standings if rights == report.rights else with_categories(report.standings, rights=rights)
    return Verification(
        findings=tuple(findings),
        qualification=tuple(_qualification(standings, s)),
        participants=len(standings.participation),
        rounds_completed=len(standings.counted),
        list_date=registry.list_date,
        settings_changes=tuple(c.as_json() for c in report.settings_changes),
        report=report,
        standings=standings,
    )


def _qualification(standings: TournamentStandings, s: Stage) -> list[dict[str, Any]]:
    """Per category, what the season reads: the spots, who takes them (best first) and the next placed (a spot
    passed on in the season, a player already qualified by an earlier stage, goes to them)."""
    by_id = {p["id"]: p for p in s.players}

    def who(pid: int) -> dict[str, Any]:
        p = by_id[pid]
        return {"id": pid, "cbjd_id": s.cbjd_id(p) or None, "name": s.names[pid]}

    out = []
    names = {c.code: c.name for c in standings.snapshot.categories}
    for cat in standings.categories:
        q = cat.qualification
        out.append(
            {
                "code": q.code,
                "name": clean(names.get(q.code)) or q.code,
                "entries": q.entries,
                "counted": q.counted,
                "spots": q.spots,
                "average": None if q.average is None else str(round(q.average, 2)),
                "qualified": [who(pid) for pid in q.qualified],
                "order": [who(c.id) for c in cat.candidates if not c.abandoned][: q.spots + 10],
            }
        )
    return out
