"""What the federation's pages say about a submission's state, in Portuguese."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from tournaments.models import OutgoingStatus, OutgoingSubmission, Submission


def _when(moment: datetime | None) -> str:
    return timezone.localtime(moment).strftime("%d/%m/%Y %H:%M") if moment else "—"


def _findings(count: int | None) -> str:
    if not count:
        return "sem apontamentos"
    return f"{count} apontamento{'s' if count > 1 else ''}"


def outgoing_state(o: OutgoingSubmission) -> str:
    """pendente / enviado em … / recebido pela federação em … / verificado / homologado / recusado (motivo)."""
    if o.status == OutgoingStatus.PENDING:
        text = "pendente"
        if o.attempts:
            text += f" ({o.attempts} tentativa{'s' if o.attempts > 1 else ''}; {o.last_error or 'sem resposta'}"
            text += f"; próxima em {_when(o.next_attempt_at)})" if o.next_attempt_at else ")"
        return text
    if o.status == OutgoingStatus.SENT:
        return f"enviado em {_when(o.sent_at)}"
    received = f"recebido pela federação em {_when(o.received_at)}"
    if o.status == OutgoingStatus.RECEIVED:
        return received
    if o.status == OutgoingStatus.VERIFIED:
        return f"{received} · verificado, {_findings(o.findings_count)}"
    if o.status == OutgoingStatus.APPROVED:
        return f"{received} · homologado em {_when(o.decided_at)}"
    if o.status == OutgoingStatus.REFUSED:
        return f"{received} · recusado ({o.decision_reason})"
    return "substituído por versão posterior"


def submission_state(s: Submission) -> str:
    """recebido / verificado com N apontamentos / homologado / recusado (motivo)."""
    if s.status == "received":
        return "recebido"
    if s.status == "verified":
        return f"verificado com {_findings(len(s.findings or []))}" if s.findings else "verificado sem apontamentos"
    if s.status == "approved":
        return f"homologado em {_when(s.decided_at)}"
    if s.status == "refused":
        return f"recusado ({s.decision_reason})"
    return "substituído por versão posterior"


def when(moment: datetime | None) -> str:
    return _when(moment)


def counted(n: int, one: str, many: str) -> str:
    """``1 jogador``, ``2 jogadores``, ``0 suspensões``."""
    return f"{n} {one if n == 1 else many}"


def sync_summary(players: int, suspensions: int) -> str:
    return f"{counted(players, 'jogador', 'jogadores')}, {counted(suspensions, 'suspensão', 'suspensões')} em vigor"


def unidentified_players(submission: Submission) -> list[dict[str, object]]:
    """The stage's players a ``registry_match`` finding names (entered without a CBJD ID, like a registered
    player) and not answered yet, each with the registry's players he looks like: the officer's form (issue
    36.3)."""
    matches: dict[str, list[list[str]]] = {}
    for f in submission.findings:
        if f.get("code") == "registry_match":
            matches.update((f.get("data") or {}).get("matches") or {})
    answered = set(submission.resolutions or {})
    out: list[dict[str, object]] = []
    for p in submission.payload.get("players", []):
        key = str(p.get("id"))
        if key in matches and key not in answered:
            out.append(
                {
                    "id": p.get("id"),
                    "name": str(p.get("name") or ""),
                    "birth_date": p.get("birth_date") or "",
                    "club": p.get("club") or "",
                    "candidates": [{"cbjd_id": c[0], "name": c[1]} for c in matches[key]],
                }
            )
    return out
