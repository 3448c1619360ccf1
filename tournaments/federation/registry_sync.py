"""At the venue: download the federation's national rating list and the suspensions in force (art. 4, 3, 10).

The list goes through the same import as a rating list file (all-or-nothing, every change audited, recorded
with the list's date, so round 1 says which list it used); the suspensions in force are added to the venue's
registry (a suspension already there is not doubled). Nothing is written unless the whole answer is sound.
"""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Any

from django.db import transaction

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.affected import of_players, pages_changed
from tournaments.core.errors import ServiceError
from tournaments.domain.text import clean
from tournaments.entries.services import rating_list_import
from tournaments.federation import client
from tournaments.federation.editions import editions_receive
from tournaments.models import Player, RegistrySync, Suspension
from tournaments.models.choices import AuditAction, SuspensionSource

MAX_PLAYERS = 50_000


def _as_csv(players: list[Any]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    writer.writerow(["ID CBJD", "Nome", "Rating", "Nascimento", "Sexo", "UF", "Clube", "Partidas"])
    for n, p in enumerate(players, start=1):
        if not isinstance(p, dict):
            raise ServiceError(f"Resposta da federação inválida: jogador {n} não é um objeto.")
        birth = p.get("birth_date")
        try:
            birth_text = date.fromisoformat(birth).strftime("%d/%m/%Y") if birth else ""
        except (TypeError, ValueError):
            raise ServiceError(f"Resposta da federação inválida: data de nascimento do jogador {n}.") from None
        rating = p.get("rating")
        if rating is not None and (not isinstance(rating, int) or isinstance(rating, bool)):
            raise ServiceError(f"Resposta da federação inválida: rating do jogador {n}.")
        games = p.get("rated_games", 0)  # a federation before issue 40 does not send them
        if not isinstance(games, int) or isinstance(games, bool) or not 0 <= games < 1_000_000:
            raise ServiceError(f"Resposta da federação inválida: partidas do jogador {n}.")
        writer.writerow(
            [
                str(p.get("cbjd_id") or ""),
                str(p.get("name") or ""),
                "" if rating is None else str(rating),
                birth_text,
                str(p.get("sex") or ""),
                str(p.get("state") or ""),
                str(p.get("club") or ""),
                str(games),
            ]
        )
    return out.getvalue().encode("utf-8")


@transaction.atomic
def registry_download(*, user: Actor) -> RegistrySync:
    """Fetch and record the national list and the suspensions in force. Raises ServiceError (nothing written)
    when the federation cannot be reached or its answer is not sound."""
    try:
        answer = client.national_list()
    except client.FederationError as exc:
        raise ServiceError(f"Não foi possível baixar a lista da federação: {exc}") from exc
    info: dict[str, Any] = answer["list"] if isinstance(answer.get("list"), dict) else {}
    players = answer.get("players")
    suspensions = answer.get("suspensions")
    if not isinstance(players, list) or not isinstance(suspensions, list) or len(players) > MAX_PLAYERS:
        raise ServiceError("Resposta da federação inválida: lista de jogadores ou de suspensões ausente.")
    try:
        list_date = date.fromisoformat(str(info.get("date"))) if info.get("date") else None
    except ValueError:
        raise ServiceError("Resposta da federação inválida: data da lista.") from None
    name = clean(info.get("name"), 120) or "lista nacional"
    editions = editions_receive(answer.get("editions"))  # the regulation's editions (issue 35.1), checked first
    if players:
        rating_list_import(data=_as_csv(players), filename=f"federação: {name}"[:200], user=user, list_date=list_date)
    by_id = {
        p.cbjd_id: p
        for p in Player.objects.filter(cbjd_id__in=[str(s.get("cbjd_id")) for s in suspensions if isinstance(s, dict)])
    }
    added = 0
    suspended: list[int] = []
    for n, s in enumerate(suspensions, start=1):
        try:
            start, end = date.fromisoformat(s["start"]), date.fromisoformat(s["end"])
            source = s["source"] if s["source"] in SuspensionSource.values else SuspensionSource.TRIBUNAL
        except (KeyError, TypeError, ValueError):
            raise ServiceError(f"Resposta da federação inválida: suspensão {n}.") from None
        player = by_id.get(str(s.get("cbjd_id")))
        if player is None or end < start:
            continue
        if Suspension.objects.filter(player=player, start_date=start, end_date=end, lifted_at__isnull=True).exists():
            continue
        Suspension.objects.create(
            player=player,
            start_date=start,
            end_date=end,
            source=source,
            reason=clean(s.get("reason"), 300) or "Suspensão em vigor segundo a federação.",
            created_by=login_of(user),
        )
        suspended.append(player.pk)
        added += 1
    pages_changed(of_players(suspended))  # the rights of every tournament of those players
    sync = RegistrySync.objects.create(
        list_name=name, list_date=list_date, players=len(players), suspensions=len(suspensions)
    )
    audit(
        tournament=None,
        user=user,
        action=AuditAction.REGISTRY_SYNC,
        obj=sync,
        summary=f"{name} ({list_date}): {len(players)} jogadores, {added} suspensões novas, {editions} edições novas",
    )
    return sync
