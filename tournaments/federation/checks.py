"""What only the federation can check beside a stage's file (issue 36.3, 36.6), pure: the players entered without
their CBJD ID who look like a registered player, the points given outside the games, and a withdrawal recorded as
approved that hides an abandonment (art. 10). :func:`tournaments.federation.verification.verify` calls them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from tournaments.domain.categories import CategoryRule, Person, is_member
from tournaments.domain.text import clean
from tournaments.federation.findings import Finding, RegistryPlayer, Stage, listed, normalised

_FORFEITS = {"+/-", "-/+", "-/-"}


def _day(value: Any) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def likely_same(name: str, born: date | None, club: str, other: RegistryPlayer) -> bool:
    """Whether a player entered without an ID is likely ``other`` of the registry: the names agree once
    normalised (accents, case, apostrophes) and the birth dates do not differ; or the first and last names agree
    (an abbreviated middle name, "Gabriel F. Martins") and so do the birth dates, or the club when a date is
    missing."""
    a, b = normalised(name).split(), normalised(other.name).split()
    if not a or not b:
        return False
    if born is not None and other.birth_date is not None and born != other.birth_date:
        return False
    if a == b:
        return True
    if (a[0], a[-1]) != (b[0], b[-1]):
        return False
    if born is not None and other.birth_date is not None:
        return True
    return bool(club) and normalised(club) == normalised(other.club)


def _index(players: Mapping[str, RegistryPlayer]) -> dict[tuple[str, str], list[RegistryPlayer]]:
    out: dict[tuple[str, str], list[RegistryPlayer]] = {}
    for p in players.values():
        words = normalised(p.name).split()
        if words:
            out.setdefault((words[0], words[-1]), []).append(p)
    return out


def _answered(s: Stage, pid: int, answer: Mapping[str, Any]) -> str:
    """The officer's answer about a player, in words."""
    by = clean(answer.get("by")) or "a federação"
    same = s.identified.get(pid)
    if same:
        return f"{s.names[pid]} é {clean(s.registry.players[same].name)} (ID {same}; conferido por {by})"
    return f"{s.names[pid]} não é jogador do cadastro indicado (conferido por {by})"


def _matches(
    s: Stage, p: Mapping[str, Any], index: Mapping[tuple[str, str], list[RegistryPlayer]]
) -> tuple[list[RegistryPlayer], list[str]]:
    """The registry's players a player without an ID is likely to be, and the words saying so."""
    words = normalised(p.get("name")).split()
    if not words:
        return [], []
    born, club = _day(p.get("birth_date")), str(p.get("club") or "")
    found = [r for r in index.get((words[0], words[-1]), []) if likely_same(str(p.get("name")), born, club, r)]
    suspended = {x.cbjd_id: x for x in s.registry.suspensions}
    texts = []
    for r in found:
        text = f"{s.names[p['id']]} (sem ID CBJD" + (f", nascido em {born:%d/%m/%Y}" if born else "")
        text += f") parece ser {clean(r.name)} (ID {r.cbjd_id}"
        if r.cbjd_id in suspended:
            text += f", suspenso de {suspended[r.cbjd_id].start:%d/%m/%Y} a {suspended[r.cbjd_id].end:%d/%m/%Y}"
        texts.append(text + ")")
    return found, texts


def check_identities(s: Stage, answers: Mapping[str, Any]) -> list[Finding]:
    """Players without a CBJD ID the registry knows, matched against it by name, birth date and club (issue
    36.3). A likely match removes the rights until the officer says whether it is the same player; the answer
    is then said (and, for the same player, the stage is judged with his ID: his rating and his suspensions)."""
    index = _index(s.registry.players) if s.registry.players else {}
    open_matches: list[str] = []
    answered: list[str] = []
    matches: dict[str, list[list[str]]] = {}
    for p in s.players:
        pid = p["id"]
        if s.listed_on(p) is not None and pid not in s.identified:
            continue
        answer = answers.get(str(pid))
        if isinstance(answer, Mapping):
            answered.append(_answered(s, pid, answer))
            continue
        found, texts = _matches(s, p, index)
        if found:
            matches[str(pid)] = [[r.cbjd_id, clean(r.name)] for r in found]
            open_matches += texts
    out = []
    if open_matches:
        out.append(
            Finding(
                "registry_match",
                "art. 3, 4",
                "Jogadores sem ID CBJD parecidos com jogadores do cadastro (a federação deve dizer se são os "
                f"mesmos): {listed(open_matches)}.",
                data={"matches": matches},
            )
        )
    if answered:
        out.append(
            Finding(
                "registry_match_resolved", "art. 3, 4", f"Identidades conferidas: {listed(answered)}.", blocking=False
            )
        )
    return out


def check_points_adjustments(s: Stage) -> list[Finding]:
    """Points given or taken outside the games (``points_adjustment``): they change the standings and the spots,
    and the regulation has no such thing (issue 36.6)."""
    adjusted = []
    for p in s.players:
        value = p.get("points_adjustment")
        if not value:
            continue
        reason = clean(p.get("points_adjustment_reason"), 120)
        sign = "+" if float(value) > 0 else ""
        adjusted.append(f"{s.names[p['id']]} ({sign}{value}" + (f": {reason}" if reason else "") + ")")
    if not adjusted:
        return []
    return [
        Finding(
            "points_adjustment",
            "art. 6",
            f"Pontos dados ou tirados fora das partidas, que mudam a classificação e as vagas: {listed(adjusted)}.",
        )
    ]


def _stopped_without_notice(rounds: Sequence[Mapping[str, Any]], pid: int, before: int) -> int | None:
    """The round (before ``before``) the player last sat at a board and lost every game by forfeit, when that
    was his last board: he stopped without notice. None otherwise."""
    last = None
    for rnd in sorted(rounds, key=lambda r: r.get("number", 0)):
        number = int(rnd.get("number") or 0)
        if number >= before:
            break
        for b in rnd.get("boards") or []:
            if pid not in (b.get("first"), b.get("second")):
                continue
            games = list(b.get("games") or [])
            first = b.get("first") == pid
            lost = [g == "-/-" or (g == "-/+" if (n % 2 == 0) == first else g == "+/-") for n, g in enumerate(games)]
            last = number if games and all(g in _FORFEITS for g in games) and all(lost) else None
    return last


def _key(p: Mapping[str, Any]) -> str:
    return str(p.get("cbjd_id") or f"#{p.get('id')}")


def _abandoned_before(earlier: Sequence[Mapping[str, Any]]) -> set[str]:
    """The players an earlier version recorded as having abandoned."""
    return {
        _key(p)
        for version in earlier
        for p in version.get("players") or []
        if isinstance(p, Mapping) and p.get("withdrawal") == "abandonment"
    }


def check_withdrawals(s: Stage, earlier: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """A withdrawal recorded as approved by the arbiter that the results or an earlier version call an
    abandonment (art. 10: an abandonment takes no spot and suspends the player): the player lost his last board
    by forfeit (he stopped without notice), or a version received before recorded his abandonment."""
    abandoned = _abandoned_before(earlier)
    rounds = list(s.data.get("rounds") or [])
    flagged = []
    for p in s.players:
        if not p.get("withdrawn_from") or p.get("withdrawal") == "abandonment":
            continue
        why = ["enviado antes como abandono"] if _key(p) in abandoned else []
        stopped = _stopped_without_notice(rounds, p["id"], int(p["withdrawn_from"]))
        if stopped is not None:
            why.append(f"perdeu por W.O. a rodada {stopped} e não voltou: parou sem aviso")
        if why:
            flagged.append(f"{s.names[p['id']]} ({'; '.join(why)})")
    if not flagged:
        return []
    return [
        Finding(
            "withdrawal_reclassified",
            "art. 10",
            "Desistência registrada como aprovada pelo árbitro que parece abandono (o art. 10 tira a vaga e suspende "
            f"por 3 meses): {listed(flagged)}.",
        )
    ]


def _rule(cat: Mapping[str, Any]) -> CategoryRule:
    def number(key: str) -> int | None:
        value = cat.get(key)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    sex = cat.get("sex")
    return CategoryRule(
        code=str(cat.get("code")),
        sex=sex if isinstance(sex, str) and sex else None,
        max_age=number("max_age"),
        min_age=number("min_age"),
    )


def check_categories(s: Stage) -> list[Finding]:
    """Players placed in a category whose rule (sex, age) the registry says they do not meet: a man in the women's
    category, an adult in an under-18 one (the category's spots and its average depend on who is in it). The sex
    and birth date are the registry's when it knows the player, else the file's."""
    if s.start is None:
        return []
    rules = {str(c.get("code")): _rule(c) for c in s.data.get("categories") or [] if isinstance(c, Mapping)}
    wrong = []
    for p in s.players:
        registered = s.listed_on(p)
        person = Person(
            id=p["id"],
            sex=(registered.sex if registered and registered.sex else p.get("sex")) or None,
            birth_date=(registered.birth_date if registered else None) or _day(p.get("birth_date")),
            birth_year=p.get("birth_year") if isinstance(p.get("birth_year"), int) else None,
        )
        out = [
            code
            for code in p.get("categories") or []
            if code in rules and not is_member(rules[code], person, s.start.year)
        ]
        if out:
            wrong.append(f"{s.names[p['id']]} em {', '.join(clean(c) for c in out)}")
    if not wrong:
        return []
    return [
        Finding(
            "category_membership",
            "art. 6",
            "Jogadores em categoria a que não pertencem pelo cadastro (sexo ou idade): " + listed(wrong) + ".",
        )
    ]
