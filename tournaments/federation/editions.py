"""The regulation's editions (issue 35.1): the federation publishes them (a JSON file, :func:`edition_publish`),
serves them with the registry (:func:`editions_served`), and a venue stores those it receives
(:func:`editions_receive`, from ``sync_registry``). A published edition never changes (the model, its queryset
and a database trigger refuse it): a correction is a new edition, in force from its own date."""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core.errors import ServiceError
from tournaments.domain.edition import Edition, EditionError, EditionTooNew, edition_from_json, shipped_by_code
from tournaments.domain.text import clean
from tournaments.models import RegulationEdition
from tournaments.models.choices import AuditAction

MAX_EDITION_BYTES = 200_000
MAX_EDITIONS = 200


def _row(edition: Edition, by: str) -> RegulationEdition:
    return RegulationEdition(
        code=edition.code,
        title=edition.title,
        in_force_from=edition.in_force_from,
        in_force_until=edition.in_force_until,
        payload=edition.as_json(),
        published_by=by[:150],
    )


@transaction.atomic
def edition_publish(*, data: bytes, user: Actor) -> RegulationEdition:
    """Publish an edition from its JSON file: read as hostile, all or nothing. A code already known (shipped
    with the product or published before) is refused: an edition never changes."""
    if len(data) > MAX_EDITION_BYTES:
        raise ServiceError("Arquivo grande demais para uma edição do regulamento (até 200 kB).")
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ServiceError("O arquivo não é um JSON válido em UTF-8.") from None
    try:
        edition = edition_from_json(parsed)
    except EditionError as exc:
        raise ServiceError(str(exc)) from None
    if edition.code in shipped_by_code() or RegulationEdition.objects.filter(code=edition.code).exists():
        raise ServiceError(
            f"Já existe uma edição “{edition.code}”: uma edição publicada não muda; publique outra com um novo código."
        )
    login = login_of(user)
    row = _row(edition, login.get_username() if login is not None else "")
    row.save()
    audit(
        tournament=None,
        user=user,
        action=AuditAction.EDITION_PUBLISH,
        obj=row,
        summary=f"{edition.code}: {edition.title} (em vigor desde {edition.in_force_from:%d/%m/%Y})",
    )
    return row


def editions_served() -> list[dict[str, Any]]:
    """The editions the federation published, as it serves them to venues with the registry."""
    return list(RegulationEdition.objects.order_by("in_force_from", "code").values_list("payload", flat=True))


def editions_receive(items: Any) -> int:
    """At a venue, the editions received with the registry: every one read as hostile first (nothing is written
    unless all are sound), those already here skipped, an edition that differs from the one of the same code
    already here refused (an edition never changes). Returns how many were added. Call inside the sync's
    transaction."""
    if items is None:
        return 0
    if not isinstance(items, list) or len(items) > MAX_EDITIONS:
        raise ServiceError("Resposta da federação inválida: lista de edições do regulamento.")
    editions = []
    for n, item in enumerate(items, start=1):
        try:
            editions.append(edition_from_json(item))
        except EditionTooNew as exc:
            code = clean(item.get("code"), 60) if isinstance(item, dict) else ""
            raise ServiceError(
                f"A federação publicou a edição “{code or n}” do regulamento, que esta versão do damas-swiss não sabe "
                f"ler ({exc}): atualize o programa e sincronize de novo. Nada foi gravado."
            ) from None
        except EditionError as exc:
            raise ServiceError(f"Resposta da federação inválida: edição {n}: {exc}") from None
    shipped = shipped_by_code()
    here = dict(RegulationEdition.objects.values_list("code", "payload"))
    added = []
    for edition in editions:
        known = shipped.get(edition.code)
        stored = here.get(edition.code)
        if (known is not None and known != edition) or (stored is not None and edition_from_json(stored) != edition):
            raise ServiceError(
                f"Resposta da federação inválida: a edição “{edition.code}” difere da que este computador já tem "
                "(uma edição publicada não muda)."
            )
        if known is None and stored is None:
            added.append(_row(edition, "federação"))
            here[edition.code] = edition.as_json()
    RegulationEdition.objects.bulk_create(added)
    return len(added)
