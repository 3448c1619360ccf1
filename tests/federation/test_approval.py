"""Approval and verification again at the federation (issue 36.2, 36.3, 36.8): a suspension a stage gives never
judges that stage; a correction that changes nothing the verdict reads keeps the season's qualifiers; verified
again, the officer sees what changed; a player without an ID who looks like a registered player is a finding
the officer answers; a stage without rights is approved only on purpose; what changed is said against the
approved version."""

import copy
from datetime import timedelta

import pytest

from tournaments.core.errors import ServiceError
from tournaments.federation import selectors
from tournaments.federation.season import season_table
from tournaments.federation.services import (
    submission_decide,
    submission_receive,
    submission_resolve_identity,
    submission_verify,
)
from tournaments.federation.verification import verify
from tournaments.models import AuditEntry, Player, Submission, Suspension
from tournaments.models.choices import SuspensionSource


def codes(submission):
    return [f["code"] for f in submission.findings]


def season_names(year):
    stages = selectors.season_stages(year)
    table = season_table({"name": s.event_name, "rights": s.rights, "qualification": s.qualification} for s in stages)
    return {c.code: [q.name for q in c.qualifiers] for c in table}


def send(credential, data, n):
    submission, _ = submission_receive(credential=credential[0], data=data, nonce=f"{n}" * 32)
    return submission_verify(submission=submission)


@pytest.mark.django_db
def test_the_suspension_a_stage_gives_never_judges_that_stage(received, federation, recent_stage):
    assert received.rights and received.findings == []
    submission_decide(submission=received, user=federation, approve=True)
    suspension = Suspension.objects.get(source=SuspensionSource.ABANDONMENT)
    assert suspension.submission == received  # its origin recorded
    assert suspension.start_date == received.end_date
    again = submission_verify(submission=received, user=federation)
    assert again.rights and again.findings == [] and again.verdict_changes == []
    # the same player in another event within the 3 months: the suspension judges that one
    other = copy.deepcopy(recent_stage)
    later = (received.end_date + timedelta(days=7)).isoformat()
    other["tournament"].update(slug="etapa-seguinte", start_date=later, end_date=later)
    other["tournament"].pop("stage_id")  # another stage, not a version of this one (issue 36.5)
    result = verify(other, selectors.registry_at(received.end_date + timedelta(days=7)))
    assert [f.code for f in result.findings] == ["suspended_player"]
    assert suspension.player.name in result.findings[0].message


@pytest.mark.django_db
def test_a_correction_of_the_chief_arbiters_name_keeps_the_qualifiers(received, federation, credential, recent_stage):
    submission_decide(submission=received, user=federation, approve=True)
    year = received.start_date.year
    before = season_names(year)
    assert sum(len(v) for v in before.values()) == 8  # ABS 3, FEM 3, S18 2
    corrected = copy.deepcopy(recent_stage)
    corrected["tournament"]["chief_arbiter"] = "Árbitra Maria das Dores"
    v2 = send(credential, corrected, "m")
    assert v2.rights and v2.findings == []
    assert [c["what"] for c in v2.changes] == ["chief_arbiter"] and v2.compared_with == received
    submission_decide(submission=v2, user=federation, approve=True)
    assert season_names(year) == before


@pytest.mark.django_db
def test_verified_again_the_officer_sees_what_changed(received, federation):
    submission_decide(submission=received, user=federation, approve=True)
    player = Player.objects.get(cbjd_id="PE4107")
    Suspension.objects.create(
        player=player,
        start_date=received.start_date - timedelta(days=30),
        end_date=received.end_date + timedelta(days=30),
        source=SuspensionSource.TRIBUNAL,
        reason="STJD, processo 12/2026",
    )
    again = submission_verify(submission=received, user=federation)
    assert not again.rights and codes(again) == ["suspended_player"]
    assert again.verdict_changes[0] == "Direito a vagas: sim → não."
    assert again.verdict_changes[1].startswith("Novo apontamento: Nenhum participante suspenso: Suspensos durante")
    assert "Davi Holanda Esteves" in again.verdict_changes[1]
    assert any(line.startswith("Classificados ABS: ") and line.endswith("→ nenhum.") for line in again.verdict_changes)
    entry = AuditEntry.objects.filter(action="submission.reverify").get()
    assert entry.object_id == str(received.pk)
    page = None
    from django.test import Client

    client = Client()
    client.force_login(federation)
    page = client.get(f"/gestao/federacao/envios/{received.pk}/").content.decode()
    assert 'id="verdict-changes"' in page and "Direito a vagas: sim → não." in page


@pytest.mark.django_db
def test_a_player_without_his_id_who_looks_like_a_suspended_player(received, federation, credential, recent_stage):
    """Issue 36.3: "Gabriel F. Martins" entered without an ID, with the birth date of the suspended "Gabriel
    Fernandes Martins": a finding that takes the rights until the officer answers; the answer is recorded."""
    suspended = Player.objects.create(
        name="Gabriel Fernandes Martins", cbjd_id="PE9001", birth_date=received.start_date.replace(year=1990), sex="M"
    )
    Suspension.objects.create(
        player=suspended,
        start_date=received.start_date - timedelta(days=10),
        end_date=received.end_date + timedelta(days=60),
        source=SuspensionSource.TRIBUNAL,
        reason="STJD",
    )
    data = copy.deepcopy(recent_stage)
    target = next(p for p in data["players"] if p["rating"] is None)  # unrated: round 1 is the same without an ID
    target.update(
        name="Gabriel F. Martins", cbjd_id=None, birth_date=suspended.birth_date.isoformat(), categories=["ABS"]
    )
    v2 = send(credential, data, "g")
    assert not v2.rights
    match = next(f for f in v2.findings if f["code"] == "registry_match")
    assert (
        "Gabriel F. Martins (sem ID CBJD" in match["message"]
        and "Gabriel Fernandes Martins (ID PE9001" in match["message"]
    )
    assert match["data"] == {"matches": {str(target["id"]): [["PE9001", "Gabriel Fernandes Martins"]]}}
    # the officer's form on the submission page
    from django.test import Client

    client = Client()
    client.force_login(federation)
    url = f"/gestao/federacao/envios/{v2.pk}/"
    assert f'id="identity-{target["id"]}"' in client.get(url).content.decode()
    client.post(url, {"action": "identity", "player": target["id"], "cbjd_id": "PE9001", "same": "sim"})
    v2.refresh_from_db()
    assert v2.resolutions[str(target["id"])]["cbjd_id"] == "PE9001"
    assert v2.resolutions[str(target["id"])]["by"] == federation.get_username()
    assert "registry_match" not in codes(v2) and "suspended_player" in codes(v2) and not v2.rights
    assert AuditEntry.objects.filter(action="submission.identity", object_id=str(v2.pk)).count() == 1
    # answered "not him": the rights come back, the answer said
    submission_resolve_identity(submission=v2, player_id=target["id"], cbjd_id="", user=federation)
    v2.refresh_from_db()
    assert v2.rights and codes(v2) == ["player_unknown", "registry_match_resolved"], v2.findings


@pytest.mark.django_db
def test_approving_without_rights_needs_a_confirmation_and_a_reason(received, federation, credential, recent_stage):
    data = copy.deepcopy(recent_stage)
    data["rounds"] = data["rounds"][:6]  # 6 rounds: no rights
    v2 = send(credential, data, "s")
    assert not v2.rights
    with pytest.raises(ServiceError, match="confirme e informe o motivo"):
        submission_decide(submission=v2, user=federation, approve=True)
    with pytest.raises(ServiceError, match="confirme e informe o motivo"):
        submission_decide(submission=v2, user=federation, approve=True, confirm_without_rights=True)
    submission_decide(
        submission=v2, user=federation, approve=True, reason="etapa festiva, sem vagas", confirm_without_rights=True
    )
    v2.refresh_from_db()
    assert v2.status == "approved" and v2.decision_reason == "etapa festiva, sem vagas"


@pytest.mark.django_db
def test_what_changed_is_said_against_the_approved_version(received, federation, credential, recent_stage):
    submission_decide(submission=received, user=federation, approve=True)
    refused_data = copy.deepcopy(recent_stage)
    refused_data["tournament"]["chief_arbiter"] = "Outro"
    refused = send(credential, refused_data, "r")
    submission_decide(submission=refused, user=federation, approve=False, reason="nome errado")
    third = copy.deepcopy(recent_stage)
    third["tournament"]["venue"] = "Ginásio Municipal"
    v3 = send(credential, third, "t")
    assert v3.compared_with == received and v3.supersedes == refused
    assert [c["what"] for c in v3.changes] == ["venue"]  # the refused version's arbiter is not a change
    assert Submission.objects.count() == 3
