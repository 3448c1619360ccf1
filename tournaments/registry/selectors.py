"""Reads on the national registry: likely duplicates of a new player, and the players a pasted list names.

Names are compared without accents or case (``Player.search_name``), the same on SQLite and PostgreSQL.
"""

from dataclasses import dataclass, field

from django.db.models import Q

from tournaments.models import Entry, Player, RatingList, Tournament
from tournaments.models.friendly import fold

MAX_LINES = 500


def likely_duplicates(name, birth_date=None, exclude_pk=None, limit=10):
    """Players who may be the same person: the same name once accents and case are ignored, or the same birth
    date and the same first or last name."""
    key = fold(name)
    words = key.split()
    if not words:
        return []
    query = Q(search_name=key)
    if birth_date is not None:
        same_part = Q(search_name__startswith=words[0] + " ") | Q(search_name__endswith=" " + words[-1])
        query |= Q(birth_date=birth_date) & same_part
    qs = Player.objects.filter(query)
    if exclude_pk:
        qs = qs.exclude(pk=exclude_pk)
    return list(qs.order_by("search_name", "pk")[:limit])


@dataclass
class LineMatch:
    """One line of a pasted list: the player it names, or why it names nobody (or several)."""

    number: int
    text: str
    player: Player | None = None
    candidates: list = field(default_factory=list)  # when several players match, or none exactly
    how: str = ""  # "cbjd", "name", "part" (every word of the line in one player's name)
    problem: str = ""  # "none", "several", "repeated", "entered", "suspended", "too_many"
    detail: str = ""


def _id_token(text):
    for sep in ";,\t":
        text = text.replace(sep, " ")
    return text.split()[0] if text.split() else ""


def match_lines(text):
    """Each non-empty line is a CBJD ID (alone or first on the line) or a name. Returns a LineMatch per line."""
    lines = [(i, line.strip()) for i, line in enumerate((text or "").splitlines(), start=1) if line.strip()]
    out = []
    if len(lines) > MAX_LINES:
        return [LineMatch(number=lines[MAX_LINES][0], text=lines[MAX_LINES][1][:120], problem="too_many")]
    ids = {t.casefold() for _n, line in lines for t in {line, _id_token(line)}}
    by_id = {}
    for p in Player.objects.filter(cbjd_id__isnull=False).filter(
        Q(cbjd_id__in=list(ids)) | Q(cbjd_id__in=[i.upper() for i in ids])
    ):
        by_id[p.cbjd_id.casefold()] = p
    for number, line in lines:
        match = LineMatch(number=number, text=line[:120])
        player = by_id.get(line.casefold()) or by_id.get(_id_token(line).casefold())
        if player is not None:
            match.player, match.how = player, "cbjd"
        else:
            key = fold(line)
            exact = list(Player.objects.filter(search_name=key).order_by("pk")[:6])
            if len(exact) == 1:
                match.player, match.how = exact[0], "name"
            elif exact:
                match.problem, match.candidates = "several", exact
            else:
                words = key.split()
                part = Q()
                for word in words:
                    part &= Q(search_name__contains=word)
                found = list(Player.objects.filter(part).order_by("search_name", "pk")[:6]) if words else []
                if len(found) == 1:
                    match.player, match.how = found[0], "part"
                elif found:
                    match.problem, match.candidates = "several", found
                else:
                    match.problem = "none"
        out.append(match)
    seen = {}
    for match in out:
        if match.player is None:
            continue
        if match.player.pk in seen:
            match.problem, match.detail = "repeated", str(seen[match.player.pk])
        else:
            seen[match.player.pk] = match.number
    return out


def latest_rating_list() -> RatingList | None:
    """The national rating list imported last into the registry, or None."""
    return RatingList.objects.order_by("-imported_at", "-id").first()


def rating_differences(tournament: Tournament) -> list[Entry]:
    """Before round 1: the entries whose rating differs from the registry's current one (they take it when round
    1 is paired, unless the director kept the rating of registration), with their players."""
    return [
        e
        for e in Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__search_name", "pk")
        if (e.rating, e.fmjd_rating) != (e.player.rating, e.player.fmjd_rating)
    ]
