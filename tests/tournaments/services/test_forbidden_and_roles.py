"""Issue 39.8: forbidden pairs and role removal are written by services, each in one transaction with its audit
line (they were written by the views: an audit line without its change, or a change without its line, could be
left behind), and no view writes the audit log itself."""

import ast
from pathlib import Path

import pytest
from django.urls import reverse

from tournaments.accounts import services as accounts
from tournaments.core.errors import ServiceError
from tournaments.entries import forbidden
from tournaments.models import AuditEntry, ForbiddenPair, TournamentRole
from tournaments.models.choices import AuditAction, StaffRole

ROOT = Path(__file__).resolve().parents[3] / "tournaments"


@pytest.fixture
def numbered(field):
    """A tournament of four entries with their pairing numbers 1-4 (given when round 1 is paired)."""
    t, entries = field(4)
    for number, entry in enumerate(entries, start=1):
        entry.pairing_number = number
        entry.save(update_fields=["pairing_number"])
    return t, entries


def test_no_view_writes_the_audit_log():
    writers = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted(ROOT.rglob("views.py")) + sorted(ROOT.rglob("views/*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("audit", "audit_row")
    ]
    assert writers == []


def test_a_forbidden_pair_is_recorded_with_its_audit_line(numbered, director):
    t, entries = numbered
    pair = forbidden.forbidden_pair_create(tournament=t, user=director, number_a=1, number_b=3, from_round=2)
    assert (pair.entry_a, pair.entry_b, pair.from_round, pair.to_round) == (entries[0], entries[2], 2, None)
    line = AuditEntry.objects.get(action=AuditAction.FORBIDDEN_CREATE)
    assert line.object_id == str(pair.pk) and line.new == {"from": 2, "to": None}
    with pytest.raises(ServiceError, match="dois jogadores diferentes"):
        forbidden.forbidden_pair_create(tournament=t, user=director, number_a=2, number_b=2)
    with pytest.raises(ServiceError, match="antes da primeira") as refused:
        forbidden.forbidden_pair_create(tournament=t, user=director, number_a=1, number_b=2, from_round=3, to_round=2)
    assert refused.value.code == "rounds"
    assert ForbiddenPair.objects.count() == 1


def test_a_forbidden_pair_and_its_audit_line_go_together_or_not_at_all(numbered, director, monkeypatch):
    t, _entries = numbered
    pair = forbidden.forbidden_pair_create(tournament=t, user=director, number_a=1, number_b=2)

    def broken_audit(**kwargs):
        raise RuntimeError("the audit log is full")

    monkeypatch.setattr(forbidden, "audit", broken_audit)
    with pytest.raises(RuntimeError):
        forbidden.forbidden_pair_remove(pair=pair, user=director)
    assert ForbiddenPair.objects.filter(pk=pair.pk).exists()
    with pytest.raises(RuntimeError):
        forbidden.forbidden_pair_create(tournament=t, user=director, number_a=3, number_b=4)
    assert ForbiddenPair.objects.count() == 1


def test_removing_a_role_is_audited_in_its_transaction_and_never_ones_own(make_tournament, director, django_user_model):
    t = make_tournament()
    arbiter = django_user_model.objects.create_user("arbitro", password="x")
    role = TournamentRole.objects.create(tournament=t, user=arbiter, role=StaffRole.ARBITER)
    own = TournamentRole.objects.get(tournament=t, user=director)
    with pytest.raises(ServiceError, match="remover a si"):
        accounts.staff_role_remove(tournament=t, user=director, role=own)
    accounts.staff_role_remove(tournament=t, user=director, role=role)
    assert not TournamentRole.objects.filter(pk=role.pk).exists()
    line = AuditEntry.objects.get(action=AuditAction.STAFF_REMOVE)
    assert (line.summary, line.old) == ("arbitro", {"role": "arbiter"})


def test_the_pages_still_record_and_remove(client, numbered, director):
    t, _entries = numbered
    client.force_login(director)
    url = reverse("staff:forbidden_pairs", args=[t.slug])
    page = client.post(url, {"entry_a": 1, "entry_b": 2, "from_round": 3, "to_round": 2, "reason": ""})
    assert "antes da primeira" in page.content.decode() and not ForbiddenPair.objects.exists()
    client.post(url, {"entry_a": 1, "entry_b": 2, "from_round": "", "to_round": "", "reason": "irmãos"})
    pair = ForbiddenPair.objects.get()
    client.post(url, {"remove": pair.pk})
    assert not ForbiddenPair.objects.exists()
    assert list(
        AuditEntry.objects.filter(tournament=t, action__startswith="forbidden.").values_list("action", flat=True)
    ) == [
        AuditAction.FORBIDDEN_REMOVE,
        AuditAction.FORBIDDEN_CREATE,
    ]
