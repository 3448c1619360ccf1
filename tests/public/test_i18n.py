"""Portuguese by default, English on request; the pt-BR catalogue is complete; pt-BR number and date formats."""

import ast
import re
from pathlib import Path

import pytest
from django.urls import reverse

PO = Path(__file__).resolve().parents[2] / "locale" / "pt_BR" / "LC_MESSAGES" / "django.po"


def po_entries(path):
    """(msgid, [msgstr...], flags, msgid_plural) of every entry but the header, from a .po file (no library needed)."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        lines = [line for line in block.strip().splitlines() if not line.startswith("#~")]
        if not lines:
            continue
        flags = " ".join(line for line in lines if line.startswith("#,"))
        fields, key = {}, None
        for line in lines:
            match = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) (".*")$', line)
            if match:
                key = match.group(1)
                fields[key] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and key:
                fields[key] += ast.literal_eval(line)
        if "msgid" not in fields:
            continue
        strs = [v for k, v in fields.items() if k.startswith("msgstr")]
        entries.append((fields["msgid"], strs, flags, fields.get("msgid_plural", "")))
    return entries


def test_the_pt_br_catalogue_is_complete_and_has_no_fuzzy_entry():
    entries = po_entries(PO)
    assert len(entries) > 300
    header = [e for e in entries if e[0] == ""]
    assert header and "fuzzy" not in header[0][2], "the header is marked fuzzy: the catalogue would be ignored"
    untranslated = [msgid for msgid, strs, _flags, _p in entries if msgid and not all(s.strip() for s in strs)]
    fuzzy = [msgid for msgid, _strs, flags, _p in entries if msgid and "fuzzy" in flags]
    assert not untranslated, f"untranslated pt_BR msgids: {untranslated[:20]}"
    assert not fuzzy, f"fuzzy pt_BR entries: {fuzzy[:20]}"


def test_the_compiled_catalogue_matches_the_po():
    """The committed .mo says what the .po says (run compilemessages after editing the .po)."""
    import gettext

    mo = PO.with_suffix(".mo")
    assert mo.exists(), "run manage.py compilemessages and commit the .mo"
    with mo.open("rb") as fh:
        catalog = gettext.GNUTranslations(fh)._catalog
    stale = []
    for msgid, strs, _flags, plural in po_entries(PO):
        if not msgid or plural:
            continue
        found = [v for k, v in catalog.items() if isinstance(k, str) and (k == msgid or k.endswith("\x04" + msgid))]
        if strs[0] not in found:
            stale.append(msgid)
    assert not stale, f"the .mo is older than the .po for: {stale[:10]}"


def test_placeholders_survive_translation():
    for msgid, strs, _flags, plural in po_entries(PO):
        wanted = sorted(re.findall(r"%\((\w+)\)s", msgid + plural))
        for s in strs:
            if not msgid:
                continue
            got = sorted(re.findall(r"%\((\w+)\)s", s))
            assert set(got) <= set(wanted) or not got, (msgid, s)


@pytest.mark.django_db
def test_portuguese_is_the_default(client, published):
    html = client.get(reverse("public:standings", args=[published.slug])).content.decode()
    assert 'lang="pt-br"' in html
    assert "Classificação" in html and "Milésimos" in html


@pytest.mark.django_db
def test_the_language_switch_sets_english_and_back(client, published):
    url = reverse("public:pairings", args=[published.slug])
    response = client.post(reverse("set_language"), {"language": "en", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    html = client.get(url).content.decode()
    assert 'lang="en"' in html and "Round 5" in html and "Rodada 5" not in html
    client.post(reverse("set_language"), {"language": "pt-br", "next": url})
    html = client.get(url).content.decode()
    assert "Rodada 5" in html


@pytest.mark.django_db
def test_the_pages_offer_the_language_form(client, published):
    html = client.get(reverse("public:tournament", args=[published.slug])).content.decode()
    assert 'action="/i18n/setlang/"' in html and 'name="language"' in html


@pytest.mark.django_db
def test_pt_br_dates_and_decimal_comma(client, director):
    from decimal import Decimal

    from testkit.builders import build_tournament

    t = build_tournament(
        slug="meio-ponto",
        players=12,
        rounds=3,
        user=director,
        score_win=Decimal("1"),
        score_draw=Decimal("0.5"),
        score_loss=Decimal("0"),
    )
    home = client.get(reverse("public:home")).content.decode()
    assert "07/11/2026" in home and "09/11/2026" in home
    standings = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    assert re.search(r">\d+,5<", standings), "a half point shows with a decimal comma in pt-BR"
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    standings_en = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    assert re.search(r">\d+\.5<", standings_en)
    assert not re.search(r">\d+,5<", standings_en)
