"""The venue's director login (``make run``, issue 37.2): made once, with a password chosen or generated at the first
run and shown once, never reset; a director by its permissions, not a superuser.

It may create and import tournaments (it directs those: ``tournament_create`` gives it the role), as the tests'
``director`` fixture may. It does not import rating lists, edit the national registry or the tribunal's suspensions
(the group "Federação", issue 15.5), and the Django admin is closed to it (tournaments/admin.py).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction

DIRECTOR_USERNAME = "diretor"
DIRECTOR_PERMISSIONS = ("add_tournament",)
# The password every venue once had, printed in the README: a login still using it gets a new one.
PUBLISHED_PASSWORD = "damas-demo-2026"
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read aloud or copied from the console


def generated_password() -> str:
    """A random password, four groups of four easy-to-read characters (about 78 bits): ``k7mq-x2pr-9hdw-3nfa``."""
    return "-".join("".join(secrets.choice(_ALPHABET) for _ in range(4)) for _ in range(4))


def director_permissions() -> list[Permission]:
    return list(Permission.objects.filter(content_type__app_label="tournaments", codename__in=DIRECTOR_PERMISSIONS))


@transaction.atomic
def venue_director() -> tuple[Any, bool]:
    """The venue's director login, made if missing, a director by permissions and nothing more (a login made by an
    older version was a superuser: it loses that). Returns ``(user, needs_password)``: whether it has no password
    of its own yet (just made, or still the published one), which the caller then sets; its password is never
    touched otherwise."""
    user, created = get_user_model().objects.get_or_create(username=DIRECTOR_USERNAME)
    if created:
        user.set_unusable_password()  # until the first run sets one (the demo may make the login first)
        user.save(update_fields=["password"])
    was_superuser = user.is_superuser
    if user.is_superuser or user.is_staff:
        user.is_superuser = user.is_staff = False
        user.save(update_fields=["is_superuser", "is_staff"])
    user.user_permissions.add(*director_permissions())
    needs_password = not user.has_usable_password()
    if not needs_password and was_superuser:
        needs_password = user.check_password(PUBLISHED_PASSWORD)
    return user, needs_password
