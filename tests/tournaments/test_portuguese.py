"""Issue 28.14: the Portuguese of the pages. No "mesa(s) salva(s)" or "suspenso(a)": real plurals (ngettext) and
agreement with the player's sex ("inscrita"); "0 pontos"; one spelling of "ID CBJD"; no word said twice ("tabela
Tabela oficial IDF", a name twice in a refusal). Checked on the catalogue, the templates, the Portuguese written in
the code, and the pages as a director and a visitor get them."""

import io
import re
import tokenize
from pathlib import Path

import pytest
from django.urls import reverse

from tournaments.core.agreement import plural
from tournaments.core.errors import ServiceError
from tournaments.entries.services import missed_rounds_note
from tournaments.models import Round
from tournaments.rounds.services import round_pair
from tournaments.setup.openings import opening_set_code

ROOT = Path(__file__).resolve().parents[2]
# a Portuguese word with its ending in brackets: mesa(s), suspenso(a), jogador(es), emparceirado(a)
SPLIT_ENDING = re.compile(r"[a-zà-ú][aeoáéíóúãõ]\((?:s|a|as|os)\)|r\(es\)", re.I)
OTHER_CBJD_IDS = re.compile(r"CBJD ID|\bId CBJD|\bid CBJD|ID da CBJD|CBJD-ID|ID-CBJD")


def catalogue_strings():
    """Every Portuguese translation in the pt-BR catalogue (obsolete entries left out)."""
    text = (ROOT / "locale/pt_BR/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        if block.startswith("#~"):
            continue
        part = block.split("\nmsgstr", 1)
        if len(part) == 2:
            yield "".join(re.findall(r'"(.*)"', part[1])), block


def test_the_catalogue_has_real_plurals_and_one_spelling_of_the_cbjd_id():
    split = [s for s, _block in catalogue_strings() if SPLIT_ENDING.search(s)]
    assert split == []
    assert [s for s, _block in catalogue_strings() if OTHER_CBJD_IDS.search(s)] == []
    assert [s for s, _block in catalogue_strings() if re.search(r"\b0 ponto\b", s)] == []
    po = (ROOT / "locale/pt_BR/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    assert '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"' in po  # 0 takes the plural: "0 pontos", "0 mesas"


def python_strings():
    """The string literals of the project's Python (Portuguese is written in the code for the commands and the
    import reports)."""
    for path in sorted((ROOT / "tournaments").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        for token in tokens:
            if token.type == tokenize.STRING or token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                yield f"{path.relative_to(ROOT)}:{token.start[0]}", token.string


def test_no_split_endings_in_the_code_or_the_templates():
    split = [(where, s) for where, s in python_strings() if SPLIT_ENDING.search(s)]
    assert not split, split
    templates = sorted((ROOT / "templates").rglob("*.html"))
    found = [(str(p.relative_to(ROOT)), m.group()) for p in templates for m in SPLIT_ENDING.finditer(p.read_text())]
    assert found == []
    # the CBJD ID is said through its one message ("ID CBJD"), never as a bare "CBJD" before a number
    bare = [str(p.relative_to(ROOT)) for p in templates if re.search(r"CBJD\s*\{\{|<th>CBJD</th>", p.read_text())]
    assert bare == []


def test_portuguese_nouns_agree_with_their_number():
    assert [f"{n} {plural(n, 'ponto', 'pontos')}" for n in (0, 0.5, 1, 1.5, 2, 3)] == [
        "0 pontos",
        "0.5 ponto",
        "1 ponto",
        "1.5 ponto",
        "2 pontos",
        "3 pontos",
    ]
    assert missed_rounds_note(None, 2) == (
        "Rodada 1 perdida: 0 pontos (quem entra atrasado não pontua nas rodadas que perdeu)."
    )


@pytest.mark.django_db
def test_the_opening_table_is_named_once(field, director):
    t, _entries = field(4)
    round_pair(tournament=t, user=director, publish=True)
    with pytest.raises(ServiceError) as refused:
        opening_set_code(round=Round.objects.get(tournament=t, number=1), code="ZZ-9", user=director)
    assert refused.value.messages == ["A tablita “ZZ-9” não existe em “Tabela oficial IDF (64 casas)”."]


@pytest.mark.django_db
def test_the_pages_say_it_in_portuguese(client, field, director, make_player):
    """A director's and a visitor's pages after round 1, one board still without its result."""
    director.username = "marta"  # the audit log says "pelo diretor marta": no login that repeats the role
    director.save()
    t, entries = field(6)
    entries[0].player.sex = "F"
    entries[0].player.save()
    round_pair(tournament=t, user=director, publish=True)
    client.force_login(director)
    staff = [
        reverse(name, args=args)
        for name, args in [
            ("staff:home", []),
            ("staff:tournament", [t.slug]),
            ("staff:entries", [t.slug]),
            ("staff:entry", [t.slug, entries[0].pk]),
            ("staff:round", [t.slug, 1]),
            ("staff:results", [t.slug, 1]),
            ("staff:standings", [t.slug]),
            ("staff:categories", [t.slug]),
            ("staff:homologation", [t.slug]),
            ("staff:registry", []),
            ("staff:player", [entries[0].player_id]),
            ("staff:settings", [t.slug]),
            ("staff:audit", [t.slug]),
        ]
    ]
    public = [
        reverse(name, args=args)
        for name, args in [
            ("public:tournament", [t.slug]),
            ("public:round", [t.slug, 1]),
            ("public:standings", [t.slug]),
            ("public:players", [t.slug]),
            ("public:player", [t.slug, entries[0].pk]),
            ("public:crosstable", [t.slug]),
        ]
    ]
    problems = {}
    for url in staff + public:
        response = client.get(url, {"q": "P0"} if url.endswith("/inscritos/") else {})
        assert response.status_code == 200, url
        text = re.sub(r"<script.*?</script>|<style.*?</style>", "", response.content.decode(), flags=re.S)
        nodes = [" ".join(node.split()) for node in re.findall(r">([^<]+)<", text)]
        found = [m for node in nodes for m in SPLIT_ENDING.findall(node) + OTHER_CBJD_IDS.findall(node)]
        # a word said twice in a row within one sentence ("tabela Tabela oficial IDF")
        found += [m.group() for node in nodes for m in re.finditer(r"\b(\w{3,})\s+\1\b", node, re.I)]
        if found:
            problems[url] = found
    assert not problems, problems
