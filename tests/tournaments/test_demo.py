"""The demo tournament (issue 37.7, 37.12): loaded by `make run` into an empty database only, once; a deleted demo
stays deleted; `manage.py demo --remove` takes it away; dated from the day it is loaded."""

import io
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from tournaments.homologation.report import homologation_check
from tournaments.models import Entry, Player, RatingList, Tournament
from tournaments.setup.demo import DEMO_SLUG, demo_ids, load_demo

pytestmark = pytest.mark.django_db


def demo(*args):
    out = io.StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def make_run():
    """The two steps of `make run` that touch the demo and the login."""
    demo("--first-run")
    call_command("demo_login", stdout=io.StringIO())


def test_make_run_loads_the_demo_once_and_a_deleted_demo_stays_deleted():
    make_run()
    assert list(Tournament.objects.values_list("slug", flat=True)) == [DEMO_SLUG]
    assert "apagado" in demo("--remove")
    assert not Tournament.objects.exists()
    make_run()
    assert not Tournament.objects.exists()  # not recreated at the next start
    assert "criado" in demo()  # asked for on purpose (`make run DEMO=1`)
    assert Tournament.objects.filter(slug=DEMO_SLUG).exists()


def test_a_venue_already_in_use_never_gets_the_demo(make_tournament):
    make_tournament(slug="etapa-real")
    demo("--first-run")
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["etapa-real"]


def test_remove_takes_the_demo_and_its_made_up_players_but_keeps_what_a_real_event_uses(make_tournament, director):
    load_demo()
    real = make_tournament(slug="etapa-real")
    kept = Player.objects.get(cbjd_id=demo_ids()[0])
    Entry.objects.create(tournament=real, player=kept)
    assert "apagado" in demo("--remove")
    assert list(Tournament.objects.values_list("slug", flat=True)) == ["etapa-real"]
    assert list(Player.objects.filter(cbjd_id__in=demo_ids())) == [kept]
    assert not RatingList.objects.exists()
    assert get_user_model().objects.filter(username="diretor").exists()  # the login stays
    assert "Não há torneio de demonstração" in demo("--remove")


def test_the_demo_is_dated_from_the_day_it_is_loaded():
    today = timezone.localdate()
    t, _created = load_demo()
    assert (t.start_date, t.end_date) == (today, today + timedelta(days=1))
    rating_list = RatingList.objects.get()
    assert rating_list.list_date == today - timedelta(days=7)
    report = homologation_check(t)
    assert not report.deadline_late  # the event is under way today: no sending is late
    assert "atraso" not in str(report.deadline_detail)


def test_the_demo_of_another_year_has_the_same_players_and_ages():
    def ages(t):
        return sorted(
            (e.player.cbjd_id, (t.start_date - e.player.birth_date).days // 365)
            for e in t.entries.select_related("player")
        )

    t, _ = load_demo(today=date(2026, 11, 7))
    before = ages(t), [c.entries.count() for c in t.categories.order_by("code")]
    demo("--remove")
    t, _ = load_demo(today=date(2031, 11, 7))
    after = ages(t), [c.entries.count() for c in t.categories.order_by("code")]
    assert t.start_date == date(2031, 11, 7)
    assert [a for _id, a in after[0]] == pytest.approx([a for _id, a in before[0]], abs=1)
    assert after[1] == before[1]  # the Sub-18 keeps its players


def test_make_runs_setup_is_one_command_with_the_same_steps():
    """`make run` prepares the venue with venue_setup (one start of Django): migrate, the demo at the first run
    only, the director's login made once."""
    out = io.StringIO()
    call_command("venue_setup", "--demo", "auto", "--url", "http://127.0.0.1:8123/", stdout=out)
    first = out.getvalue()
    assert "Torneio de demonstração criado" in first and "Senha:" in first and "não aparece de novo" in first
    assert "Endereço:  http://127.0.0.1:8123/" in first
    demo("--remove")
    out = io.StringIO()
    call_command("venue_setup", "--url", "http://127.0.0.1:8123/", stdout=out)
    assert not Tournament.objects.exists() and "a definida no primeiro uso" in out.getvalue()
    call_command("venue_setup", "--demo", "1", stdout=io.StringIO())  # make run DEMO=1
    assert Tournament.objects.filter(slug=DEMO_SLUG).exists()


def test_make_run_demo_0_never_loads_it_even_into_an_empty_database():
    call_command("venue_setup", "--demo", "0", stdout=io.StringIO())
    assert not Tournament.objects.exists() and get_user_model().objects.filter(username="diretor").exists()
