"""Issue 39.7: each write works out which tournaments' pages it changes (tournaments/core/affected.py) and changes
their versions, so no cached page outlives the data it shows. The suspensions were wrong: creating a tribunal
suspension refreshed no tournament, lifting one only the tournament it came from; the public category pages kept
showing spots the suspension had taken away."""

import ast
from datetime import date
from pathlib import Path

import pytest

from tournaments.core import cache
from tournaments.entries.services import (
    abandonment_suspend,
    entry_register,
    rating_list_import,
    suspension_confirm,
    suspension_lift,
)
from tournaments.registry.services import player_update
from tournaments.registry.suspensions import suspension_create

ROOT = Path(__file__).resolve().parents[3] / "tournaments"

# The writes (functions that record an audit line) that change no cached page, or whose change is made by the
# caller or the callee they run in; each with why. Every other write must call pages_changed (or cache.bump).
NO_PAGE_OF_THEIR_OWN = {
    "audit/services.py::audit": "the audit log itself",
    "accounts/services.py::staff_account_create": "staff logins and roles: staff pages, never cached",
    "accounts/services.py::staff_invite_again": "staff logins: staff pages",
    "accounts/services.py::staff_role_offer": "staff roles: staff pages",
    "accounts/services.py::staff_offer_answer": "staff roles: staff pages",
    "accounts/services.py::staff_offer_withdraw": "staff roles: staff pages",
    "accounts/services.py::staff_role_remove": "staff roles: staff pages",
    "accounts/services.py::staff_pairing_permission": "who may pair: staff pages",
    "entries/forbidden.py::forbidden_pair_create": "read by the pairing only; listed on a staff page",
    "entries/forbidden.py::forbidden_pair_remove": "read by the pairing only; listed on a staff page",
    "entries/services.py::refresh_ratings": "runs inside round_pair's transaction (round 1), which bumps",
    "federation/outbox.py::submission_queue": "the venue's sending queue: a staff page",
    "federation/calendar.py::stage_request_receive": "the federation's calendar of stages: its staff pages",
    "federation/calendar.py::stage_decide": "the federation's calendar of stages: its staff pages",
    "federation/calendar.py::_ask_again": "a refused stage re-opened in the calendar: its staff pages",
    "federation/stage_outbox.py::stage_request_queue": "the venue's request for its stage: a staff page",
    "federation/stage_outbox.py::_ask_again": "the venue's request asked again: a staff page",
    "federation/stage_outbox.py::_send_request": "binds the event to its stage identifier: shown on staff pages only",
    "federation/editions.py::edition_publish": "a new edition: its staff page; a stage takes it on its next save",
    "federation/ratings.py::rating_release_publish": "imports the list through rating_list_import, which refreshes",
    "federation/services.py::credential_issue": "the federation's keys: its staff pages",
    "federation/services.py::credential_revoke": "the federation's keys: its staff pages",
    "federation/services.py::_receive": "the federation's queue: its staff pages",
    "federation/services.py::submission_decide": "its staff pages; the suspensions it makes refresh their players'",
    "federation/services.py::submission_verify": "the federation's verdict: its staff pages",
    "federation/services.py::submission_resolve_identity": "the federation's review of a stage: its staff pages",
    "management/commands/federation_officer.py::handle": "a federation officer's login: no page shows it",
    "games/services.py::audit_kept_conflict": "runs inside a result's or a record's write, which bumps",
    "games/services.py::_store_record": "runs inside game_attach_pdn / games_import_pdn, which bump",
    "registry/services.py::player_create": "a new player has no entry: no tournament shows them yet",
    "reporting/services.py::codes_issue": "the players' codes: printed on a staff page only",
    "reporting/services.py::code_reissue": "the players' codes: printed on a staff page only",
    "reporting/services.py::code_failures_reset": "the wrong codes' counters: no page shows them",
    "reporting/services.py::reports_approve": "writes each board through game_record_result, which bumps",
    "rounds/numbering.py::place_late_entries": "runs inside round_pair, which bumps",
    "rounds/services.py::_publish": "runs inside round_pair / round_publish, which bump",
    "setup/openings.py::opening_table_import": "the federation's opening tables: no page until a draw (it bumps)",
    "setup/services.py::tournament_create": "a new tournament has no cached page (its version starts new)",
}


def _writes_without_pages_changed():
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.FunctionDef):
                continue
            called = {ast.unparse(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
            writes = called & {"audit", "audit_row"} or any(
                c.endswith("AuditEntry.objects.bulk_create") for c in called
            )
            if writes and not any(c.endswith(("bump", "pages_changed")) for c in called):
                found.append(f"{path.relative_to(ROOT).as_posix()}::{node.name}")
    return found


def test_every_write_changes_the_versions_of_the_pages_it_changes_or_says_why_not():
    walked = _writes_without_pages_changed()
    assert len(walked) > 10  # the walk reads the services
    assert sorted(set(walked) - NO_PAGE_OF_THEIR_OWN.keys()) == []
    assert sorted(NO_PAGE_OF_THEIR_OWN.keys() - set(walked)) == []  # an entry goes once its write bumps


@pytest.fixture
def three_events(make_tournament, make_player, director):
    """A player entered in two tournaments, and a third tournament without them."""
    player = make_player(name="Ana Lins")
    one, two, other = make_tournament(), make_tournament(), make_tournament()
    for t in (one, two):
        entry_register(tournament=t, player=player, user=director)
    entry_register(tournament=other, player=make_player(), user=director)
    return player, one, two, other


def _versions(*tournaments):
    return [cache.version(t.pk) for t in tournaments]


def _changed(before, after):
    return [a != b for a, b in zip(before, after)]


def test_a_tribunal_suspension_refreshes_every_tournament_of_the_player(
    three_events, federation, django_capture_on_commit_callbacks
):
    player, one, two, other = three_events
    before = _versions(one, two, other)
    with django_capture_on_commit_callbacks(execute=True):
        suspension_create(
            player=player,
            start_date=date(2026, 1, 1),
            end_date=date(2027, 12, 31),
            reason="STJD 12/2026",
            user=federation,
        )
    assert _changed(before, _versions(one, two, other)) == [True, True, False]


def test_lifting_a_suspension_refreshes_every_tournament_of_the_player_not_only_its_own(
    three_events, director, django_capture_on_commit_callbacks
):
    player, one, two, other = three_events
    entry = one.entries.get(player=player)
    with django_capture_on_commit_callbacks(execute=True):
        suspension = abandonment_suspend(entry=entry, user=director, from_file=True)
    before = _versions(one, two, other)
    with django_capture_on_commit_callbacks(execute=True):
        suspension_confirm(suspension=suspension, user=director)
    confirmed = _versions(one, two, other)
    assert _changed(before, confirmed) == [True, True, False]
    with django_capture_on_commit_callbacks(execute=True):
        suspension_lift(suspension=suspension, user=director, reason="decisão revista")
    assert _changed(confirmed, _versions(one, two, other)) == [True, True, False]


def test_a_players_new_name_refreshes_their_tournaments(three_events, federation, django_capture_on_commit_callbacks):
    player, one, two, other = three_events
    before = _versions(one, two, other)
    with django_capture_on_commit_callbacks(execute=True):
        player_update(player=player, user=federation, name="Ana Lins Souza")
    renamed = _versions(one, two, other)
    assert _changed(before, renamed) == [True, True, False]
    data = f"cbjd,nome,rating\n{player.cbjd_id},Ana L. Souza,1700\n".encode()
    with django_capture_on_commit_callbacks(execute=True):
        rating_list_import(data=data, filename="lista.csv", user=federation)
    assert _changed(renamed, _versions(one, two, other)) == [True, True, False]
