"""Issue 25, item 4: a typo in the custom tiebreak list. The form and the model refuse a bad list with a Portuguese
message (never a 500), and a bad list already stored never crashes a page: the standings use the profile's
default (CBJD) and the staff see a warning saying so."""

import io
import json
import re

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.models import Tournament, TournamentRole
from tournaments.setup.demo import load_demo

pytestmark = pytest.mark.django_db

SETTINGS = {
    "name": "Aberto de Olinda",
    "variant": "brazilian-64",
    "format": "micro-match",
    "planned_rounds": "7",
    "minutes_per_game": "21",
    "start_date": "2026-11-08",
    "end_date": "2026-11-09",
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
    "tiebreak_profile": "custom",
    "tiebreak_keys": '["buchholz", "progressive"]',
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

BAD = [
    ('["nope"]', "Desempate desconhecido: “nope”."),
    ("", "Escreva a lista de desempates"),
    ("null", "A lista de desempates deve ser uma lista"),
    ("NaN", "A lista de desempates não é um JSON válido"),
    ("[NaN]", "A lista de desempates não é um JSON válido"),
    ("[1e999]", "A lista de desempates não é um JSON válido"),
    ("[1]", "Cada desempate é um nome entre aspas"),
    ("[" * 100_000 + "]" * 100_000, "A lista de desempates é longa demais"),
    ("[" * 500 + "]" * 500, "Cada desempate é um nome entre aspas"),
    ('["buchholz", "buchholz"]', "O desempate “buchholz” aparece duas vezes."),
    ('{"a": 1}', "A lista de desempates deve ser uma lista"),
    ("[]", "Escreva a lista de desempates"),
]


@pytest.fixture
def settings_page(client, director, make_tournament):
    t = make_tournament(slug="aberto-olinda", name="Aberto de Olinda")
    client.force_login(director)
    return t, reverse("staff:settings", args=[t.slug])


def test_the_valid_custom_list_is_saved(client, settings_page):
    t, url = settings_page
    response = client.post(url, dict(SETTINGS, slug=t.slug))
    assert response.status_code == 302, response.context["form"].errors
    t.refresh_from_db()
    assert t.tiebreak_keys == ["buchholz", "progressive"]


@pytest.mark.parametrize(("typed", "message"), BAD, ids=[b[0][:20] for b in BAD])
def test_a_bad_custom_list_is_a_form_error_in_portuguese(client, settings_page, typed, message):
    t, url = settings_page
    response = client.post(url, dict(SETTINGS, slug=t.slug, tiebreak_keys=typed))
    assert response.status_code == 200
    errors = [str(e) for e in response.context["form"].errors.get("tiebreak_keys", [])]
    assert any(message in e for e in errors), errors
    t.refresh_from_db()
    assert t.tiebreak_keys == [] and t.tiebreak_profile == "cbjd"


def test_the_cbjd_profile_needs_no_list(client, settings_page):
    t, url = settings_page
    response = client.post(url, dict(SETTINGS, slug=t.slug, tiebreak_profile="cbjd", tiebreak_keys=""))
    assert response.status_code == 302, response.context["form"].errors
    t.refresh_from_db()
    assert t.tiebreak_keys == [] and t.tiebreak_profile == "cbjd"


@pytest.mark.parametrize(
    ("stored", "message"),
    [
        (["nope"], "Desempate desconhecido: “nope”."),
        ([["buchholz"]], "Cada desempate é um nome entre aspas"),
        ({"a": 1}, "A lista de desempates deve ser uma lista"),
        ("buchholz", "A lista de desempates deve ser uma lista"),
    ],
)
def test_the_model_refuses_a_bad_list(make_tournament, stored, message):
    t = make_tournament(tiebreak_profile="custom", tiebreak_keys=["buchholz"])
    t.tiebreak_keys = stored
    with pytest.raises(ValidationError) as exc:
        t.full_clean()
    assert any(message in m for m in exc.value.message_dict["tiebreak_keys"])


@pytest.mark.parametrize("stored", [None, {"a": 1}, "buchholz", 3])
def test_the_database_refuses_a_list_that_is_not_a_list(make_tournament, stored):
    t = make_tournament()
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.filter(pk=t.pk).update(tiebreak_keys=stored)


@pytest.fixture
def demo(client, director):
    t, _ = load_demo()
    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})
    client.force_login(director)
    return t


def without_tokens(response):
    html = re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", response.content.decode())
    return re.sub(r'version="\d+"', "", html)  # the page's version, bumped by the change


def store_bad_list(tournament, stored):
    """A list written by an older version, straight in the database (SQL: the model refuses a locked fact changed
    after round 1 without a reason, issue 35.3)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_tournament SET tiebreak_profile = %s, tiebreak_keys = %s WHERE id = %s",
            ["custom", json.dumps(stored), tournament.pk],
        )


@pytest.mark.parametrize("stored", [["nope"], ["buchholz", ["x"]], [1e300], ["buchholz", "buchholz"], [{}]])
def test_a_bad_list_already_stored_never_crashes_a_page(client, demo, stored):
    anonymous = Client()
    public = reverse("public:standings", args=[demo.slug])
    cbjd_standings = without_tokens(anonymous.get(public))
    store_bad_list(demo, stored)
    from tournaments.core import cache

    cache.bump(demo.pk)
    urls = [
        reverse("public:tournament", args=[demo.slug]),
        public,
        reverse("public:crosstable", args=[demo.slug]),
        reverse("public:players", args=[demo.slug]),
        reverse("public:print_standings", args=[demo.slug]),
        reverse("staff:tournament", args=[demo.slug]),
        reverse("staff:standings", args=[demo.slug]),
        reverse("staff:homologation", args=[demo.slug]),
        reverse("staff:settings", args=[demo.slug]),
        reverse("staff:download", args=[demo.slug, "json"]),
    ]
    for url in urls:
        assert client.get(url).status_code == 200, url
    # the standings fall back to the CBJD profile, exactly as before the bad list
    assert without_tokens(anonymous.get(public)) == cbjd_standings
    # the staff are told, on their pages, that the stored list is ignored and how to repair it
    for url in urls[5:9]:
        html = client.get(url).content.decode()
        assert "A lista de desempates personalizada salva é inválida" in html, url
        assert "a classificação usa o perfil CBJD até que ela seja corrigida" in html, url
    assert "inválida" not in anonymous.get(public).content.decode()
    workbook = client.get(reverse("staff:download", args=[demo.slug, "xlsx"]))
    assert workbook.status_code == 200
    assert "Classificação" in load_workbook(io.BytesIO(workbook.content)).sheetnames


def test_a_bad_stored_list_can_be_repaired_after_round_one(client, demo):
    """The settings are frozen once round 1 is paired, but a list the standings cannot use is the exception: the
    director may replace it (with what the standings already use, or another valid list)."""
    store_bad_list(demo, ["nope"])
    url = reverse("staff:settings", args=[demo.slug])
    form = client.get(url).context["form"]
    assert not form.fields["tiebreak_keys"].disabled and not form.fields["tiebreak_profile"].disabled
    assert form.fields["score_win"].disabled
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if field.disabled:
            continue
        if name == "tiebreak_keys":
            value = '["buchholz", "progressive"]'
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = "" if value is None else value
    response = client.post(url, data)
    assert response.status_code == 302, response.context["form"].errors
    demo.refresh_from_db()
    assert demo.tiebreak_keys == ["buchholz", "progressive"]
    # once valid, it is frozen again
    assert client.get(url).context["form"].fields["tiebreak_keys"].disabled
