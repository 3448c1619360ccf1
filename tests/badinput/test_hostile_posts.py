"""Hostile form posts on the staff views: out-of-range, non-numeric and foreign ids, bad result tokens, missing
version fields. Each gets a clear message or a 4xx, never a 500, and writes nothing (the whole database state
the staff pages can change is compared before and after every post).

Two tournaments: ``t`` (10 players, round 1 published with every result, round 2 a draft) on which the
director works, and ``o`` (12 players, round 1 published, an announced absence, a forbidden pair, a proposed
suspension) whose ids are thrown at ``t``'s pages.
"""

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from tournaments.core.errors import ServiceError
from tournaments.entries.services import absence_announce, entry_withdraw
from tournaments.models import (
    Absence,
    AuditEntry,
    Board,
    Entry,
    ForbiddenPair,
    Game,
    Player,
    Round,
    Seat,
    Suspension,
    TournamentRole,
)
from tournaments.models.choices import WithdrawalKind
from tournaments.rounds.results import game_record_result, round_record_results
from tournaments.rounds.services import round_edit, round_pair

pytestmark = pytest.mark.django_db

HUGE = "9" * 30  # past every integer column, on SQLite (8 bytes) and PostgreSQL alike
BIG = str(2**63)  # one past SQLite's INTEGER range
NUMBERS = ["-1", "0", HUGE, BIG, "abc", "", " ", "1.5", "1e3", "²", "١", "0x10", "NaN", "<script>"]


def fill_results(rnd, user):
    for board in Board.objects.filter(round=rnd):
        game_record_result(board=board, results={1: "1-0", 2: "1/2"}, expected_version=board.version, user=user)


@pytest.fixture
def world(field, director):
    t, t_entries = field(10)
    r1 = round_pair(tournament=t, user=director, publish=True)
    fill_results(r1, director)
    absence_announce(entry=t_entries[9], round_number=3, user=director)
    r2 = round_pair(tournament=t, user=director, publish=False)
    o, o_entries = field(12)
    o_r1 = round_pair(tournament=o, user=director, publish=True)
    fill_results(o_r1, director)
    o_absence = absence_announce(entry=o_entries[0], round_number=3, user=director)
    o_fp = ForbiddenPair.objects.create(tournament=o, entry_a=o_entries[1], entry_b=o_entries[2])
    o_suspension = entry_withdraw(entry=o_entries[11], from_round=2, kind=WithdrawalKind.ABANDONMENT, user=director)
    o_r2 = round_pair(tournament=o, user=director, publish=False)
    return {
        "t": t,
        "t_entries": t_entries,
        "r1": r1,
        "r2": r2,
        "o": o,
        "o_entries": o_entries,
        "o_r1": o_r1,
        "o_r2": o_r2,
        "o_absence": o_absence,
        "o_fp": o_fp,
        "o_suspension": o_suspension,
    }


@pytest.fixture
def staff(director):
    client = Client(raise_request_exception=False)
    client.force_login(director)
    return client


def snapshot():
    """Everything a staff page may write, as plain values."""
    return {
        "games": sorted(Game.objects.values_list("pk", "result", "pdn")),
        "boards": sorted(Board.objects.values_list("pk", "round_id", "number", "version")),
        "seats": sorted(Seat.objects.values_list("pk", "round_id", "entry_id", "board_id", "side")),
        "rounds": sorted(Round.objects.values_list("pk", "tournament_id", "number", "status", "manually_edited")),
        "entries": sorted(
            Entry.objects.values_list(
                "pk", "tournament_id", "status", "withdrawn_from_round", "declared_adult", "pairing_number"
            )
        ),
        "categories": sorted(Entry.categories.through.objects.values_list("entry_id", "category_id")),
        "absences": sorted(Absence.objects.values_list("pk", "entry_id", "round_number")),
        "forbidden": sorted(ForbiddenPair.objects.values_list("pk", "tournament_id", "entry_a_id", "entry_b_id")),
        "suspensions": sorted(Suspension.objects.values_list("pk", "player_id", "lift_reason")),
        "players": Player.objects.count(),
        "roles": sorted(TournamentRole.objects.values_list("pk", "tournament_id", "user_id", "role")),
        "audit": AuditEntry.objects.count(),
    }


def messages_of(response):
    ctx = response.context
    if ctx is not None and "messages" in ctx:
        return [str(m) for m in ctx["messages"]]
    return []


def where(exc_info):
    """The exception of a 500 and the last line of project code it went through."""
    if not exc_info:
        return ""
    import traceback

    frames = [f for f in traceback.extract_tb(exc_info[2]) if "/.venv/" not in f.filename]
    place = f" at {frames[-1].filename.split('/work/main/')[-1]}:{frames[-1].lineno}" if frames else ""
    return f"{exc_info[0].__name__}: {str(exc_info[1])[:200]}{place}"


def check(client, url, data, follow=True, method="post"):
    """POST (or GET); refuse a 500 and any write. Returns (status, messages shown).

    The request runs in a savepoint: after a 500 it is rolled back, so a database error (PostgreSQL aborts the
    transaction) cannot spoil the next request of the same test.
    """
    with transaction.atomic():
        before = snapshot()
        response = getattr(client, method)(url, data, follow=follow)
        if response.status_code == 500:
            transaction.set_rollback(True)
            raise AssertionError(f"500 on {url}: {where(getattr(response, 'exc_info', None))}")
        after = snapshot()
    assert after == before, f"{url} {data} wrote something: " + ", ".join(k for k in before if before[k] != after[k])
    return response.status_code, messages_of(response)


def check_all(client, cases, expect):
    """Every (label, url, data) case through ``check`` and ``expect(status, messages)``; one report of all that fail."""
    problems = []
    for label, url, data in cases:
        try:
            expect(*check(client, url, data))
        except AssertionError as exc:
            problems.append(f"{label}: {str(exc).splitlines()[0]}")
    assert not problems, f"{len(problems)} of {len(cases)} hostile posts mishandled:\n" + "\n".join(problems)


def assert_refused(status, messages):
    """A 4xx, or the page again with an error message (pt-BR)."""
    assert 400 <= status < 500 or messages, f"neither a 4xx nor a message (status {status})"


def status_is(*codes):
    def expect(status, messages):
        assert status in codes, f"status {status}, expected {codes}"

    return expect


# ------------------------------------------------------------------------------------------------- results


def results_url(t, n):
    return reverse("staff:results", args=[t.slug, n])


def board_fields(rnd):
    return {b.pk: b.version for b in Board.objects.filter(round=rnd).order_by("number")}


TOKENS = [
    "3-0",
    "2-2",
    "abc",
    "1-0-1",
    "9" * 1000,
    "½",
    "<b>2-0</b>",
    "2-0; DROP TABLE",
    "\u200b2-0",
    "２-０",
    "\x00",
    "2-0\n1-1",
]


def results_form_data(rnd, board_pk, g1, g2, **override):
    data = {f"b{pk}_v": v for pk, v in board_fields(rnd).items()}
    data.update({f"b{board_pk}_g1": g1, f"b{board_pk}_g2": g2}, **override)
    return data


def test_result_tokens_out_of_the_list(world, staff):
    t, r2 = world["t"], world["r2"]
    first = next(iter(board_fields(r2)))
    url = results_url(t, 2)
    check_all(
        staff, [(f"token {tok!r}", url, results_form_data(r2, first, tok, "2-0")) for tok in TOKENS], status_is(409)
    )


def test_result_token_message_names_the_board(world, staff):
    t, r2 = world["t"], world["r2"]
    first = next(iter(board_fields(r2)))
    status, msgs = check(staff, results_url(t, 2), results_form_data(r2, first, "3-0", ""), follow=False)
    assert status == 409
    text = " ".join(msgs)
    assert "Mesa 1" in text and "3-0" in text, text


def test_one_bad_board_saves_nothing_of_the_page(world, staff):
    t, r2 = world["t"], world["r2"]
    boards = list(board_fields(r2))
    data = results_form_data(r2, boards[0], "2-0", "1-1", **{f"b{boards[1]}_g1": "7-7"})  # a good board, a bad one
    status, _m = check(staff, results_url(t, 2), data, follow=False)
    assert status == 409


def test_missing_version_field_saves_nothing(world, staff):
    t, r2 = world["t"], world["r2"]
    first = next(iter(board_fields(r2)))
    status, msgs = check(staff, results_url(t, 2), {f"b{first}_g1": "2-0", f"b{first}_g2": "2-0"})
    assert status == 200


def test_bad_version_fields(world, staff):
    t, r2 = world["t"], world["r2"]
    first = next(iter(board_fields(r2)))
    cases = [
        (f"version {v!r}", results_url(t, 2), results_form_data(r2, first, "2-0", "2-0", **{f"b{first}_v": v}))
        for v in ["", "abc", "-1", "1.0", HUGE, BIG, "²"]
    ]
    check_all(staff, cases, status_is(409))


def test_board_of_another_tournament_is_refused(world, staff):
    """``b<other board>_v`` on this tournament's round: never saved, and said (issue 14: a board that is not in
    the round is an error, not "0 boards saved"), also beside this round's own untouched boards."""
    t, o_r2 = world["t"], world["o_r2"]
    other = Board.objects.filter(round=o_r2).order_by("number").first()
    data = {f"b{other.pk}_v": other.version, f"b{other.pk}_g1": "2-0", f"b{other.pk}_g2": "2-0"}
    status, shown = check(staff, results_url(t, 2), data)
    assert status == 409 and any("não existem na rodada 2" in m for m in shown), shown
    data.update(results_form_data(world["r2"], next(iter(board_fields(world["r2"]))), "", ""))
    status, shown = check(staff, results_url(t, 2), data)
    assert status == 409 and any("não existem na rodada 2" in m for m in shown), shown


def test_board_of_another_tournament_through_the_service(world, director):
    o_board = Board.objects.filter(round=world["o_r2"]).first()
    before = snapshot()
    with pytest.raises(ServiceError) as exc:
        round_record_results(
            round=world["r2"], rows=[(o_board.pk, o_board.version, {1: "1-0", 2: "1-0"})], user=director
        )
    assert "desta rodada" in exc.value.messages[0]
    assert snapshot() == before


def test_results_of_a_round_that_does_not_exist(world, staff):
    t = world["t"]
    cases = []
    for number in [3, 99, 2**31, 2**63, 10**30]:
        cases.append((f"POST round {number}", f"/gestao/t/{t.slug}/rodada/{number}/resultados/", {}))
    check_all(staff, cases, status_is(404))
    for number in [3, 2**63, 10**30]:
        status, _m = check(staff, f"/gestao/t/{t.slug}/rodada/{number}/resultados/", {}, method="get")
        assert status == 404


def test_results_url_not_a_number(world, staff):
    for path in ["/gestao/t/{slug}/rodada/-1/resultados/", "/gestao/t/{slug}/rodada/abc/resultados/"]:
        assert staff.get(path.format(slug=world["t"].slug)).status_code == 404


# ---------------------------------------------------------------------------------------- manual pairing


def edit_url(t, n):
    return reverse("staff:round_edit", args=[t.slug, n])


def current_lines(rnd):
    lines = []
    for board in Board.objects.filter(round=rnd).order_by("number"):
        seats = {s.side: s.entry.pairing_number for s in board.seats.select_related("entry")}
        lines.append(f"{seats['first']} {seats['second']}")
    return lines


def test_manual_pairing_bad_lines(world, staff):
    t, r2 = world["t"], world["r2"]
    cases = []
    for bad in [
        "-3 -5",
        "abc def",
        "1",
        "1 2 3",
        f"{HUGE} 1",
        f"{BIG} 1",
        "0 0",
        "² 3",
        "١ ٢",
        "1 1",
        "3.0 4",
        "11 12",
        "\x00 1",
    ]:
        lines = current_lines(r2)
        lines[0] = bad
        cases.append((f"line {bad!r}", edit_url(t, 2), {"pairs": "\n".join(lines), "bye": ""}))
    check_all(staff, cases, assert_refused)


def test_manual_pairing_bad_byes(world, staff):
    t, r2 = world["t"], world["r2"]
    pairs = "\n".join(current_lines(r2))
    cases = [
        (f"bye {bye!r}", edit_url(t, 2), {"pairs": pairs, "bye": bye})
        for bye in ["abc", "-1", "0", HUGE, BIG, "²", "11"]
    ]
    check_all(staff, cases, assert_refused)


def test_manual_pairing_naming_players_of_another_tournament(world, staff):
    """Pairing numbers 11 and 12 exist only in the other tournament: unknown here, nothing changes."""
    t, r2 = world["t"], world["r2"]
    lines = current_lines(r2)[:-1] + ["11 12"]
    status, msgs = check(staff, edit_url(t, 2), {"pairs": "\n".join(lines), "bye": ""})
    assert_refused(status, msgs)
    assert any("desconhecido" in m for m in msgs), msgs


def test_manual_pairing_with_entry_ids_of_another_tournament_through_the_service(world, director):
    t_entries, o_entries = world["t_entries"], world["o_entries"]
    before = snapshot()
    with pytest.raises(ServiceError) as exc:
        round_edit(round=world["r2"], user=director, pairs=[(o_entries[0].pk, t_entries[0].pk)])
    assert "outro torneio" in exc.value.messages[0]
    for hostile in ([("abc", "def")], [(None, 1)], [(-1, -2)], [(int(HUGE), 1)]):
        with pytest.raises(ServiceError):
            round_edit(round=world["r2"], user=director, pairs=hostile)
    assert snapshot() == before


def test_manual_pairing_leaving_players_out_writes_nothing(world, staff):
    t, r2 = world["t"], world["r2"]
    status, msgs = check(staff, edit_url(t, 2), {"pairs": current_lines(r2)[0], "bye": ""})
    assert_refused(status, msgs)


def test_manual_pairing_of_a_published_round_is_refused(world, staff):
    t, r1 = world["t"], world["r1"]
    lines = current_lines(r1)
    lines[0], lines[1] = lines[1], lines[0]
    status, msgs = check(staff, edit_url(t, 1), {"pairs": "\n".join(lines), "bye": ""})
    assert_refused(status, msgs)


def test_manual_pairing_of_a_round_that_does_not_exist_here(world, staff):
    """Round 3 exists in neither tournament; the other tournament's draft round 2 is not reachable through this slug."""
    t = world["t"]
    status, _m = check(staff, edit_url(t, 3), {"pairs": "1 2", "bye": ""})
    assert status == 404


def test_manual_pairing_huge_text(world, staff):
    t = world["t"]
    status, msgs = check(staff, edit_url(t, 2), {"pairs": "1 2\n" * 20000, "bye": ""})
    assert_refused(status, msgs)


# --------------------------------------------------------------------------------------------- entries


def entry_url(t, pk):
    return reverse("staff:entry", args=[t.slug, pk])


def test_entry_of_another_tournament_is_404(world, staff):
    t, o_entry = world["t"], world["o_entries"][0]
    assert staff.get(entry_url(t, o_entry.pk)).status_code == 404
    cases = [
        (
            action,
            entry_url(t, o_entry.pk),
            {
                "action": action,
                "from_round": 3,
                "kind": "approved",
                "round_number": 4,
                "absence": world["o_absence"].pk,
            },
        )
        for action in ("withdraw", "reinstate", "absence", "update", "cancel_absence")
    ]
    check_all(staff, cases, status_is(404))


def test_withdraw_and_absence_with_bad_round_numbers(world, staff):
    """Refused, nothing written, never a 500."""
    t, entry = world["t"], world["t_entries"][0]
    url = entry_url(t, entry.pk)
    cases = [(f"withdraw {n!r}", url, {"action": "withdraw", "from_round": n, "kind": "approved"}) for n in NUMBERS]
    cases += [(f"absence {n!r}", url, {"action": "absence", "round_number": n}) for n in NUMBERS]
    check_all(staff, cases, status_is(200, 400))


def test_withdraw_and_absence_with_bad_round_numbers_say_why(world, staff):
    """A refused form must say so: today the page just reloads, without a word (EntryView.post ignores an invalid
    WithdrawForm / AbsenceForm)."""
    t, entry = world["t"], world["t_entries"][0]
    url = entry_url(t, entry.pk)
    cases = [(f"withdraw {n!r}", url, {"action": "withdraw", "from_round": n, "kind": "approved"}) for n in NUMBERS]
    cases += [(f"absence {n!r}", url, {"action": "absence", "round_number": n}) for n in NUMBERS]
    cases += [("withdraw kind 'sumiu'", url, {"action": "withdraw", "from_round": 3, "kind": "sumiu"})]
    check_all(staff, cases, assert_refused)


def test_cancel_the_absence_of_another_tournament(world, staff):
    t, entry = world["t"], world["t_entries"][9]
    status, _m = check(staff, entry_url(t, entry.pk), {"action": "cancel_absence", "absence": world["o_absence"].pk})
    assert status == 404


def test_cancel_absence_with_bad_ids(world, staff):
    t, entry = world["t"], world["t_entries"][9]
    url = entry_url(t, entry.pk)
    cases = [
        (f"absence {a!r}", url, {"action": "cancel_absence", "absence": a}) for a in ["abc", "", "-1", HUGE, BIG, "1.5"]
    ]
    check_all(staff, cases, assert_refused)


def test_categories_of_another_tournament(world, staff):
    t, entry, o = world["t"], world["t_entries"][0], world["o"]
    other_category = o.categories.first() or pytest.skip("the other tournament has no category")
    status, msgs = check(staff, entry_url(t, entry.pk), {"action": "update", "categories": [other_category.pk]})
    assert status in (200, 400)


def test_unknown_action(world, staff):
    t, entry = world["t"], world["t_entries"][0]
    status, msgs = check(staff, entry_url(t, entry.pk), {"action": "explode"})
    assert any("desconhecida" in m for m in msgs), msgs


def test_add_entry_with_bad_player_ids(world, staff):
    t = world["t"]
    url = reverse("staff:entry_add", args=[t.slug])
    cases = [(f"player {p!r}", url, {"player": p}) for p in ["abc", "-1", HUGE, BIG, "1.5", "1e3"]]
    check_all(staff, cases, assert_refused)


def test_add_entry_of_a_player_already_entered(world, staff):
    t, entry = world["t"], world["t_entries"][0]
    status, msgs = check(staff, reverse("staff:entry_add", args=[t.slug]), {"player": entry.player_id})
    assert_refused(status, msgs)


# ------------------------------------------------------------------------ suspensions, forbidden pairs, roles


def test_suspension_with_bad_ids(world, staff):
    t = world["t"]
    url = reverse("staff:suspensions", args=[t.slug])
    cases = [(f"suspension {x!r}", url, {"suspension": x, "action": "confirm"}) for x in ["abc", "", "-1", HUGE, BIG]]
    check_all(staff, cases, assert_refused)


def test_suspension_of_another_tournament(world, staff):
    t = world["t"]
    status, _m = check(
        staff,
        reverse("staff:suspensions", args=[t.slug]),
        {"suspension": world["o_suspension"].pk, "action": "confirm"},
    )
    assert status == 404


def test_forbidden_pair_with_bad_numbers(world, staff):
    t = world["t"]
    url = reverse("staff:forbidden_pairs", args=[t.slug])
    cases = [
        (f"pair {a!r} {b!r}", url, {"entry_a": a, "entry_b": b})
        for a, b in [("-1", "2"), ("abc", "2"), (HUGE, "2"), (BIG, "2"), ("1", "1"), ("11", "12"), ("", "")]
    ]
    check_all(staff, cases, status_is(200, 400))


def test_remove_forbidden_pair_with_bad_ids(world, staff):
    t = world["t"]
    url = reverse("staff:forbidden_pairs", args=[t.slug])
    check_all(staff, [(f"remove {x!r}", url, {"remove": x}) for x in ["abc", "-1", HUGE, BIG]], assert_refused)


def test_remove_forbidden_pair_of_another_tournament(world, staff):
    t = world["t"]
    status, _m = check(staff, reverse("staff:forbidden_pairs", args=[t.slug]), {"remove": world["o_fp"].pk})
    assert status == 404


def test_remove_role_with_bad_ids(world, staff):
    t = world["t"]
    url = reverse("staff:roles", args=[t.slug])
    check_all(staff, [(f"remove {x!r}", url, {"remove": x}) for x in ["abc", "-1", HUGE, BIG]], assert_refused)


def test_remove_role_of_another_tournament(world, staff):
    t, o = world["t"], world["o"]
    other_role = TournamentRole.objects.filter(tournament=o).first()
    status, _m = check(staff, reverse("staff:roles", args=[t.slug]), {"remove": other_role.pk})
    assert status == 404


# ------------------------------------------------------------------------------------ round page, games


def test_round_page_bad_actions(world, staff):
    t = world["t"]
    url = reverse("staff:round", args=[t.slug, 1])
    cases = [
        (repr(data)[:60], url, data)
        for data in [
            {"action": "explode"},
            {"action": "venue_code", "code": "x" * 5000},
            {"action": "venue_code", "code": "\x00"},
            {"action": "publish"},
            {"action": "undo"},
            {},
        ]
    ]
    check_all(staff, cases, assert_refused)


def test_game_page_of_a_board_that_does_not_exist(world, staff):
    t = world["t"]
    cases = [
        (f"board {b} game {g}", f"/gestao/t/{t.slug}/rodada/1/mesa/{b}/partida/{g}/", {"pdn": "1. 22-18 *"})
        for b, g in [(99, 1), (1, 3), (1, 0), (2**63, 1), (10**30, 1)]
    ]
    check_all(staff, cases, status_is(404))
