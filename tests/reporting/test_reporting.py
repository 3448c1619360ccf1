"""Players report results from their phones (issue 30): codes, "minha mesa", confirmation by the opponent,
conflicts, the arbiter's approval (the only write of a result), and the abuse cases: a wrong code, a code of
another board or round, brute force, a replay after approval, reporting turned off, a reissued code."""

import re

import pytest
from django.urls import reverse

from testkit.builders import build_tournament
from tournaments.core.errors import ServiceError
from tournaments.models import AuditEntry, Board, Game, PlayerCode, ResultReport, Seat
from tournaments.reporting import services
from tournaments.reporting.selectors import CONFIRMED, CONFLICT, ONE, round_report_states

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    """10 players, round 3 of 3 published and not played yet, every entry with a code."""
    t = build_tournament(slug="relatos", players=10, rounds=3, user=director, complete_last=False)
    assert services.codes_issue(tournament=t, user=director) == 10
    return t


def seats(t, number=1, round_number=3):
    board = Board.objects.get(round__tournament=t, round__number=round_number, number=number)
    first = Seat.objects.get(board=board, side="first").entry
    second = Seat.objects.get(board=board, side="second").entry
    return board, first, second


def sign_in(client, t, entry):
    pin = PlayerCode.objects.get(entry=entry).pin
    r = client.post(reverse("public:my_board_sign_in", args=[t.slug]), {"code": f"{pin[:3]}-{pin[3:].lower()}"})
    assert r.status_code == 302 and r["Location"] == reverse("public:my_board", args=[t.slug])
    return pin


def report(client, t, game1, game2):
    return client.post(reverse("public:my_board", args=[t.slug]), {"game1": game1, "game2": game2})


def stored(board):
    return dict(Game.objects.filter(board=board).values_list("number", "result"))


def test_codes_are_unique_six_characters_without_ambiguous_letters(event):
    pins = list(PlayerCode.objects.filter(tournament=event).values_list("pin", flat=True))
    assert len(set(pins)) == 10
    assert all(re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", pin) for pin in pins)


def test_report_confirm_and_approve_writes_the_result_once(client, event, director):
    board, first, second = seats(event)
    # the first player won game 1 (White) and drew game 2
    sign_in(client, event, first)
    assert report(client, event, "W", "D").status_code == 302
    assert round_report_states(board.round)[board.pk].state == ONE
    assert stored(board) == {1: None, 2: None}  # a report is not a result
    page = client.get(reverse("public:my_board", args=[event.slug])).content.decode()
    assert 'data-report-state="waiting"' in page

    opponent = client.__class__()
    sign_in(opponent, event, second)
    page = opponent.get(reverse("public:my_board", args=[event.slug])).content.decode()
    assert 'data-report-state="to-confirm"' in page
    assert report(opponent, event, "L", "D").status_code == 302  # the same games, seen from the other side
    state = round_report_states(board.round)[board.pk]
    assert state.state == CONFIRMED and state.agreed == {1: "1-0", 2: "1/2"}

    assert services.reports_approve(rnd=board.round, user=director) == [1]
    assert stored(board) == {1: "1-0", 2: "1/2"}
    assert AuditEntry.objects.filter(tournament=event, action="result.enter").exists()  # the typed-result service
    assert AuditEntry.objects.filter(tournament=event, action="reporting.approve").exists()

    # a replay of the same report after approval is refused and changes nothing
    page = report(opponent, event, "W", "W").content.decode()
    assert "já registrou o resultado desta mesa" in page
    assert 'data-report-state="approved"' in page
    assert stored(board) == {1: "1-0", 2: "1/2"}
    assert services.reports_approve(rnd=board.round, user=director) == []  # nothing left to approve


def test_different_reports_are_a_conflict_that_approval_never_writes(client, event, director):
    board, first, second = seats(event)
    sign_in(client, event, first)
    report(client, event, "W", "W")
    other = client.__class__()
    sign_in(other, event, second)
    report(other, event, "W", "L")  # the second player says they won game 1
    assert round_report_states(board.round)[board.pk].state == CONFLICT
    assert services.reports_approve(rnd=board.round, user=director) == []
    assert services.reports_approve(rnd=board.round, user=director, board_ids=[board.pk]) == []
    assert stored(board) == {1: None, 2: None}


def test_the_arbiter_may_approve_a_board_reported_by_one_player(client, event, director):
    board, first, _second = seats(event, number=2)
    sign_in(client, event, first)
    report(client, event, "L", "L")
    assert services.reports_approve(rnd=board.round, user=director) == []  # not confirmed: not in "approve all"
    assert services.reports_approve(rnd=board.round, user=director, board_ids=[board.pk]) == [2]
    assert stored(board) == {1: "0-1", 2: "1-0"}  # first lost with White, then lost with Black


def test_a_code_reports_only_its_own_board_in_the_current_round(event):
    board1, first, _second = seats(event, number=1)
    board2, _a, _b = seats(event, number=2)
    with pytest.raises(ServiceError, match="não é de um jogador desta mesa"):
        services.report_submit(entry=first, board=board2, results={1: "1-0", 2: "1-0"})
    earlier = Board.objects.filter(round__tournament=event, round__number=2, seats__entry=first).get()
    with pytest.raises(ServiceError, match="não está na rodada atual"):
        services.report_submit(entry=first, board=earlier, results={1: "1-0", 2: "1-0"})
    with pytest.raises(ServiceError, match="resultado de cada partida"):
        services.report_submit(entry=first, board=board1, results={1: "+/-", 2: "1-0"})  # forfeits are the arbiter's
    assert not ResultReport.objects.exists()


def test_wrong_codes_make_the_phone_wait_not_the_venue(client, event, frozen_clock):
    """Issue 34.2 (was: eight wrong codes locked the address for 15 minutes): the phone waits; the others do not."""
    _board, first, _second = seats(event)
    url = reverse("public:my_board_sign_in", args=[event.slug])
    for _ in range(services.PIN_BOUND.free + 1):
        r = client.post(url, {"code": "ZZZZZZ"}, REMOTE_ADDR="10.9.8.7")
        assert "Código desconhecido" in r.content.decode()
    pin = PlayerCode.objects.get(entry=first).pin
    r = client.post(url, {"code": pin}, REMOTE_ADDR="10.9.8.7")  # the right code, but this phone waits 2 s
    assert r.status_code == 429 and "Tente de novo em 2 segundos" in r.content.decode()
    r = client.post(url, {"code": pin}, REMOTE_ADDR="10.9.8.8")  # another phone at the venue does not wait
    assert r.status_code == 302


def test_a_reissued_code_signs_out_the_old_phone_and_the_old_pin(client, event, director):
    _board, first, _second = seats(event)
    old = sign_in(client, event, first)
    services.code_reissue(entry=first, user=director)
    r = client.get(reverse("public:my_board", args=[event.slug]))
    assert r.status_code == 302 and r["Location"].endswith("/minha-mesa/entrar/")
    r = client.post(reverse("public:my_board_sign_in", args=[event.slug]), {"code": old})
    assert r.status_code == 200 and "Código desconhecido" in r.content.decode()
    assert PlayerCode.objects.get(entry=first).generation == 2


def test_reporting_turned_off_refuses_codes_and_reports(client, event, director):
    board, first, _second = seats(event)
    sign_in(client, event, first)
    services.reporting_set_enabled(tournament=event, enabled=False, user=director)
    report(client, event, "W", "W")
    assert not ResultReport.objects.exists()
    other = client.__class__()
    r = other.post(reverse("public:my_board_sign_in", args=[event.slug]), {"code": "ABCDEF"})
    assert "desativou" in r.content.decode()
    assert stored(board) == {1: None, 2: None}


def test_the_card_qr_signs_in_and_a_forged_token_does_not(client, event):
    _board, first, _second = seats(event)
    token = PlayerCode.objects.get(entry=first).token
    r = client.get(reverse("public:my_board_card", args=[event.slug, token]))
    assert r.status_code == 302 and r["Location"] == reverse("public:my_board", args=[event.slug])
    page = client.get(r["Location"]).content.decode()
    assert first.player.name in page
    forged = client.__class__()
    r = forged.get(reverse("public:my_board_card", args=[event.slug, token[:-1] + ("A" if token[-1] != "A" else "B")]))
    assert r["Location"].endswith("/minha-mesa/entrar/")


def test_player_pages_are_never_cached_and_hostile_values_are_refused(client, event):
    _board, first, _second = seats(event)
    sign_in(client, event, first)
    r = client.get(reverse("public:my_board", args=[event.slug]))
    assert "no-store" in r["Cache-Control"] and "private" in r["Cache-Control"]
    report(client, event, "<script>alert(1)</script>", "W")
    assert not ResultReport.objects.exists()


def test_the_results_page_shows_each_state_and_approves_in_one_click(client, event, director):
    board, first, second = seats(event)
    board2, first2, _ = seats(event, number=2)
    phone = client.__class__()
    sign_in(phone, event, first)
    report(phone, event, "D", "D")
    phone2 = client.__class__()
    sign_in(phone2, event, second)
    report(phone2, event, "D", "D")
    phone3 = client.__class__()
    sign_in(phone3, event, first2)
    report(phone3, event, "W", "W")
    client.force_login(director)
    url = reverse("staff:results", args=[event.slug, 3])
    page = client.get(url).content.decode()
    assert 'data-board="1" data-report-state="confirmed"' in page
    assert 'data-board="2" data-report-state="one"' in page
    r = client.post(reverse("staff:reports_approve", args=[event.slug, 3]))
    assert r.status_code == 302
    assert stored(board) == {1: "1/2", 2: "1/2"}
    assert stored(board2) == {1: None, 2: None}


def test_each_printed_slip_carries_the_qr_of_its_board(client, event, director, django_capture_on_commit_callbacks):
    r = client.get(reverse("public:print_slips", args=[event.slug, 3]))
    page = r.content.decode()
    assert page.count('class="slip-qr"') == Board.objects.filter(round__tournament=event, round__number=3).count()
    assert "/t/relatos/minha-mesa/entrar/?mesa=1" in page
    with django_capture_on_commit_callbacks(execute=True):  # the printed pages change when the setting commits
        services.reporting_set_enabled(tournament=event, enabled=False, user=director)
    r = client.get(reverse("public:print_slips", args=[event.slug, 3]))
    assert 'class="slip-qr"' not in r.content.decode()


def test_the_board_hint_of_a_slip_is_shown_when_signing_in(client, event):
    r = client.get(reverse("public:my_board_sign_in", args=[event.slug]) + "?mesa=4")
    assert "Mesa 4: digite o código do seu cartão" in r.content.decode()


def test_a_conflict_settled_by_the_arbiter_is_not_labelled_approved(client, event, director):
    """Issue 37.9: a conflict the arbiter settled by typing a third result read "aprovada"; the hint about
    conflicts showed on a page without any."""
    from tournaments.reporting.selectors import APPROVED, TYPED
    from tournaments.rounds.results import game_record_result

    board, first, second = seats(event)
    board2, first2, _ = seats(event, number=2)
    phone = client.__class__()
    sign_in(phone, event, first2)
    report(phone, event, "W", "W")
    client.force_login(director)
    url = reverse("staff:results", args=[event.slug, 3])
    assert 'id="conflict-hint"' not in client.get(url).content.decode()  # no conflict: no word about one
    mine = client.__class__()
    sign_in(mine, event, first)
    report(mine, event, "W", "W")
    other = client.__class__()
    sign_in(other, event, second)
    report(other, event, "L", "W")
    assert 'id="conflict-hint"' in client.get(url).content.decode()
    board.refresh_from_db()
    game_record_result(board=board, results={1: "1/2", 2: "1/2"}, expected_version=board.version, user=director)
    services.reports_approve(rnd=board.round, user=director, board_ids=[board2.pk])
    states = round_report_states(board.round)
    assert (states[board.pk].state, states[board2.pk].state) == (TYPED, APPROVED)
    page = client.get(url).content.decode()
    row = re.search(r'<tr data-board="1" data-report-state="typed">.*?</tr>', page, re.S).group(0)
    assert "digitada pelo árbitro" in row and "aprovada" not in row
    assert "aprovada" in re.search(r'<tr data-board="2" data-report-state="approved">.*?</tr>', page, re.S).group(0)
    assert 'id="conflict-hint"' not in page  # the conflict is settled
