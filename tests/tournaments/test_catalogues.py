"""Issue 16 item 4: one catalogue per concept. The tiebreaks (key, names, abbreviations, descriptions), the
reasons the domain gives as codes and only the presentation words, and the result codes."""

import re

import pytest
from django.core.management import call_command
from django.utils import translation

from tournaments.core.labels import SHOW, player_outcome, tiebreak_abbr, tiebreak_description, tiebreak_label
from tournaments.domain import TIEBREAK_KEYS, TIEBREAKS
from tournaments.domain.standings import ORDER_REASONS, REASON_DIRECT, REASON_TOP3_BUCHHOLZ_SECOND
from tournaments.games.services import RESULT_PDN
from tournaments.models.choices import GameResult
from tournaments.rounds.scoring import FORFEITS, MIRROR, PLAYED, RESULT_CODES, board_points, is_complete, outcomes
from tournaments.standings.readings import order_reason_text

# docs/interchange.md: "Tiebreak keys: ..."
SPEC_KEYS = [
    "progressive",
    "progressive_corrected",
    "buchholz",
    "buchholz_cut1",
    "buchholz_median",
    "direct_encounter",
    "sonneborn_berger",
    "matches_won",
    "games_won",
    "match_points",
    "opponents_rating",
    "truncated_solkoff",
    "riga",
]


def test_the_tiebreak_catalogue_is_the_one_list_of_keys():
    assert [t.key for t in TIEBREAKS] == list(TIEBREAK_KEYS) == SPEC_KEYS
    for language in ("pt", "en"):
        names = [getattr(t, f"name_{language}") for t in TIEBREAKS]
        abbrs = [getattr(t, f"abbr_{language}") for t in TIEBREAKS]
        descriptions = [getattr(t, f"description_{language}") for t in TIEBREAKS]
        assert len(set(names)) == len(set(abbrs)) == len(set(descriptions)) == len(TIEBREAKS)
        assert all(names) and all(abbrs) and all(descriptions)


@pytest.mark.parametrize(
    ("language", "label", "abbr", "description"),
    [
        ("pt-br", "Milésimos", "Mil.", "Soma dos pontos finais dos adversários"),
        ("en", "Buchholz", "Buch.", "Sum of the opponents' final scores"),
    ],
)
def test_pages_name_a_tiebreak_from_the_catalogue_in_the_active_language(language, label, abbr, description):
    with translation.override(language):
        assert (tiebreak_label("buchholz"), tiebreak_abbr("buchholz")) == (label, abbr)
        assert tiebreak_description("buchholz").startswith(description)
        assert tiebreak_label("unknown_key") == "unknown_key"


def test_the_order_reasons_are_codes_the_presentation_words():
    assert all(re.fullmatch(r"[a-z0-9_]+", code) for code in ORDER_REASONS)
    for language in ("pt-br", "en"):
        with translation.override(language):
            texts = [order_reason_text((code,)) for code in ORDER_REASONS]
            assert len(set(texts)) == len(ORDER_REASONS) and all(texts)
            assert order_reason_text(()) == ""
    with translation.override("pt-br"):
        assert order_reason_text((REASON_DIRECT,)) == (
            "Empate entre dois jogadores que se enfrentaram: o confronto direto é o primeiro critério "
            "(regulamento, art. 6º, b); se o confronto foi empatado, segue a ordem normal."
        )
        both = order_reason_text((REASON_DIRECT, REASON_TOP3_BUCHHOLZ_SECOND))
        assert both.startswith("Empate entre dois") and both.endswith(
            "o escore acumulado o segundo (regulamento, art. 6º, c)."
        )
    with translation.override("en"):
        assert order_reason_text((REASON_DIRECT,)).startswith("Two tied players who met: direct encounter comes first")
    with pytest.raises(KeyError):
        order_reason_text(("Empate entre dois jogadores",))  # a sentence is not a code


def test_one_table_of_result_codes():
    assert RESULT_CODES == set(GameResult.values) == set(SHOW) == set(RESULT_PDN)
    assert (sorted(PLAYED), sorted(FORFEITS)) == (["0-1", "1-0", "1/2"], ["+/-", "-/+", "-/-"])
    assert MIRROR == {"1-0": "0-1", "0-1": "1-0", "1/2": "1/2", "+/-": "-/+", "-/+": "+/-", "-/-": "-/-"}
    for code in RESULT_CODES:
        assert MIRROR[MIRROR[code]] == code
        white, black = outcomes(1, code)
        assert outcomes(2, code) == (black, white)  # game 2: the board's first player has Black
        assert player_outcome(code) == {"w": "win", "d": "draw", "l": "loss"}[white]
    scoring = {"win": 2, "draw": 1, "loss": 0}
    assert board_points({1: "1-0", 2: "0-1"}, scoring) == (4, 0)  # first player won both
    assert board_points({1: "-/-", 2: "-/-"}, scoring) == (0, 0)


@pytest.mark.parametrize(
    ("results", "complete"),
    [({1: "1-0", 2: "1/2"}, True), ({1: "1-0", 2: None}, False), ({}, False), ({1: "-/-"}, True)],
)
def test_a_board_is_complete_when_every_game_has_its_result(results, complete):
    assert is_complete(results) is complete


@pytest.mark.django_db
def test_the_standings_command_names_the_tiebreaks_from_the_catalogue(capsys):
    from testkit.builders import build_tournament

    t = build_tournament(slug="catalogo", players=6, rounds=2)
    with translation.override("en"):  # the command speaks Portuguese whatever the active language
        call_command("standings", t.slug)
    out = capsys.readouterr().out
    assert (
        "Legenda: CD = Confronto direto; EA = Escore acumulado; EAC = Escore acumulado corrigido; Mil. = Milésimos\n"
        in out
    )
    assert out.splitlines()[2].split()[4:] == ["CD", "EA", "EAC", "Mil."]


@pytest.mark.django_db
def test_the_public_standings_legend_names_and_describes_each_tiebreak(client):
    from django.core.cache import cache

    from testkit.builders import build_tournament

    cache.clear()
    t = build_tournament(slug="legenda", players=6, rounds=2)
    page = client.get(f"/t/{t.slug}/classificacao/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert (
        '<abbr title="Soma dos pontos finais dos adversários (rodadas não jogadas pelo art. 16 do C.07 da FIDE).">'
        "Mil.</abbr>: Milésimos"
    ) in page
