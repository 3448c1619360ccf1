"""Issue 14, rounds and results, as a director meets them at the venue: confirmations and reasons, hand edits that
never lose a result, one result notation everywhere, the results form's errors, the draft round page, the audit
log in sentences, the engine's explanation in Portuguese, error pages for the public."""

import re
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from tournaments.core.errors import ServiceError
from tournaments.core.labels import explanation_row
from tournaments.entries.services import absence_announce, entry_withdraw
from tournaments.models import AuditEntry, Entry, Game, Round
from tournaments.rounds.results import game_record_result
from tournaments.rounds.scoring import entry_label, parse_entry
from tournaments.rounds.selectors import board_pair, rounds_with_boards
from tournaments.rounds.services import round_edit, round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


def numbers(t, number):
    rnd = rounds_with_boards(t, number=number)[0]
    return [tuple(e.pairing_number for e in board_pair(b)) for b in rnd.boards.all()]


def by_number(t):
    return {e.pairing_number: e.pk for e in Entry.objects.filter(tournament=t)}


def board(t, number, board_number):
    return Round.objects.get(tournament=t, number=number).boards.get(number=board_number)


def games(b):
    return [g.result for g in Game.objects.filter(board=b).order_by("number")]


# ---------------------------------------------------------------- one notation, from the first player's side


def test_one_notation_micro_match_and_single_game():
    # micro-match games: the game's points from the first player's side; game 2 has the second player on White
    assert [entry_label(1, c) for c in ("1-0", "1/2", "0-1", "+/-", "-/+", "-/-")] == [
        "2-0",
        "1-1",
        "0-2",
        "+/-",
        "-/+",
        "-/-",
    ]
    assert [entry_label(2, c) for c in ("1-0", "1/2", "0-1", "+/-", "-/+")] == ["0-2", "1-1", "2-0", "-/+", "+/-"]
    assert [entry_label(1, c, micro=False) for c in ("1-0", "1/2", "0-1")] == ["1-0", "½-½", "0-1"]
    for n in (1, 2):  # what is shown is read back, in both notations
        for code in ("1-0", "1/2", "0-1", "+/-", "-/+", "-/-"):
            assert parse_entry(n, entry_label(n, code)) == code
            assert parse_entry(n, entry_label(n, code, micro=False)) == code


def test_the_same_result_reads_the_same_on_staff_public_audit_and_export(field, director, client):
    t, _entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    b1 = board(t, 1, 1)
    game_record_result(board=b1, results={1: "1-0", 2: "1/2"}, expected_version=1, user=director)
    client.force_login(director)
    staff = client.get(reverse("staff:results", args=[t.slug, 1])).content.decode()
    assert f'name="b{b1.pk}_g1" value="2-0"' in staff and f'name="b{b1.pk}_g2" value="1-1"' in staff
    csv = client.get(reverse("staff:round", args=[t.slug, 1]) + "?_export=csv").content.decode("utf-8-sig")
    assert "2-0  1-1" in csv
    public = client.get(reverse("public:pairings", args=[t.slug])).content.decode()
    assert re.search(r'<small class="games">2-0 · 1-1</small>', public)
    board_page = client.get(reverse("public:board", args=[t.slug, 1, 1])).content.decode()
    assert "<strong>2-0</strong>" in board_page and "<strong>1-1</strong>" in board_page
    game_record_result(board=b1, results={2: "0-1"}, expected_version=2, user=director, reason="súmula")
    audit = client.get(reverse("staff:audit", args=[t.slug])).content.decode()
    assert "Rodada 1, mesa 1: partida 2 corrigida de 1-1 para 2-0 pelo diretor diretor, motivo: súmula." in audit


def test_single_game_tournaments_use_1_0_and_half(field, director, client):
    t, _entries = field(4, format="single-game")
    round_pair(tournament=t, user=director, publish=True)
    b1 = board(t, 1, 1)
    game_record_result(board=b1, results={1: "1/2"}, expected_version=1, user=director)
    client.force_login(director)
    staff = client.get(reverse("staff:results", args=[t.slug, 1])).content.decode()
    assert f'name="b{b1.pk}_g1" value="½-½"' in staff
    slips = client.get(reverse("public:print_slips", args=[t.slug, 1])).content.decode()
    assert "1-0 &nbsp; ½-½ &nbsp; 0-1" in slips


# ---------------------------------------------------------------- the results form


def test_a_bad_cell_is_marked_and_nothing_is_saved(field, director, client):
    t, _entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    b1, b2 = board(t, 1, 1), board(t, 1, 2)
    client.force_login(director)
    url = reverse("staff:results", args=[t.slug, 1])
    data = {f"b{b1.pk}_v": 1, f"b{b1.pk}_g1": "2-0", f"b{b1.pk}_g2": "1-1"}
    data |= {f"b{b2.pk}_v": 1, f"b{b2.pk}_g1": "7", f"b{b2.pk}_g2": "0-2"}
    r = client.post(url, data)
    html = r.content.decode()
    assert r.status_code == 409
    assert "Nada foi salvo: corrija o erro abaixo e salve de novo." in html
    assert re.search(rf'<td class="cell-error"><input [^>]*name="b{b2.pk}_g1" value="7"[^>]*aria-invalid="true"', html)
    assert "Mesa 2, partida 1: “7” não é um resultado (use 2-0, 1-1, 0-2" in html
    assert f'name="b{b1.pk}_g1" value="2-0"' in html  # what was typed is kept
    assert games(b1) == [None, None] and games(b2) == [None, None]  # all or nothing
    r = client.post(url, {**data, f"b{b2.pk}_g1": "2-0"}, follow=True)
    assert "2 mesas salvas" in r.content.decode() and "(s)" not in r.content.decode()
    assert games(b1) == ["1-0", "1/2"] and games(b2) == ["1-0", "1-0"]


def test_a_board_that_does_not_exist_is_an_error_not_zero_boards_saved(field, director, client):
    t, _entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    client.force_login(director)
    url = reverse("staff:results", args=[t.slug, 1])
    r = client.post(url, {"b999999_v": 1, "b999999_g1": "2-0"})
    html = r.content.decode()
    assert r.status_code == 409
    assert "Este formulário tem mesas que não existem na rodada 1" in html and "Nada foi salvo" in html
    assert "0 mesa" not in html
    b1 = board(t, 1, 1)
    r = client.post(url, {f"b{b1.pk}_v": 1, f"b{b1.pk}_g3": "2-0"})
    assert r.status_code == 409 and "A mesa 1 não tem partida 3." in r.content.decode()
    r = client.post(url, {f"b{b1.pk}_v": 1, f"b{b1.pk}_g1": "", f"b{b1.pk}_g2": ""}, follow=True)
    assert "Nada a salvar: nenhum resultado mudou." in r.content.decode()


def test_a_correction_is_confirmed_with_a_reason_kept_in_the_audit_log(field, director, client):
    t, _entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    b1 = board(t, 1, 1)
    game_record_result(board=b1, results={1: "1-0", 2: "1/2"}, expected_version=1, user=director)
    client.force_login(director)
    url = reverse("staff:results", args=[t.slug, 1])
    data = {f"b{b1.pk}_v": 2, f"b{b1.pk}_g1": "2-0", f"b{b1.pk}_g2": "0-2"}
    r = client.post(url, data)
    html = r.content.decode()
    assert r.status_code == 409
    assert "Nada foi salvo ainda: confirme as correções abaixo e informe o motivo." in html
    assert "Mesa 1: partida 2 de 1-1 para 0-2" in html
    assert 'name="reason"' in html and 'name="confirm_correction"' in html
    assert re.search(rf'<td class="cell-corrected"><input [^>]*name="b{b1.pk}_g2" value="0-2"', html)
    assert games(b1) == ["1-0", "1/2"]
    r = client.post(url, {**data, "reason": "súmula assinada diz 0-2"})  # the box not ticked
    assert r.status_code == 409 and "Marque a caixa que confirma as correções." in r.content.decode()
    assert games(b1) == ["1-0", "1/2"]
    r = client.post(url, {**data, "reason": "súmula assinada diz 0-2", "confirm_correction": "1"})
    assert r.status_code == 302 and games(b1) == ["1-0", "1-0"]
    entry = AuditEntry.objects.get(action="result.correct")
    assert entry.reason == "súmula assinada diz 0-2"
    audit = client.get(reverse("staff:audit", args=[t.slug])).content.decode()
    assert (
        "Rodada 1, mesa 1: partida 2 corrigida de 1-1 para 0-2 pelo diretor diretor, motivo: súmula assinada" in audit
    )
    assert "{" not in re.sub(r"<(script|style)[^>]*>.*?</\1>", "", audit, flags=re.S)  # no dicts on the page


# ---------------------------------------------------------------- hand edits of a draft


def test_a_hand_edit_keeps_the_results_of_the_boards_it_keeps(field, director):
    t, _entries = field(6)
    rnd = round_pair(tournament=t, user=director)  # a draft; boards (1, 4), (5, 2), (3, 6)
    assert numbers(t, 1) == [(1, 4), (5, 2), (3, 6)]
    game_record_result(board=board(t, 1, 1), results={1: "1-0", 2: "0-1"}, expected_version=1, user=director)
    n = by_number(t)
    round_edit(round=rnd, user=director, pairs=[(n[5], n[6]), (n[1], n[4]), (n[3], n[2])])
    assert numbers(t, 1) == [(5, 6), (1, 4), (3, 2)]
    assert games(board(t, 1, 2)) == ["1-0", "0-1"]  # board 1's results moved with its players to board 2
    assert games(board(t, 1, 1)) == [None, None] and games(board(t, 1, 3)) == [None, None]


def test_a_hand_edit_that_would_drop_a_result_is_refused(field, director):
    t, _entries = field(6)
    rnd = round_pair(tournament=t, user=director)
    game_record_result(board=board(t, 1, 1), results={1: "1-0"}, expected_version=1, user=director)
    n = by_number(t)
    for pairs in ([(n[1], n[2]), (n[5], n[4]), (n[3], n[6])], [(n[4], n[1]), (n[5], n[2]), (n[3], n[6])]):
        with pytest.raises(ServiceError) as refused:  # other opponent; the same two with the sides swapped
            round_edit(round=rnd, user=director, pairs=pairs)
        text = " ".join(refused.value.messages)
        assert "A mesa 1 (P01 – P04) já tem resultado (1: 2-0 / 2: …): ela precisa ficar como está." in text
    assert numbers(t, 1) == [(1, 4), (5, 2), (3, 6)] and games(board(t, 1, 1)) == ["1-0", None]


def round2_with_a_float(field, director):
    """Six players, everyone's first game decisive: three on 4 points, three on 0, so round 2 has a float."""
    t, _entries = field(6)
    round_pair(tournament=t, user=director, publish=True)
    for b in Round.objects.get(tournament=t, number=1).boards.all():
        game_record_result(board=b, results={1: "1-0", 2: "0-1"}, expected_version=1, user=director)
    return t, round_pair(tournament=t, user=director)


def test_the_engines_own_pairing_typed_by_hand_gets_no_warning(field, director):
    t, rnd = round2_with_a_float(field, director)
    engine = numbers(t, 2)
    n = by_number(t)
    _rnd, warnings = round_edit(round=rnd, user=director, pairs=[(n[a], n[b]) for a, b in engine])
    assert warnings == []  # the engine's float is not the edit's doing


def test_hand_edit_warnings_flag_only_what_the_edit_changed(field, director):
    t, rnd = round2_with_a_float(field, director)
    engine = numbers(t, 2)
    played = {frozenset(p) for p in numbers(t, 1)}
    names = {e.pairing_number: e.player.name for e in Entry.objects.filter(tournament=t).select_related("player")}
    points = {1: 4, 5: 4, 3: 4, 4: 0, 2: 0, 6: 0}  # round 1: (1, 4), (5, 2), (3, 6), the first player won both
    assert numbers(t, 1) == [(1, 4), (5, 2), (3, 6)]
    (float_board,) = [p for p in engine if points[p[0]] != points[p[1]]]
    kept_by_engine = {frozenset(p) for p in engine if p != float_board}
    rest = sorted(x for p in engine if p != float_board for x in p)
    a, b, c, d = rest
    options = [[(a, b), (c, d)], [(a, c), (b, d)], [(a, d), (b, c)]]
    edited = next(
        o for o in options if not {frozenset(p) for p in o} & played and not {frozenset(p) for p in o} & kept_by_engine
    )
    n = by_number(t)
    _rnd, warnings = round_edit(round=rnd, user=director, pairs=[(n[x], n[y]) for x, y in [float_board, *edited]])
    text = " ".join(warnings)
    # the engine's pairs the edit dropped are named; the float the engine made itself is not flagged
    for x, y in engine:
        if (x, y) != float_board:
            assert f"{x}-{y}" in text
    fx, fy = names[float_board[0]], names[float_board[1]]
    assert not any(fx in w and fy in w for w in warnings), warnings


# ---------------------------------------------------------------- the staff round page, undo, withdrawal


def test_the_draft_round_page_shows_who_is_not_paired_scores_ratings_and_print_links(field, director, client):
    t, entries = field(7)
    round_pair(tournament=t, user=director, publish=True)
    for b in Round.objects.get(tournament=t, number=1).boards.all():
        game_record_result(board=b, results={1: "1-0", 2: "1/2"}, expected_version=1, user=director)
    absent, quitter = entries[5], entries[6]
    absence_announce(entry=absent, round_number=2, user=director, reason="viagem")
    entry_withdraw(entry=quitter, from_round=2, kind="approved", user=director, note="doente")
    round_pair(tournament=t, user=director)  # draft of round 2: five present, one bye
    client.force_login(director)
    html = client.get(reverse("staff:round", args=[t.slug, 2])).content.decode()
    section = html[html.index('id="not-paired"') :]
    section = section[: section.index("</section>")]
    assert "Fora do emparceiramento nesta rodada" in section
    assert re.search(rf"<td>{absent.player.name}</td><td>ausente</td><td>[0-9]+</td>", section), section
    assert re.search(rf"<td>{quitter.player.name}</td><td>desistente</td>", section), section
    assert "<td>BYE</td>" in section
    assert "pts antes" in html and "<th" in html and "rating" in html.lower()
    assert f">{entries[0].rating}<" in html  # the ratings on the pairing table
    for url in ("print_pairings", "print_pairings_alpha", "print_slips"):
        assert reverse(f"public:{url}", args=[t.slug, 2]) in html
    results = client.get(reverse("staff:results", args=[t.slug, 2])).content.decode()
    assert reverse("public:print_slips", args=[t.slug, 2]) in results


def test_the_engine_explanation_is_portuguese(field, director, client):
    row = explanation_row(
        {
            "score": "4.5",
            "bracket": "4.5",
            "float": "up",
            "float_reason": "subiu: enfrentou 3 (5.0), que desceu do grupo de 5.0",
            "color_preference": "W",
            "preference_strength": "strong",
            "preference_granted": True,
            "color_rule": "E.2 (atendida a preferência mais forte)",
        }
    )
    assert row == {
        "score": "4,5",
        "bracket": "4,5",
        "float": "subiu de grupo",
        "float_reason": "subiu: enfrentou 3 (5,0), que desceu do grupo de 5,0",
        "preference": "Brancas (forte)",
        "granted": "sim",
        "color_rule": "E.2 (atendida a preferência mais forte)",
    }
    t, rnd = round2_with_a_float(field, director)
    client.force_login(director)
    html = client.get(reverse("staff:round", args=[t.slug, 2])).content.decode()
    table = html[html.index("Por que este emparceiramento") :]
    table = re.sub(r"<[^>]+>", " ", table[: table.index("</table>")])
    for english in (" up", " down", "W strong", "B strong", "mild", "absolute", " W ", " B "):
        assert english not in table, english
    assert "desceu de grupo" in table and "subiu de grupo" in table


def test_undoing_a_round_needs_the_confirmation(field, director, client):
    t, _entries = field(4)
    round_pair(tournament=t, user=director)
    client.force_login(director)
    url = reverse("staff:round", args=[t.slug, 1])
    page = client.get(url).content.decode()
    assert 'name="confirm" value="1" required' in page
    r = client.post(url, {"action": "undo"}, follow=True)
    assert (
        "Nada foi desfeito: marque a caixa que confirma desfazer o emparceiramento da rodada 1." in r.content.decode()
    )
    assert Round.objects.filter(tournament=t).count() == 1
    r = client.post(url, {"action": "undo", "confirm": "1"})
    assert r.status_code == 302 and not Round.objects.filter(tournament=t).exists()
    audit = client.get(reverse("staff:audit", args=[t.slug])).content.decode()
    assert "Emparceiramento da rodada 1 desfeito pelo diretor diretor." in audit


def test_a_withdrawal_needs_a_reason_and_the_confirmation(field, director, client):
    t, entries = field(4)
    client.force_login(director)
    url = reverse("staff:entry", args=[t.slug, entries[1].pk])
    r = client.post(url, {"action": "withdraw", "from_round": 1, "kind": "approved"}, follow=True)
    assert "A desistência não foi registrada: informe o motivo e confirme." in r.content.decode()
    r = client.post(url, {"action": "withdraw", "from_round": 1, "kind": "approved", "note": "passou mal"}, follow=True)
    assert "A desistência não foi registrada" in r.content.decode()
    entries[1].refresh_from_db()
    assert entries[1].withdrawn_from_round is None
    client.post(url, {"action": "withdraw", "from_round": 1, "kind": "approved", "note": "passou mal", "confirm": "on"})
    entries[1].refresh_from_db()
    assert entries[1].withdrawn_from_round == 1
    assert AuditEntry.objects.get(action="entry.withdraw").reason == "passou mal"
    audit = client.get(reverse("staff:audit", args=[t.slug])).content.decode()
    name = entries[1].player.name
    assert f"Desistência de {name} a partir da rodada 1 (Desistência aprovada pelo árbitro)" in audit
    assert "motivo: passou mal." in audit


# ---------------------------------------------------------------- error pages for the public


def test_a_visitor_gets_a_portuguese_404_not_djangos_technical_page(client, settings):
    settings.DEBUG = False
    r = client.get("/t/nao-existe/")
    html = r.content.decode()
    assert r.status_code == 404
    assert "Página não encontrada" in html and "Ver os torneios" in html
    assert "Using the URLconf" not in html and "Traceback" not in html


def test_the_500_page_is_portuguese_and_standalone():
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Erro interno" in html and "nada do que você enviou foi gravado pela metade" in html
    assert "{%" not in html and "Traceback" not in html
    # the Content-Security-Policy (default-src 'self') ignores inline styles: the page uses the site's CSS file
    assert "style=" not in html and "<style" not in html
    assert '<link rel="stylesheet" href="/static/css/site.css">' in html


def test_make_run_serves_without_debug_pages():
    makefile = (Path(__file__).resolve().parents[2] / "Makefile").read_text()
    run = makefile[makefile.index("\nrun:") :].split("\n\n")[0]
    assert "DEBUG=$${DEBUG:-0} $(PY) manage.py serve" in run  # manage.py serve: issue 37.10


def test_the_staff_dashboard_says_the_tournament_is_finished(field, director, client):
    t, _entries = field(4, planned_rounds=1)
    rnd = round_pair(tournament=t, user=director, publish=True)
    client.force_login(director)
    url = reverse("staff:tournament", args=[t.slug])
    assert 'id="finished"' not in client.get(url).content.decode()
    for b in rnd.boards.all():
        game_record_result(board=b, results={1: "1-0", 2: "1/2"}, expected_version=1, user=director)
    html = client.get(url).content.decode()
    assert 'id="finished"' in html and "Torneio encerrado: todas as rodadas previstas estão publicadas" in html
    public = client.get(reverse("public:tournament", args=[t.slug])).content.decode()
    assert "Torneio encerrado" in public and 'id="final-standings"' in public
    assert public.index('id="final-standings"') < public.index("table pairings")


def test_the_staff_game_page_and_record_conflicts_use_the_same_notation(field, director, client):
    from tournaments.games.services import result_conflicts

    t, _entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    b1 = board(t, 1, 1)
    game_record_result(board=b1, results={1: "1/2", 2: "1-0"}, expected_version=1, user=director)
    client.force_login(director)
    html = client.get(reverse("staff:game", args=[t.slug, 1, 1, 2])).content.decode()
    first, second = board_pair(rounds_with_boards(t, number=1)[0].boards.all()[0])
    # game 2: White (the second player) won, so from the first player's side 0-2
    assert f"{first.player.name} <strong>0-2</strong> {second.player.name}" in html

    class Check:  # a record that ends in a king-move draw
        ok, moves, draw_by_king_moves, game_over, result, final_fen = True, ["x"], True, False, "", ""

    (message,) = result_conflicts(t, 2, Check, "1-0")
    assert message.endswith("mas o resultado lançado é 0-2.")


def test_every_audit_entry_reads_as_a_sentence_without_codes(field, director):
    from tournaments.audit.presenters import audit_sentence
    from tournaments.models import AuditEntry as Entry_

    t, entries = field(4)
    roles = {director.pk: "director"}
    made = [
        Entry_(action="player.update", username="fed", summary="Ana Lins", old={"club": "A"}, new={"club": "B"}),
        Entry_(action="entry.delete", username="diretor", user=director, summary="Ana Lins", old={"player": 3}),
        Entry_(action="something.new", username="diretor", user=director, summary="rodada 2", new={"x": 1}),
    ]
    assert [audit_sentence(e, roles) for e in made] == [
        "Cadastro de Ana Lins alterado por fed (clube: A → B).",
        "Inscrição de Ana Lins apagada pelo diretor diretor.",
        "Rodada 2, pelo diretor diretor.",
    ]
    round_pair(tournament=t, user=director, publish=True)  # every sentence the day writes: no codes, no dicts
    for e in Entry_.objects.filter(tournament=t):
        text = audit_sentence(e, roles)
        assert "{" not in text and e.action not in text and text.endswith("."), text
