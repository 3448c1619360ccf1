"""Issue 24: the audit log's actions are one choices enum (``models.choices.AuditAction``): every action the code
records is in it, and ``audit`` refuses any other, so a typo never reaches the log. Issue 39.5: every call passes a
member of the enum (never its code typed as a string), and each member has a sentence label the audit page reads."""

import ast
from pathlib import Path

import pytest

from tournaments.audit.presenters import audit_sentence
from tournaments.audit.services import audit
from tournaments.models import AuditEntry
from tournaments.models.choices import AuditAction

ROOT = Path(__file__).resolve().parents[2] / "tournaments"


def recorded_actions():
    """(file, action node) of every ``action=`` passed to ``audit(...)``/``audit_row(...)`` in the app (both arms
    of an ``if``)."""
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
                found += [(path.relative_to(ROOT).as_posix(), value) for value in values]
    return found


def test_every_recorded_action_is_a_member_of_the_enum():
    actions = recorded_actions()
    assert len(actions) > 50  # the scan really reads the calls
    not_members = [
        (path, ast.unparse(value))
        for path, value in actions
        if not (
            isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Name)
            and value.value.id == "AuditAction"
            and value.attr in AuditAction.names
        )
    ]
    assert not_members == []


def test_no_action_code_is_typed_as_a_string_anywhere_in_the_app():
    """Comparisons and filters too (``entry.action == "round.pair"``): the members are the one spelling."""
    codes = set(AuditAction.values)
    typed = [
        (path.relative_to(ROOT).as_posix(), node.lineno, node.value)
        for path in ROOT.rglob("*.py")
        if path.name != "choices.py" and "migrations" not in path.parts
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value in codes
    ]
    assert typed == []


def test_every_action_has_a_sentence_label():
    labels = [str(label) for label in AuditAction.labels]
    assert len(set(labels)) == len(labels)  # no two actions read alike
    # a sentence, not the member's name made readable (what TextChoices gives a member without a label)
    assert [a for a in AuditAction if str(a.label) == a.name.replace("_", " ").title()] == []
    assert str(AuditAction.CREDENTIAL_ISSUE.label) == "Credencial de API emitida"


@pytest.mark.django_db
def test_an_action_without_its_own_sentence_reads_as_its_label():
    entry = AuditEntry(action=AuditAction.CATEGORY_CREATE, username="diretor", summary="ABS")
    assert audit_sentence(entry) == "Categoria criada: ABS, por diretor."
    bare = AuditEntry(action=AuditAction.REPORTING_DISABLED, username="diretor")
    assert audit_sentence(bare) == "Relatos dos jogadores desligados por diretor."


@pytest.mark.django_db
def test_an_unknown_action_is_refused_and_nothing_is_written():
    with pytest.raises(ValueError):
        audit(tournament=None, user=None, action="round.pairr")  # type: ignore[arg-type]
    assert not AuditEntry.objects.exists()
    entry = audit(tournament=None, user=None, action=AuditAction.ROUND_PAIR, summary="x")
    assert entry.action == "round.pair" and AuditEntry.objects.get().action == "round.pair"


def test_the_domain_package_yields_its_qualification_module():
    """``from tournaments.domain import qualification`` is the module (its function is ``category_qualification``)."""
    import types

    from tournaments.domain import category_qualification, qualification

    assert isinstance(qualification, types.ModuleType)
    assert qualification.category_qualification is category_qualification
