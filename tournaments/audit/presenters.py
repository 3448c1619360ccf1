"""The audit log as sentences in the active language: who did what to which board, game or player, from what to
what, and why. Entries store codes and plain data (``services.audit``); this is the only place that words them."""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models.choices import AuditAction, StaffRole, SuspensionSource, WithdrawalKind
from tournaments.rounds.scoring import entry_label


def _by(entry, roles):
    """“by arbiter X” / “by director X” / “by X” (the role the user has in the tournament)."""
    name = entry.username or _("the system")
    role = (entry.new or {}).get("by_role") or roles.get(entry.user_id)  # the role of the time, when recorded
    if role == StaffRole.ARBITER:
        return _("by arbiter %(u)s") % {"u": name}
    if role == StaffRole.DIRECTOR:
        return _("by director %(u)s") % {"u": name}
    return _("by %(u)s") % {"u": name}


def _games(entry):
    """(round, board, old games, new games, micro) of a result entry, new and legacy shapes alike."""
    old, new = entry.old or {}, entry.new or {}
    if "games" in new:
        return new.get("round"), new.get("board"), (old.get("games") or {}), new["games"], new.get("micro", True)
    return None, None, old, new, True


def _result_sentence(entry, by):
    rnd, board, old, new, micro = _games(entry)
    where = (
        _("Round %(r)s, board %(b)s") % {"r": rnd, "b": board}
        if rnd is not None
        else (entry.summary or "").capitalize()
    )
    parts = []
    for key in sorted(new, key=lambda k: int(k) if str(k).isdigit() else 0):
        if not str(key).isdigit():
            continue
        n = int(key)
        before, after = old.get(key), new.get(key)
        if before == after:
            continue
        shown_after = entry_label(n, after, micro) or _("no result")
        if before is None:
            parts.append(_("game %(g)s %(new)s") % {"g": n, "new": shown_after})
        else:
            parts.append(
                _("game %(g)s corrected from %(old)s to %(new)s")
                % {"g": n, "old": entry_label(n, before, micro), "new": shown_after}
            )
    if entry.action == AuditAction.RESULT_CORRECT:
        text = _("%(where)s: %(what)s %(by)s") % {"where": where, "what": "; ".join(parts), "by": by}
    else:
        text = _("%(where)s: result entered %(by)s (%(what)s)") % {"where": where, "what": ", ".join(parts), "by": by}
    return text


def _field_label(key):
    return {
        "name": _("name"),
        "sex": _("sex"),
        "birth_date": _("birth date"),
        "state": _("state (UF)"),
        "club": _("club"),
        "cbjd_id": "CBJD",
        "rating": _("rating"),
        "fmjd_rating": _("FMJD rating"),
        "title": _("title"),
    }.get(key, key)


def _label(choices, value):
    try:
        return str(choices(value).label)
    except ValueError:
        return str(value or "")


def _staff_sentence(action: str, name: str, new: dict[str, Any], by: str) -> str:
    """The Equipe page's entries: access given, offered (issue 25, item 1), declined, withdrawn, removed."""
    if action == AuditAction.STAFF_PAIRING:
        if new.get("arbiters_may_pair"):
            return _("Arbiters allowed to pair, publish, edit and undo rounds %(by)s") % {"by": by}
        return _("Pairing the rounds kept to the director %(by)s") % {"by": by}
    role = _label(StaffRole, new.get("role")).lower()
    sentences: dict[str, str] = {
        AuditAction.STAFF_GRANT: _("%(user)s given access as %(role)s %(by)s"),
        AuditAction.STAFF_OFFER: _("Access as %(role)s offered to the login %(user)s %(by)s"),
        AuditAction.STAFF_DECLINE: _("Offered access declined %(by)s"),
        AuditAction.STAFF_WITHDRAW: _("Access offered to the login %(user)s withdrawn %(by)s"),
        AuditAction.STAFF_REMOVE: _("Access of %(user)s removed %(by)s"),
    }
    if action not in sentences:
        return _("%(what)s, %(by)s") % {"what": (name or _("change")).capitalize(), "by": by}
    return sentences[action] % {"user": name, "role": role, "by": by}


def _renumber_sentence(new: dict[str, Any], by: str) -> str:
    """Pairing numbers re-assigned before a round for the late entrants (rounds.numbering, issue 28.8)."""
    late = set(new.get("late") or [])
    rows = new.get("numbers") or []
    moved = [f"{who} {old or '—'} → {now}" for who, old, now in rows if who in late]
    text = _("Pairing numbers re-assigned by rating before round %(n)s (FIDE C.04.2) %(by)s: %(moved)s") % {
        "n": new.get("round"),
        "by": by,
        "moved": "; ".join(moved),
    }
    others = len(rows) - len(moved)
    if others:
        text += "; " + ngettext(
            "%(n)s other number moved down", "%(n)s other numbers moved down one place or more", others
        ) % {"n": others}
    return text


def _other_sentence(action: str, name: str, new: dict[str, Any], by: str) -> str:
    if action == AuditAction.ENTRY_RENUMBER:
        return _renumber_sentence(new, by)
    # an action without its own sentence reads as its label (AuditAction's), its summary and who did it, never as
    # a code; a code the enum no longer holds (an old row) reads as its summary alone
    if action in AuditAction.values:
        label = str(AuditAction(action).label)
        if not name:
            return _("%(what)s %(by)s") % {"what": label, "by": by}
        return _("%(what)s: %(name)s, %(by)s") % {"what": label, "name": name, "by": by}
    return _("%(what)s, %(by)s") % {"what": (name or _("change")).capitalize(), "by": by}


def audit_sentence(entry, roles=None):
    """One audit entry as a sentence; ``roles`` maps user id -> StaffRole in the tournament."""
    roles = roles or {}
    by = _by(entry, roles)
    old, new, name = entry.old or {}, entry.new or {}, entry.summary
    action = entry.action
    if action in (AuditAction.RESULT_ENTER, AuditAction.RESULT_CORRECT):
        text = _result_sentence(entry, by)
    elif action == AuditAction.ROUND_PAIR:
        boards = len(new.get("boards") or [])
        text = ngettext("%(round)s paired %(by)s: %(n)s board", "%(round)s paired %(by)s: %(n)s boards", boards) % {
            "round": name.capitalize(),
            "by": by,
            "n": boards,
        }
        if new.get("bye"):
            text += ", " + _("BYE for number %(n)s") % {"n": new["bye"]}
    elif action == AuditAction.ROUND_PUBLISH:
        text = _("%(round)s published %(by)s") % {"round": name.capitalize(), "by": by}
    elif action == AuditAction.ROUND_UNDO:
        text = _("Pairing of %(round)s undone %(by)s") % {"round": name, "by": by}
    elif action == AuditAction.ROUND_EDIT:
        text = _("Pairing of %(round)s edited by hand %(by)s: %(n)s boards") % {
            "round": name,
            "by": by,
            "n": len(new.get("boards") or []),
        }
        if new.get("bye"):
            text += ", " + _("BYE for number %(n)s") % {"n": new["bye"]}
    elif action == AuditAction.ROUND_PROGRAM:
        text = _("Rounds %(rounds)s recorded as paired by %(program)s, %(by)s") % {
            "rounds": ", ".join(map(str, new.get("rounds") or [])),
            "program": new.get("program", name),
            "by": by,
        }
    elif action == AuditAction.ENTRY_CREATE:
        text = _("%(name)s entered %(by)s") % {"name": name, "by": by}
        if new.get("late_entry_round"):
            text += " " + _("(late entry, plays from round %(n)s)") % {"n": new["late_entry_round"]}
    elif action == AuditAction.ENTRY_UPDATE:
        text = _("Entry of %(name)s changed %(by)s") % {"name": name, "by": by}
    elif action == AuditAction.ENTRY_WITHDRAW:
        text = _("%(name)s withdrawn from round %(n)s on (%(kind)s) %(by)s") % {
            "name": name,
            "n": new.get("from_round"),
            "kind": _label(WithdrawalKind, new.get("kind")),
            "by": by,
        }
        if not entry.reason and new.get("note"):
            text += ", " + _("reason: %(r)s") % {"r": new["note"]}
    elif action == AuditAction.ENTRY_REINSTATE:
        text = _("Withdrawal of %(name)s undone %(by)s") % {"name": name, "by": by}
    elif action == AuditAction.ENTRY_RATING_REFRESH:
        text = _("Rating of %(name)s updated from %(old)s to %(new)s %(by)s") % {
            "name": name,
            "old": old.get("rating") if old.get("rating") is not None else "—",
            "new": new.get("rating") if new.get("rating") is not None else "—",
            "by": by,
        }
    elif action == AuditAction.ENTRY_RATING_KEEP:
        text = _("Rating of registration of %(name)s kept (%(rating)s) %(by)s") % {
            "name": name,
            "rating": new.get("rating"),
            "by": by,
        }
        if not entry.reason and new.get("reason"):
            text += ", " + _("reason: %(r)s") % {"r": new["reason"]}
    elif action == AuditAction.SUSPENSION_CREATE:
        text = _("%(name)s suspended from %(start)s to %(end)s (%(source)s) %(by)s") % {
            "name": name,
            "start": new.get("start"),
            "end": new.get("end"),
            "source": _label(SuspensionSource, new.get("source")),
            "by": by,
        }
    elif action == AuditAction.SUSPENSION_LIFT:
        text = _("Suspension of %(name)s lifted %(by)s") % {"name": name, "by": by}
        if not entry.reason and new.get("reason"):
            text += ", " + _("reason: %(r)s") % {"r": new["reason"]}
    elif action == AuditAction.ABSENCE_CREATE:
        text = _("Absence announced %(by)s: %(what)s") % {"what": name, "by": by}
        if new.get("reason"):
            text += ", " + _("reason: %(r)s") % {"r": new["reason"]}
    elif action == AuditAction.ABSENCE_DELETE:
        text = _("Announced absence cancelled %(by)s: %(what)s") % {"what": name, "by": by}
    elif action == AuditAction.GAME_PDN:
        text = _("Moves of %(what)s recorded %(by)s") % {"what": name, "by": by}
    elif action == AuditAction.GAME_CONFLICT_KEPT:
        text = _("%(what)s: result kept against the recorded moves %(by)s (%(conflicts)s)") % {
            "what": name.capitalize(),
            "by": by,
            "conflicts": "; ".join(new.get("conflicts") or []),
        }
    elif action == AuditAction.OPENING_DRAW:
        if new.get("method") == "venue":
            text = _("Opening drawn at the venue recorded for %(what)s %(by)s") % {"what": name, "by": by}
        else:
            text = _("Opening drawn for %(what)s %(by)s") % {"what": name, "by": by}
        if new.get("seed"):
            text += " " + _("(seed %(s)s)") % {"s": new["seed"]}
    elif action.startswith("staff."):
        text = _staff_sentence(action, name, new, by)
    elif action == AuditAction.TOURNAMENT_CREATE:
        text = _("Tournament created %(by)s") % {"by": by}
    elif action == AuditAction.TOURNAMENT_SETTINGS:
        text = _("Settings changed %(by)s: %(what)s") % {"what": name, "by": by}
    elif action == AuditAction.HOMOLOGATION_EXPORT:
        text = _("Homologation workbook recorded as sent %(by)s") % {"by": by}
    elif action == AuditAction.RATINGLIST_IMPORT:
        text = _("Rating list %(file)s imported %(by)s: %(created)s new players, %(updated)s updated") % {
            "file": name.split(":")[0],
            "by": by,
            "created": new.get("created", 0),
            "updated": new.get("updated", 0),
        }
    elif action == AuditAction.OPENINGTABLE_IMPORT:
        text = _("Opening tables imported %(by)s: %(what)s") % {"what": name, "by": by}
    elif action == AuditAction.TOURNAMENT_IMPORT:
        text = _("Tournament imported from a file %(by)s: %(players)s players, %(rounds)s rounds") % {
            "by": by,
            "players": new.get("players", "—"),
            "rounds": new.get("rounds", "—"),
        }
    elif action == AuditAction.FORBIDDEN_CREATE:
        text = _("Forbidden pair %(what)s recorded %(by)s") % {"what": name, "by": by}
    elif action == AuditAction.FORBIDDEN_REMOVE:
        text = _("Forbidden pair %(what)s removed %(by)s") % {"what": name, "by": by}
    elif action == AuditAction.ENTRY_DELETE:
        text = _("Entry of %(name)s deleted %(by)s") % {"name": name, "by": by}
    elif action in (AuditAction.PLAYER_CREATE, AuditAction.PLAYER_UPDATE):
        changes = "; ".join(
            f"{_field_label(k)}: {old.get(k) if old.get(k) not in (None, '') else '—'} → {v if v not in (None, '') else '—'}"
            for k, v in new.items()
        )
        if action == AuditAction.PLAYER_CREATE:
            text = _("Player %(name)s registered %(by)s") % {"name": name, "by": by}
        else:
            text = _("Registry data of %(name)s changed %(by)s") % {"name": name, "by": by}
        if changes:
            text += f" ({changes})"
    else:
        text = _other_sentence(action, name, new, by)
    if entry.reason:
        text += ", " + _("reason: %(r)s") % {"r": entry.reason}
    return text + "."
