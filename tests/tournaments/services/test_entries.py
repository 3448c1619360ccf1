"""Registration: suspensions refused, rating snapshots, late entries, withdrawals and abandonment, absences."""

from datetime import date

import pytest
from django.utils import translation

from tournaments.core.errors import ServiceError
from tournaments.entries.services import (
    absence_announce,
    add_months,
    entry_register,
    entry_withdraw,
    suspension_lift,
)
from tournaments.models import AuditEntry, Entry, Suspension
from tournaments.rounds.services import round_pair

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def portuguese():
    with translation.override("pt-br"):
        yield


def test_suspended_player_refused_with_end_date(make_tournament, make_player, director):
    t = make_tournament(start_date=date(2026, 11, 8), end_date=date(2026, 11, 9))
    p = make_player(name="Carlos Lima")
    Suspension.objects.create(
        player=p,
        start_date=date(2026, 9, 1),
        end_date=date(2026, 11, 8),
        source="tribunal",
        reason="conduta antidesportiva",
    )
    with pytest.raises(ServiceError) as exc:
        entry_register(tournament=t, player=p, user=director)
    text = exc.value.messages[0]
    assert "Carlos Lima" in text and "08/11/2026" in text and "conduta antidesportiva" in text
    assert not Entry.objects.filter(player=p).exists()


def test_suspension_ending_before_the_tournament_does_not_block(make_tournament, make_player, director):
    t = make_tournament(start_date=date(2026, 11, 8), end_date=date(2026, 11, 9))
    p = make_player()
    Suspension.objects.create(player=p, start_date=date(2026, 9, 1), end_date=date(2026, 11, 7), source="tribunal")
    assert entry_register(tournament=t, player=p, user=director).pk


def test_lifted_suspension_does_not_block(make_tournament, make_player, director):
    t = make_tournament()
    p = make_player()
    s = Suspension.objects.create(player=p, start_date=t.start_date, end_date=t.end_date, source="abandonment")
    with pytest.raises(ServiceError):
        entry_register(tournament=t, player=p, user=director)
    suspension_lift(suspension=s, user=director, reason="recurso aceito")
    assert entry_register(tournament=t, player=p, user=director).pk


def test_rating_is_a_snapshot(make_tournament, make_player, director):
    t = make_tournament()
    p = make_player(rating=1800)
    e = entry_register(tournament=t, player=p, user=director)
    p.rating = 2000
    p.save()
    e.refresh_from_db()
    assert e.rating == 1800


def test_entered_twice_refused(make_tournament, make_player, director):
    t = make_tournament()
    p = make_player()
    entry_register(tournament=t, player=p, user=director)
    with pytest.raises(ServiceError):
        entry_register(tournament=t, player=p, user=director)


def test_categories_assigned_by_sex_and_age(make_tournament, make_player, director):
    t = make_tournament(
        start_date=date(2026, 11, 8),
        end_date=date(2026, 11, 8),
        categories=[
            {"code": "ABS", "name": "Absoluto"},
            {"code": "FEM", "name": "Feminino", "sex": "F"},
            {"code": "S18", "name": "Sub-18", "max_age": 17},
        ],
    )
    girl = make_player(sex="F", birth_date=date(2009, 12, 31))  # 17 on 31/12/2026
    adult = make_player(sex="M", birth_date=date(2008, 1, 1))  # 18 on 31/12/2026
    assert {c.code for c in entry_register(tournament=t, player=girl, user=director).categories.all()} == {
        "ABS",
        "FEM",
        "S18",
    }
    assert {c.code for c in entry_register(tournament=t, player=adult, user=director).categories.all()} == {"ABS"}


def _tournament_with(make_tournament, make_player, director, n=6, **kw):
    t = make_tournament(**kw)
    entries = [entry_register(tournament=t, player=make_player(rating=2000 - i * 10), user=director) for i in range(n)]
    return t, entries


def test_late_entry_gets_next_round_and_next_number(make_tournament, make_player, director):
    t, entries = _tournament_with(make_tournament, make_player, director)
    round_pair(tournament=t, user=director, publish=True)
    late = entry_register(tournament=t, player=make_player(rating=2500), user=director)
    assert late.late_entry_round == 2
    assert late.pairing_number == 7


def test_abandonment_suspends_for_three_months_at_once(make_tournament, make_player, director):
    t, entries = _tournament_with(make_tournament, make_player, director, end_date=date(2026, 11, 30))
    suspension = entry_withdraw(entry=entries[0], from_round=2, kind="abandonment", user=director)
    assert (suspension.start_date, suspension.end_date, suspension.active) == (
        date(2026, 11, 30),
        date(2027, 2, 28),
        True,
    )
    entries[0].refresh_from_db()
    assert (entries[0].status, entries[0].withdrawn_from_round) == ("withdrawn", 2)
    # In force at once: it refuses the player in a tournament on those dates.
    other = make_tournament(start_date=date(2027, 1, 10), end_date=date(2027, 1, 11))
    with pytest.raises(ServiceError):
        entry_register(tournament=other, player=entries[0].player, user=director)


@pytest.mark.parametrize(
    ("day", "later"),
    [
        (date(2026, 10, 15), date(2027, 1, 15)),  # across the year's end
        (date(2026, 12, 31), date(2027, 3, 31)),
        (date(2026, 11, 30), date(2027, 2, 28)),  # no 30 February: the month's last day
        (date(2027, 11, 30), date(2028, 2, 29)),  # a leap year
    ],
)
def test_three_months_later_ends_on_the_same_day_or_the_months_last(day, later):
    assert add_months(day, 3) == later


def test_plain_withdrawal_proposes_nothing(make_tournament, make_player, director):
    t, entries = _tournament_with(make_tournament, make_player, director)
    assert entry_withdraw(entry=entries[1], from_round=1, kind="approved", user=director) is None
    assert AuditEntry.objects.filter(action="entry.withdraw").count() == 1


def test_withdrawal_from_a_paired_round_refused(make_tournament, make_player, director):
    t, entries = _tournament_with(make_tournament, make_player, director)
    round_pair(tournament=t, user=director)
    with pytest.raises(ServiceError):
        entry_withdraw(entry=entries[0], from_round=1, kind="approved", user=director)


def test_absence_only_before_pairing(make_tournament, make_player, director):
    t, entries = _tournament_with(make_tournament, make_player, director)
    absence_announce(entry=entries[2], round_number=2, user=director)
    with pytest.raises(ServiceError):
        absence_announce(entry=entries[2], round_number=2, user=director)
    round_pair(tournament=t, user=director)
    with pytest.raises(ServiceError) as exc:
        absence_announce(entry=entries[3], round_number=1, user=director)
    assert "1" in exc.value.messages[0]
