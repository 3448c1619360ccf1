"""No database constraint name ever reaches a user: every constraint a staff form can reach becomes a Portuguese
message on the field concerned, and the page shows the form again with what was typed (issue 14)."""

import re

import pytest
from django.urls import reverse

from tournaments.models import Category, Player, Tournament

pytestmark = pytest.mark.django_db

VALID = {
    "name": "Aberto de Olinda",
    "slug": "aberto-olinda",
    "variant": "brazilian-64",
    "format": "micro-match",
    "planned_rounds": "7",
    "minutes_per_game": "21",
    "start_date": "2026-11-07",
    "end_date": "2026-11-08",
    "city": "Olinda",
    "time_zone": "America/Sao_Paulo",
    "score_win": "2",
    "score_draw": "1",
    "score_loss": "0",
    "bye_value": "win",
    "absence_value": "zero",
    "acceleration": "none",
    "initial_colour": "white",
    "provisional_rating": "1600",
    "tiebreak_profile": "cbjd",
    "tiebreak_keys": "[]",
    "tiebreak_edition": "fide2026",
    "progressive_move": "end",
    "corrected_progressive_cut": "1",
    "corrected_progressive_unplayed": "on",
    "opening_draw_mode": "round",
    "king_moves_per_player": "on",
    "top3_order": "buchholz",
    "min_participants": "30",
    "participant_rule": "played",
    "spot_tie_rule": "committee",
    "pairing_program_rule": "named",
}

CONSTRAINT_NAMES = re.compile(r"(player|tournament|category|entry|role|absence|suspension|forbidden_pair)_[a-z_]+_")


def field_errors(response, field):
    return [str(e) for e in response.context["form"].errors.get(field, [])]


def assert_no_constraint_name(response):
    html = response.content.decode()
    assert not CONSTRAINT_NAMES.search(html.replace("tournament_form", "")), CONSTRAINT_NAMES.search(html)
    assert "Constraint" not in html and "Restrição" not in html and "violada" not in html


def test_the_valid_form_creates_the_tournament(client, director):
    """The baseline every case below changes in one field."""
    client.force_login(director)
    from tournaments.models import OpeningTable

    data = dict(VALID, opening_table=OpeningTable.objects.get(code="IDF-64").pk)
    response = client.post(reverse("staff:tournament_create"), data)
    assert response.status_code == 302, response.context["form"].errors
    assert Tournament.objects.get(slug="aberto-olinda").end_date.isoformat() == "2026-11-08"


CASES = [
    ("tournament_dates_ordered", {"end_date": "2026-11-06"}, "end_date", "A data de término não pode ser anterior"),
    ("tournament_rounds_range", {"planned_rounds": "101"}, "planned_rounds", "de 1 a 100 rodadas"),
    ("tournament_minutes_positive", {"minutes_per_game": "0"}, "minutes_per_game", "pelo menos 1 minuto"),
    ("tournament_scoring_ordered", {"score_win": "1", "score_draw": "1"}, "score_win", "A vitória deve valer mais"),
    ("tournament_scoring_ordered", {"score_loss": "-1"}, "score_win", "A vitória deve valer mais"),
    (
        "tournament_provisional_rating_range",
        {"provisional_rating": "5000"},
        "provisional_rating",
        "entre 100 e 3000",
    ),
    ("slug unique", {"slug": "ja-existe"}, "slug", "Outro torneio já usa este endereço na web"),
    ("slug invalid", {"slug": "Aberto Olinda!"}, "slug", "Use apenas letras minúsculas sem acento"),
]


@pytest.mark.parametrize(("constraint", "change", "field", "message"), CASES, ids=[c[0] for c in CASES])
def test_a_tournament_form_error_is_portuguese_on_its_field_and_keeps_the_form(
    client, director, make_tournament, constraint, change, field, message
):
    make_tournament(slug="ja-existe")
    client.force_login(director)
    data = dict(VALID, **change)
    response = client.post(reverse("staff:tournament_create"), data)
    assert response.status_code == 200
    errors = field_errors(response, field)
    assert any(message in e for e in errors), (constraint, response.context["form"].errors)
    assert_no_constraint_name(response)
    html = response.content.decode()
    assert 'value="Aberto de Olinda"' in html and 'value="Olinda"' in html  # the typed form is kept
    assert not Tournament.objects.filter(name="Aberto de Olinda").exists()


def test_the_settings_form_also_speaks_portuguese(client, director, make_tournament):
    t = make_tournament(slug="config")
    client.force_login(director)
    data = dict(VALID, slug="config", name=t.name, end_date="2026-01-01")
    data["opening_table"] = t.opening_table_id or ""
    response = client.post(reverse("staff:settings", args=[t.slug]), data)
    assert response.status_code == 200
    assert any("A data de término não pode ser anterior" in e for e in field_errors(response, "end_date"))
    assert_no_constraint_name(response)
    t.refresh_from_db()
    assert t.end_date.isoformat() == "2026-11-09"


def test_the_slug_field_is_the_web_address(client, director):
    client.force_login(director)
    html = client.get(reverse("staff:tournament_create")).content.decode()
    assert re.search(r'<label for="id_slug">Endereço na web</label>', html)
    assert 'data-slug-from="id_name"' in html
    assert "/static/js/staff.js" in html and "<script>" not in html  # no inline script (CSP default-src 'self')


def test_an_empty_web_address_is_made_from_the_name_by_the_server(client, director, make_tournament):
    """The page's script fills the address; for a name it cannot write in Latin letters it leaves it empty, and the
    server makes the readable one, free in this database (issue 27.17)."""
    from tournaments.models import OpeningTable

    make_tournament(slug="chempionat-rossii-2024")
    client.force_login(director)
    table = OpeningTable.objects.get(code="IDF-64").pk
    for name, address in [("Чемпионат России 2024", "chempionat-rossii-2024-2"), ("全国锦标赛", "quanguojinbiaosai")]:
        response = client.post(reverse("staff:tournament_create"), dict(VALID, name=name, slug="", opening_table=table))
        assert response.status_code == 302, response.context["form"].errors
        assert Tournament.objects.get(slug=address).name == name
    t = Tournament.objects.get(slug="quanguojinbiaosai")
    data = dict(VALID, name=t.name, slug="", opening_table=table, end_date="2026-11-09")
    response = client.post(reverse("staff:settings", args=[t.slug]), data)
    assert field_errors(response, "slug") == ["Este campo é obrigatório."]  # the settings keep an address


def test_model_validation_never_names_a_constraint():
    """Every constraint of the models users edit has its own message (none falls back on the generic one)."""
    for model in (Tournament, Player, Category):
        names = {c.name for c in model._meta.constraints}
        assert names == set(model.CONSTRAINT_MESSAGES), model
