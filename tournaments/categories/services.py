"""A tournament's categories (Absoluto, Feminino, Sub-21, ...): their rules (sex; age on 31 December of the
tournament's year, docs/domain.md section 6) and the entries they hold, assigned by those rules.

Once round 1 of a stage is published, its categories and who is in them change only with a reason (issue 35.3):
every service here takes ``reason`` and makes its change inside ``facts_changed``, which records each change;
without one the model layer refuses it and nothing is written."""

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.audit.services import Actor, audit, login_of
from tournaments.core import cache
from tournaments.core.errors import ServiceError
from tournaments.core.safetext import has_control_characters, single_line_message
from tournaments.domain.categories import CategoryRule, Person, is_member
from tournaments.models import Category, Entry, Tournament
from tournaments.models.choices import AuditAction
from tournaments.models.tournament import LockedFact, facts_changed

RULE_FIELDS = ("code", "name", "sex", "min_age", "max_age")

# Ready-made rules a director adds with one click (Sub-N: at most N-1 years old on 31 December).
PRESETS: dict[str, dict[str, Any]] = {
    "ABS": {"name": "Absoluto"},
    "FEM": {"name": "Feminino", "sex": "F"},
    "S21": {"name": "Sub-21", "max_age": 20},
    "S18": {"name": "Sub-18", "max_age": 17},
    "S17": {"name": "Sub-17", "max_age": 16},
    "S14": {"name": "Sub-14", "max_age": 13},
    "VET": {"name": "Veteranos (60+)", "min_age": 60},
}


def rule_of(category: Category) -> CategoryRule:
    return CategoryRule(
        code=category.code,
        name=category.name,
        sex=category.sex or None,
        min_age=category.min_age,
        max_age=category.max_age,
    )


def members_by_rule(category: Category, entries: Iterable[Entry]) -> list[Entry]:
    rule, year = rule_of(category), category.tournament.start_date.year
    return [e for e in entries if is_member(rule, person_of(e), year)]


def person_of(entry: Entry) -> Person:
    """What a category rule checks of an entry: sex, and birth date or (a player imported with only the year)
    year of birth."""
    p = entry.player
    return Person(id=entry.pk, sex=p.sex, birth_date=p.birth_date, birth_year=p.birth_year)


def _assign(category: Category) -> int:
    entries = list(Entry.objects.filter(tournament_id=category.tournament_id).select_related("player"))
    members = members_by_rule(category, entries)
    category.entries.set(members)
    return len(members)


def _rules(category: Category) -> dict[str, Any]:
    return {k: getattr(category, k) for k in RULE_FIELDS}


def clean_reason(reason: str | None) -> str:
    """The reason given for a change of a locked stage's facts, on one line ("" when none)."""
    reason = " ".join(str(reason or "").split())
    if has_control_characters(reason):
        raise ServiceError(single_line_message())
    return reason[:300]


@contextmanager
def locked_change(reason: str, user: Actor) -> Iterator[None]:
    """The block of a service's change of a stage's categories, who is in them or a rating: inside
    ``facts_changed`` when a reason is given (each change after round 1 recorded with it); a change the model
    layer refuses (round 1 published, no reason) is the service's refusal, in the user's words."""
    login = login_of(user)
    try:
        if reason:
            with facts_changed(reason, by=login.get_username() if login is not None else ""):
                yield
        else:
            yield
    except LockedFact as exc:
        raise ServiceError(exc.messages) from exc


@transaction.atomic
def category_save(
    *,
    tournament: Tournament,
    user: Actor,
    category: Category | None = None,
    reason: str | None = None,
    **fields: Any,
) -> tuple[Category, int]:
    """Create a category (``category`` None) or change one, then put in it exactly the entries its rule admits
    (a change made by hand on an entry's page lasts until the category is saved again). Audited. Once round 1
    of a stage is published, only with a ``reason`` (recorded, listed in the report; a category created then
    earns no spot)."""
    reason = clean_reason(reason)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    fields = {k: v for k, v in fields.items() if k in RULE_FIELDS}
    fields["code"] = (fields.get("code") or "").strip().upper()
    clash = Category.objects.filter(tournament=tournament, code=fields["code"])
    if category is not None:
        clash = clash.exclude(pk=category.pk)
    if clash.exists():
        raise ServiceError(_("This tournament already has a category with this code."))
    old = _rules(category) if category else None
    if category is None:
        position = (tournament.categories.order_by("-position").values_list("position", flat=True).first() or 0) + 1
        category = Category(tournament=tournament, position=position)
    for k, v in fields.items():
        setattr(category, k, v)
    with locked_change(reason, user):
        try:
            with transaction.atomic():
                category.save()
        except IntegrityError:
            raise ServiceError(_("This tournament already has a category with this code.")) from None
        count = _assign(category)
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.CATEGORY_UPDATE if old else AuditAction.CATEGORY_CREATE,
        obj=category,
        summary=f"{category.code} — {category.name}: {count}",
        old=old,
        new=dict(_rules(category), entries=count),
        reason=reason,
    )
    cache.bump(tournament.pk)
    return category, count


@transaction.atomic
def category_preset(
    *, tournament: Tournament, user: Actor, code: str, reason: str | None = None
) -> tuple[Category, int]:
    if code not in PRESETS:
        raise ServiceError(_("Unknown category model."))
    return category_save(tournament=tournament, user=user, code=code, reason=reason, **PRESETS[code])


@transaction.atomic
def category_delete(*, category: Category, user: Actor, reason: str | None = None) -> None:
    """Delete a category; once round 1 of a stage is published, only with a ``reason`` (recorded)."""
    reason = clean_reason(reason)
    tournament = category.tournament
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.CATEGORY_DELETE,
        obj=category,
        summary=f"{category.code} — {category.name}",
        old=dict(_rules(category), entries=category.entries.count()),
        reason=reason,
    )
    with locked_change(reason, user):
        category.delete()
    cache.bump(tournament.pk)


@transaction.atomic
def categories_reapply(*, tournament: Tournament, user: Actor, reason: str | None = None) -> dict[str, int]:
    """Every category takes exactly the entries its rule admits (after players' data were corrected); once round
    1 of a stage is published, only with a ``reason`` (each entry whose categories change recorded)."""
    reason = clean_reason(reason)
    with locked_change(reason, user):
        counts = {
            c.code: _assign(c) for c in Category.objects.filter(tournament=tournament).select_related("tournament")
        }
    audit(
        tournament=tournament,
        user=user,
        action=AuditAction.CATEGORY_REAPPLY,
        summary=str(counts)[:300],
        new=counts,
        reason=reason,
    )
    cache.bump(tournament.pk)
    return counts
