"""Issue 35.3: "Once round 1 is published, everything a condition reads is locked in the layer every path goes
through: ... categories and who is in them, entries' ratings ... Changing any of it needs a reason and is listed
in the report." Each path the audit used: the shell (a model's save, a queryset), the director's pages, the file
(export, import, the federation's verification). Without a reason each change is refused and nothing is written;
with one it is recorded, listed on the homologation page, in the workbook and in the file, read back by the
import and named by the federation. The spots read the ratings as played (frozen at round 1, art. 4), and a
category created after round 1 earns none."""

import io
import json
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse

from tests.federation.test_verification import registry_of
from tests.regulation.test_bending_attempts import admin_change, qualified, verdict
from tests.tournaments.interchange.helpers import send_on_time
from tests.tournaments.test_regulation_round_two import event
from tournaments.categories.services import category_delete
from tournaments.core.errors import ServiceError
from tournaments.entries.services import entry_rating_change, entry_register
from tournaments.federation.verification import verify
from tournaments.homologation.report import homologation_check
from tournaments.homologation.workbook import homologation_workbook
from tournaments.interchange import export_data, import_data
from tournaments.interchange.errors import InterchangeError
from tournaments.models import Category, Entry, Player, SettingsChange, Tournament
from tournaments.models.tournament import LockedFact, facts_changed
from tournaments.rounds.services import round_pair, round_undo

pytestmark = pytest.mark.django_db


def changes(t):
    return [(c.field, c.before, c.after, c.by, c.reason) for c in SettingsChange.objects.filter(tournament=t)]


def lines(t):
    return homologation_check(Tournament.objects.get(pk=t.pk)).settings_change_lines


def spots(t):
    """Per category, its spots and its average (whatever the rights)."""
    return {q.code: (q.spots, q.average) for q in homologation_check(Tournament.objects.get(pk=t.pk)).categories}


def file_of(t):
    return json.loads(json.dumps(export_data(Tournament.objects.get(pk=t.pk)), default=str))


def workbook_text(t):
    wb = homologation_workbook(Tournament.objects.get(pk=t.pk))
    return "\n".join(str(v) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for v in row if v)


def imported(data, slug):
    """The file imported under another address."""
    data = json.loads(json.dumps(data))
    data["tournament"]["slug"] = slug
    return import_data(data)


def player_key(entry):
    return {"cbjd_id": entry.player.cbjd_id or None, "name": entry.player.name}


# ------------------------------------------------------------------------------------------------- the shell


def test_every_change_is_refused_without_a_reason_in_the_shell(build):
    """A model's save and delete, a queryset's update and delete, the many-to-many's add, remove, clear and set
    from either side: each refused with LockedFact once round 1 is published; nothing is written."""
    t = build(rounds=1)
    fem = Category.objects.get(tournament=t, code="FEM")
    absolute = Category.objects.get(tournament=t, code="ABS")
    man, woman = (Entry.objects.get(tournament=t, player__name=n) for n in ("P01", "P03"))
    attempts = [
        lambda: Category.objects.create(tournament=t, code="ELI", name="Elite"),
        lambda: Category.objects.filter(pk=fem.pk).update(min_age=18),
        lambda: Category.objects.filter(pk=fem.pk).update(code="F"),
        lambda: Category.objects.filter(tournament=t).delete(),
        lambda: fem.delete(),
        lambda: woman.categories.remove(fem),
        lambda: woman.categories.clear(),
        lambda: woman.categories.set([absolute]),
        lambda: fem.entries.remove(woman),
        lambda: fem.entries.clear(),
        lambda: absolute.entries.remove(man),
        lambda: Entry.objects.filter(pk=man.pk).update(rating=2400),
        lambda: Entry.objects.bulk_update([Entry(pk=man.pk, rating=2400)], ["rating"]),
    ]
    for attempt in attempts:
        with pytest.raises(LockedFact), transaction.atomic():  # a refusal rolls its block back
            attempt()
    for field, value in (("code", "F"), ("sex", ""), ("min_age", 10), ("max_age", 90)):
        category = Category.objects.get(pk=fem.pk)
        setattr(category, field, value)
        with pytest.raises(LockedFact), transaction.atomic():
            category.save()
    man.rating = 2400
    with pytest.raises(LockedFact), transaction.atomic():
        man.save()
    with pytest.raises(LockedFact), facts_changed("   "):  # a reason is a reason: not blank
        pass
    assert Category.objects.filter(tournament=t).count() == 2
    assert sorted(woman.categories.values_list("code", flat=True)) == ["ABS", "FEM"]
    assert Entry.objects.get(pk=man.pk).rating == 2290
    assert changes(t) == []
    # the name is shown only: it changes freely, and is no recorded change
    Category.objects.filter(pk=fem.pk).update(name="Feminino adulto")
    fem.refresh_from_db()
    fem.name = "Feminino"
    fem.save()
    assert changes(t) == []


def test_in_the_shell_with_a_reason_each_change_is_recorded(build):
    """Inside ``facts_changed`` the same changes go through, each recorded once (its value before the first change
    of the block and after the last); an entry's categories set in two steps are one change."""
    t = build(rounds=1)
    fem = Category.objects.get(tournament=t, code="FEM")
    absolute = Category.objects.get(tournament=t, code="ABS")
    woman = Entry.objects.get(tournament=t, player__name="P03")
    with facts_changed("Correção pedida pelo árbitro", by="arbitro"):
        Category.objects.filter(pk=fem.pk).update(min_age=18)
        woman.categories.set([fem])  # remove ABS
        Entry.objects.filter(pk=woman.pk).update(rating=2000)
        Entry.objects.filter(pk=woman.pk).update(rating=2100)
    fem_before = {"code": "FEM", "name": "Feminino", "sex": "F", "min_age": None, "max_age": None}
    player = player_key(woman)
    assert changes(t) == [
        ("category", fem_before, {**fem_before, "min_age": 18}, "arbitro", "Correção pedida pelo árbitro"),
        (
            "entry_categories",
            {"player": player, "categories": ["ABS", "FEM"]},
            {"player": player, "categories": ["FEM"]},
            "arbitro",
            "Correção pedida pelo árbitro",
        ),
        (
            "entry_rating",
            {"player": player, "rating": 2270},
            {"player": player, "rating": 2100},
            "arbitro",
            "Correção pedida pelo árbitro",
        ),
    ]
    assert absolute.entries.filter(pk=woman.pk).exists() is False
    with facts_changed("Categoria criada em duplicidade", by="arbitro"):
        Category.objects.filter(pk=fem.pk).delete()
    assert changes(t)[-1] == (
        "category",
        {**fem_before, "min_age": 18},
        None,
        "arbitro",
        "Categoria criada em duplicidade",
    )


def test_a_late_entry_takes_its_categories_without_a_reason(build, make_player, director):
    """Entering after round 1 puts the player in the categories the rules give, with no reason (the entry is new,
    its first categories no change)."""
    t = build(rounds=1)
    late = make_player(name="Tardia", sex="F", rating=2100, birth_date=date(1990, 1, 1))
    entry = entry_register(tournament=Tournament.objects.get(pk=t.pk), player=late, user=director)
    assert sorted(entry.categories.values_list("code", flat=True)) == ["ABS", "FEM"]
    assert changes(t) == []


def test_the_admin_shows_them_read_only_to_the_federations_staff(admin_client, build):
    """The Django admin (the federation's staff alone): after round 1 an entry's rating and categories and a
    category's code, sex and ages are read only, a category cannot be deleted nor added in the tournament's
    inline; what stays free (the category's name, the venue) is saved."""
    t = build(rounds=1)
    entry = Entry.objects.get(tournament=t, player__name="P03")
    fem = Category.objects.get(tournament=t, code="FEM")
    assert admin_change(admin_client, entry, rating=2400, declared_adult="on").status_code == 302
    assert (Entry.objects.get(pk=entry.pk).rating, Entry.objects.get(pk=entry.pk).declared_adult) == (2270, True)
    assert sorted(entry.categories.values_list("code", flat=True)) == ["ABS", "FEM"]
    assert admin_change(admin_client, fem, min_age=18, name="Feminino adulto").status_code == 302
    fem.refresh_from_db()
    assert (fem.min_age, fem.name) == (None, "Feminino adulto")
    delete = reverse("admin:tournaments_category_delete", args=[fem.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    assert admin_change(admin_client, t, venue="Clube Recife").status_code == 302
    assert Tournament.objects.get(pk=t.pk).venue == "Clube Recife"
    assert Category.objects.filter(tournament=t).count() == 2
    assert changes(t) == []


def test_round_1_undone_keeps_the_categories_locked_and_paired_again_keeps_the_ratings(
    make_tournament, make_player, director
):
    """Round 1 published once locks for good: undone (with its reason), a category is still refused without a
    reason, and round 1 paired again keeps the ratings it was first paired with, not the registry's new ones."""
    t = make_tournament(categories=[{"code": "ABS", "name": "Absoluto"}])
    people = [make_player(name=f"J{i}", rating=2000 + i) for i in range(6)]
    for player in people:
        entry_register(tournament=t, player=player, user=director)
    rnd = round_pair(tournament=t, user=director, publish=True)
    round_undo(round=rnd, user=director, reason="Emparceiramento com jogador ausente")
    assert Tournament.objects.filter(pk=t.pk, rounds__isnull=True).exists()
    with pytest.raises(LockedFact), transaction.atomic():
        Category.objects.create(tournament=t, code="FEM", name="Feminino", sex="F")
    Player.objects.filter(pk=people[0].pk).update(rating=2500)
    round_pair(tournament=Tournament.objects.get(pk=t.pk), user=director, publish=True)
    assert Entry.objects.get(tournament=t, player=people[0]).rating == 2000
    assert [c[0] for c in changes(t)] == ["round_1"]


def test_a_rating_correction_is_refused_before_round_1_without_a_reason_or_out_of_range(
    build, make_tournament, make_player, director
):
    """``entry_rating_change``: nothing to correct before round 1 (the registry's rating is taken then); after it,
    a reason on one line and a rating in the list's range; the same rating changes nothing."""
    early = make_tournament(slug="antes")
    entry = entry_register(tournament=early, player=make_player(rating=1800), user=director)
    with pytest.raises(ServiceError, match="ainda não foi publicada"):
        entry_rating_change(entry=entry, user=director, rating=1900, reason="erro")
    t = build(rounds=1)
    entry = Entry.objects.get(tournament=t, player__name="P01")
    refusals = [
        (2300, "", "só mudam com um motivo"),
        (2300, "erro\x07", "caracteres de controle"),
        (5000, "erro", "entre 100 e 3000"),
    ]
    for rating, reason, said in refusals:
        with pytest.raises(ServiceError, match=said):
            entry_rating_change(entry=entry, user=director, rating=rating, reason=reason)
    entry_rating_change(entry=entry, user=director, rating=2290, reason="o mesmo")
    with pytest.raises(ServiceError, match="caracteres de controle"):
        category_delete(category=Category.objects.get(tournament=t, code="FEM"), user=director, reason="x\x07")
    assert changes(t) == [] and Entry.objects.get(pk=entry.pk).rating == 2290


# ------------------------------------------------------------------------------------------------- the pages


def post(client, url, data):
    return client.post(url, data, follow=True).content.decode()


LOCKED = "só mudam com um motivo"


def test_the_pages_refuse_without_a_reason_and_record_each_change_with_one(client, build, director, tmp_path):
    """The categories page, a category's page and the entry page: refused without a reason (nothing written),
    saved with one; each change then listed on the homologation page, in the workbook, in the exported file, read
    back by its import, and named by the federation's verification."""
    t = build()
    client.force_login(director)
    categories = reverse("staff:categories", args=[t.slug])
    fem = Category.objects.get(tournament=t, code="FEM")
    category = reverse("staff:category", args=[t.slug, fem.pk])
    woman = Entry.objects.get(tournament=t, player__name="P03")
    entry = reverse("staff:entry", args=[t.slug, woman.pk])
    absolute = Category.objects.get(tournament=t, code="ABS")
    new = {"code": "ELI", "name": "Elite", "sex": "", "min_age": 30, "max_age": ""}
    assert LOCKED in post(client, categories, new)
    assert LOCKED in post(
        client, category, {"action": "update", "code": "FEM", "name": "Feminino", "sex": "F", "min_age": 18}
    )
    assert LOCKED in post(client, category, {"action": "delete"})
    assert LOCKED in post(client, entry, {"action": "update", "categories": [absolute.pk]})
    assert "Motivo da correção" in post(client, entry, {"action": "rating", "rating": 2400})
    assert changes(t) == [] and Category.objects.filter(tournament=t).count() == 2
    assert sorted(woman.categories.values_list("code", flat=True)) == ["ABS", "FEM"]

    post(client, categories, {**new, "change_reason": "Categoria pedida pela federação"})
    eli = Category.objects.get(tournament=t, code="ELI")
    kept = {"action": "update", "categories": [absolute.pk, eli.pk], "change_reason": "Inscrita por engano"}
    post(client, entry, kept)
    post(client, entry, {"action": "rating", "rating": 2300, "change_reason": "Rating digitado errado"})
    post(
        client,
        reverse("staff:category", args=[t.slug, eli.pk]),
        {"action": "delete", "change_reason": "Criada por engano"},
    )
    assert [c[0] for c in changes(t)] == ["category", "entry_categories", "entry_rating", "category"]
    assert Entry.objects.get(pk=woman.pk).rating == 2300
    player = player_key(woman)
    assert changes(t)[1][1:3] == (
        {"player": player, "categories": ["ABS", "ELI", "FEM"]},
        {"player": player, "categories": ["ABS", "ELI"]},
    )

    words = [
        "categoria ELI “Elite” (30 anos ou mais) criada, em ",
        "categorias de P03 (ID CBJD ",
        ": ABS, ELI, FEM → ABS, ELI, em ",
        "rating de P03 (ID CBJD ",
        ": 2270 → 2300 (as vagas e os desempates contam o rating da 1ª rodada), em ",
        "categoria ELI “Elite” (30 anos ou mais) excluída, em ",
        "por diretor; motivo: Criada por engano",
    ]
    page = client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    report = "\n".join(lines(t))
    workbook = workbook_text(t)
    for w in words:
        assert w in report and w in workbook
        assert w.replace("“", "&ldquo;").replace("”", "&rdquo;") in page or w in page
    # the spots: the woman's rating as played (2270), her categories as corrected
    assert verdict(t) == (
        "sim",
        set(),
        {"ABS": 3, "FEM": 3},
        ["category", "entry_categories", "entry_rating", "category"],
    )
    assert "P03" not in qualified(t, "FEM")

    data = file_of(t)
    assert [c["field"] for c in data["settings_changes"]] == [
        "category",
        "entry_categories",
        "entry_rating",
        "category",
    ]
    assert next(p for p in data["players"] if p["name"] == "P03")["rating"] == 2300  # the rating as it is now
    again = imported(data, "de-volta")
    assert lines(again) == lines(t)
    assert (
        spots(again) == spots(t) == {"ABS": (3, Decimal("2155")), "FEM": (3, Decimal("2153.333333333333333333333333"))}
    )
    assert Entry.objects.get(tournament=again, player__name="P03").rating == 2300

    found = verify(data, registry_of(data, **{woman.player.cbjd_id: 2270}))
    messages = [f.message for f in found.findings if f.code == "settings_changed"]
    assert [f.blocking for f in found.findings if f.code == "settings_changed"] == [False] * 4
    assert messages[0].startswith("Após a 1ª rodada, categoria ELI “Elite” (30 anos ou mais) criada, por diretor em ")
    assert messages[0].endswith("(motivo: Categoria pedida pela federação).")
    assert messages[2].startswith("Após a 1ª rodada, rating de P03 (ID CBJD ") and "2270 → 2300" in messages[2]
    assert "categorias de P03" in messages[1] and "ABS, ELI, FEM → ABS, ELI" in messages[1]


def test_a_rating_raised_with_a_reason_leaves_the_spots_as_played(build, director):
    """Issue 35 attempt 15 with a reason: the rating is corrected and listed, the spots still read the rating of
    round 1 (the absolute's average 2145: 2 spots; raised, 2155 would give 3), at the venue, in the imported file
    and at the federation."""
    t = build(base=2290)
    entry = Entry.objects.get(tournament=t, player__name="P29")
    entry_rating_change(entry=entry, user=director, rating=2300, reason="Lista corrigida depois do evento")
    assert Entry.objects.get(pk=entry.pk).rating == 2300
    assert verdict(t) == ("sim", set(), {"ABS": 2, "FEM": 3}, ["entry_rating"])
    data = file_of(t)
    assert spots(imported(data, "copia")) == spots(t)
    assert spots(t)["ABS"] == (2, Decimal("2145"))
    found = verify(data, registry_of(data))  # a list that says 2300 too: the federation reads the list
    assert {c["code"]: c["spots"] for c in found.categories}["ABS"] == 3
    found = verify(data, registry_of(data, **{entry.player.cbjd_id: 2000}))
    assert {c["code"]: c["spots"] for c in found.categories}["ABS"] == 2
    assert ("settings_changed", False) in [(f.code, f.blocking) for f in found.findings]


def test_a_category_created_after_round_1_with_a_reason_earns_no_spot(client, build, director):
    """Issue 35: "A category created after the event got 2 spots." With a reason it is created and listed, and its
    line says why it has no spot; the federation says the same from the file."""
    t = build()
    client.force_login(director)
    post(
        client,
        reverse("staff:categories", args=[t.slug]),
        {"code": "ELI", "name": "Elite", "sex": "", "min_age": 30, "max_age": "", "change_reason": "Pedido do clube"},
    )
    assert verdict(t) == ("sim", set(), {"ABS": 3, "FEM": 3, "ELI": 0}, ["category"])
    report = homologation_check(Tournament.objects.get(pk=t.pk))
    eli = next(c for c in report.categories if c.code == "ELI")
    assert eli.note.endswith("Categoria criada depois da 1ª rodada: não tem vaga (pela média seriam 3).")
    assert (
        "Categoria criada depois da 1ª rodada"
        in client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    )
    data = file_of(t)
    found = verify(data, registry_of(data))
    assert {c["code"]: c["spots"] for c in found.categories} == {"ABS": 3, "FEM": 3, "ELI": 0}


# ----------------------------------------------------------------------------------------------- imported events


def test_the_categories_an_imported_event_defines_after_the_import_are_listed(client, director):
    """An imported event keeps its categories open (a TRF has none): each defined at the venue after the import is
    recorded without a reason, listed in the report in one line, carried by the file, and the federation gets a
    finding that does not take the rights away."""
    data = event(30, slug="importada")
    data["categories"] = []
    for p in data["players"]:
        p["categories"] = []
    t = import_data(data)
    send_on_time(t)
    client.force_login(director)
    from tournaments.models import TournamentRole

    TournamentRole.objects.update_or_create(tournament=t, user=director, defaults={"role": "director"})
    for code in ("ABS", "FEM"):
        client.post(reverse("staff:categories", args=[t.slug]), {"action": "preset", "code": code}, follow=True)
    assert sorted(Category.objects.filter(tournament=t).values_list("code", flat=True)) == ["ABS", "FEM"]
    assert [c[0] for c in changes(t)] == ["category_after_import", "category_after_import"]
    [line] = lines(t)
    assert line.startswith("categorias definidas depois da importação: ABS (") and ", FEM (" in line
    assert line.endswith("; são do local, não do arquivo importado")
    assert line in client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    out = file_of(t)
    found = verify(out, registry_of(out))
    [finding] = [f for f in found.findings if f.code == "categories_after_import"]
    assert finding.blocking is False
    assert finding.message.startswith("Evento importado: as categorias ABS, FEM foram definidas no local")
    assert lines(imported(out, "importada-de-novo")) == [line]


def test_a_file_whose_change_has_the_wrong_shape_is_refused(build, tmp_path):
    """The import checks each change's shape: an entry's rating change without its player is refused, by name."""
    t = build(rounds=1)
    data = file_of(t)
    data["settings_changes"] = [
        {
            "field": "entry_rating",
            "before": 1800,
            "after": 1900,
            "at": "2026-11-09T10:00:00-03:00",
            "by": "x",
            "reason": "y",
        }
    ]
    with pytest.raises(InterchangeError) as caught:
        imported(data, "errado")
    assert "“before” e “after” de “entry_rating”: um objeto com player" in str(caught.value)
    path = tmp_path / "etapa.json"
    data["settings_changes"][0]["before"] = {"player": {"cbjd_id": None, "name": "P01"}, "rating": 1800}
    data["settings_changes"][0]["after"] = {"player": {"cbjd_id": None, "name": "P01"}, "rating": 1900}
    data["tournament"]["slug"] = "certo"
    path.write_text(json.dumps(data))
    call_command("import_tournament", str(path), stdout=io.StringIO())
    assert [c[0] for c in changes(Tournament.objects.get(slug="certo"))] == ["entry_rating"]
