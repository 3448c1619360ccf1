"""Issue 24: the audit log's actions are one choices enum (``models.choices.AuditAction``): every action the code
records is in it, and ``audit`` refuses any other, so a typo never reaches the log."""

import ast
from pathlib import Path

import pytest

from tournaments.audit.services import audit
from tournaments.models import AuditEntry
from tournaments.models.choices import AuditAction

ROOT = Path(__file__).resolve().parents[2] / "tournaments"


def recorded_actions():
    """(file, action) of every literal ``action=`` passed to ``audit(...)``/``audit_row(...)`` in the app (both arms of an ``if``)."""
    found = []
    for path in ROOT.rglob("*.py"):
        if path == ROOT / "audit" / "services.py":  # audit() hands its action on to audit_row()
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("audit", "audit_row")):
                continue
            for keyword in node.keywords:
                if keyword.arg != "action":
                    continue
                values = (
                    [keyword.value.body, keyword.value.orelse]
                    if isinstance(keyword.value, ast.IfExp)
                    else [keyword.value]
                )
                for value in values:
                    assert isinstance(value, ast.Constant | ast.Attribute), f"{path}: action is not a literal"
                    if isinstance(value, ast.Constant):
                        found.append((path.relative_to(ROOT).as_posix(), value.value))
    return found


def test_every_recorded_action_is_in_the_enum():
    actions = recorded_actions()
    assert len(actions) > 30  # the scan really reads the calls
    assert [(path, action) for path, action in actions if action not in AuditAction.values] == []


@pytest.mark.django_db
def test_an_unknown_action_is_refused_and_nothing_is_written():
    with pytest.raises(ValueError):
        audit(tournament=None, user=None, action="round.pairr")
    assert not AuditEntry.objects.exists()
    entry = audit(tournament=None, user=None, action=AuditAction.ROUND_PAIR, summary="x")
    assert entry.action == "round.pair" and AuditEntry.objects.get().action == "round.pair"
