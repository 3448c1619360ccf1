"""Issue 29 end to end, for real: a venue and a federation, two gunicorn servers on 127.0.0.1, each with its own
database and its own background worker (manage.py db_worker), talking HTTP.

venue offline -> queued (pendente) -> the federation comes up (the venue downloads its national list) -> sent by
the venue's worker -> received (the
federation's clock) -> verified by the federation's worker against its own registry -> approved by an officer on
the review page -> the venue sees "homologado" on its next sync -> the public season page lists the stage and its
qualifiers.
"""

import json
import re
import shutil
import time
from datetime import date, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest

from testkit import server as S

STAGE = Path(__file__).resolve().parents[1] / "data" / "federation" / "etapa-caruaru.json"
SLUG = "etapa-caruaru-2026"
# the ports of this helper's range (issue 29): the federation, then the venue
FEDERATION_PORT, VENUE_PORT = 18161, 18162


def site_on(port, folder, **env):
    site = S.Site(S.Database.sqlite(folder), folder, workers=1, extra_env=env)
    site.port = port
    site.env["GUNICORN_BIND"] = f"127.0.0.1:{port}"
    return site


def until(check, what, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.5)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def running():
    """What the test starts (sites, workers), stopped and dropped at the end whatever happens."""
    started = {"sites": [], "workers": [], "folders": [S.temp_folder(), S.temp_folder()]}
    yield started
    for w in started["workers"]:
        w.stop()
    for site in started["sites"]:
        site.stop()
        site.db.drop()
    for f in started["folders"]:
        shutil.rmtree(f, ignore_errors=True)


def write_inputs(folders, day):
    """The stage played on ``day`` (the venue's file) and the national list of its players (the federation's)."""
    data = json.loads(STAGE.read_text(encoding="utf-8"))
    data["tournament"]["start_date"] = data["tournament"]["end_date"] = day.isoformat()
    stage_file = Path(folders[1]) / "etapa.json"
    stage_file.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    rating_list = Path(folders[0]) / "lista.csv"
    rating_list.write_text(
        "ID CBJD;Nome;Rating;Nascimento;Sexo;UF;Clube\n"
        + "".join(
            f"{p['cbjd_id']};{p['name']};{p['rating'] or ''};{date.fromisoformat(p['birth_date']):%d/%m/%Y};"
            f"{p['sex']};PE;Clube de Damas de Caruaru\n"
            for p in data["players"]
        ),
        encoding="utf-8",
    )
    return stage_file, rating_list


OFFICER_PASSWORD = "senha-do-oficial-de-teste"


def federation_issues_a_credential(federation, rating_list):
    """The federation, with its national list, issues a credential on its staff page; returns (officer, key)."""
    federation.prepare()
    federation.manage(
        "shell",
        "-c",
        "from datetime import date; from tournaments.entries.services import rating_list_import; "
        f"rating_list_import(data=open({str(rating_list)!r}, 'rb').read(), filename='rating-cbjd-2026-10.csv', "
        "user=None, list_date=date(2026, 10, 1))",
    )
    # the federation's officer: a login in the group Federação (the demo's director is no administrator since
    # issue 37.2; docs/federation.md says how the first officer is created)
    federation.manage(
        "shell",
        "-c",
        "from django.contrib.auth import get_user_model; from tournaments.registry.services import federation_group; "
        f"u = get_user_model().objects.create_user('oficial', password={OFFICER_PASSWORD!r}); "
        "u.groups.add(federation_group())",
    )
    federation.start()
    officer = S.Browser(federation.port)
    officer.login("oficial", OFFICER_PASSWORD)
    page = officer.get("/gestao/federacao/credenciais/").text
    issued = officer.post(
        "/gestao/federacao/credenciais/",
        {"csrfmiddlewaretoken": officer.csrf(page), "label": "Federação Pernambucana", "event_slug": ""},
    ).text
    return officer, re.search(r'<code class="token" id="token">(dsw_[^<]+)</code>', issued).group(1)


def venue_submits_offline(venue, stage_file, running):
    """The venue imports the stage and sends it while the federation is down: queued, pendente."""
    venue.prepare()
    # the venue's director login directs the imported stage (no administrator sees every event since issue 37.2)
    venue.manage("import_tournament", str(stage_file), "--director", S.DEMO_USERNAME)
    out = venue.manage("submit_event", SLUG)
    assert out.startswith(f"{SLUG}: na fila; situação: pendente (1 tentativa; sem conexão com a federação")
    venue.start()
    running["workers"].append(S.Worker(venue))
    director = S.Browser(venue.port)
    director.login()
    assert "pendente" in director.get(f"/gestao/t/{SLUG}/federacao/").text
    return director


def venue_downloads_the_national_list(federation, venue):
    (players,) = federation.db.query("SELECT count(*) FROM tournaments_player WHERE cbjd_id IS NOT NULL")[0]
    (name, day) = federation.db.query(
        "SELECT filename, list_date FROM tournaments_ratinglist ORDER BY list_date DESC, id DESC"
    )[0]
    expected = f"lista {name} de {date.fromisoformat(str(day)):%d/%m/%Y}: {players} jogadores, 0 suspensões em vigor\n"
    assert venue.manage("sync_registry") == expected


def received_and_verified(director, officer):
    """The venue sees the federation's receipt; the federation's queue shows it verified. Returns the review link."""
    received = until(
        lambda: "recebido pela federação em" in (t := director.get(f"/gestao/t/{SLUG}/federacao/").text) and t,
        "the venue to see the federation's receipt",
    )
    assert "pendente" not in re.search(r'<table class="table" id="outgoing">.*?</table>', received, re.S).group(0)
    # registered at sending time (issue 35.2): the stage says it was registered late, and waits for the calendar
    queue = until(
        lambda: "verificado com 2 apontamentos" in (t := officer.get("/gestao/federacao/envios/").text) and t,
        "the federation's verification",
    )
    return re.search(
        r'href="(/gestao/federacao/envios/\d+/)">Circuito Nacional de Damas - Etapa Caruaru<', queue
    ).group(1)


def officer_accepts_the_stage(officer, director):
    """The venue was bound to the stage it asked for at sending time; the officer sees it registered late in the
    calendar and accepts it."""
    venue_page = director.get(f"/gestao/t/{SLUG}/federacao/").text
    identifier = re.search(r'<strong class="stage-id">(CBJD-\d{4}-\d{3})</strong>', venue_page).group(1)
    assert "registrada tarde" in venue_page
    calendar = officer.get("/gestao/federacao/calendario/").text
    row = re.search(rf'<tr id="stage-{identifier}">.*?</tr>', calendar, re.S).group(0)
    assert "registrada tarde" in row and "Federação Pernambucana" in row
    pk = re.search(r'name="stage" value="(\d+)"', row).group(1)
    officer.post(
        "/gestao/federacao/calendario/",
        {"csrfmiddlewaretoken": officer.csrf(calendar), "stage": pk, "decision": "accept"},
    )
    assert "aceita no calendário" in officer.get("/gestao/federacao/calendario/").text
    return identifier


def officer_approves(officer, link, identifier):
    review = officer.get(link).text
    assert "Direito a vagas: sim" in review and identifier in review
    assert "registrada tarde" in review
    officer.post(link, {"csrfmiddlewaretoken": officer.csrf(review), "decision": "approve", "reason": ""})
    assert "homologado em" in officer.get("/gestao/federacao/envios/").text


def venue_sees_the_decision(director):
    """The venue asks again (its worker does the asking) and sees the decision."""
    page = director.get(f"/gestao/t/{SLUG}/federacao/").text
    asked = director.post(
        f"/gestao/t/{SLUG}/federacao/", {"csrfmiddlewaretoken": director.csrf(page), "action": "sync"}
    )
    assert asked.status == 302  # asked (a refused post would leave the wait below to time out unexplained)
    until(lambda: "homologado em" in director.get(f"/gestao/t/{SLUG}/federacao/").text, "the venue to see it")


def season_page_lists_the_stage(federation, year):
    season = S.request(federation.port, "GET", f"/circuito/{year}/").text
    assert "Circuito Nacional de Damas - Etapa Caruaru" in season
    assert "Campeonato Brasileiro · Absoluto" in season and "Campeonato Brasileiro · Sub-18" in season
    # the stage's winner (the verification's own standings) is among the qualifiers
    rows = federation.db.query("SELECT qualification FROM tournaments_submission WHERE status = 'approved'")
    qualification = json.loads(rows[0][0])
    assert qualification[0]["qualified"] and qualification[0]["qualified"][0]["name"] in season
    # art. 10: the abandonment of this stage is in force everywhere
    assert "Abandono da etapa Circuito Nacional de Damas - Etapa Caruaru (art. 10)" in season


def test_venue_offline_to_season_page(running):
    yesterday = date.today() - timedelta(days=1)
    stage_file, rating_list = write_inputs(running["folders"], yesterday)
    federation = site_on(FEDERATION_PORT, running["folders"][0], DAMAS_ROLE="federation")
    running["sites"].append(federation)
    officer, token = federation_issues_a_credential(federation, rating_list)
    federation.stop()  # the federation is down: the venue is offline
    venue = site_on(
        VENUE_PORT,
        running["folders"][1],
        FEDERATION_URL=federation.base,
        FEDERATION_TOKEN=token,
        FEDERATION_FIRST_WAIT="1",
    )
    running["sites"].append(venue)
    director = venue_submits_offline(venue, stage_file, running)
    # the link returns: the venue's worker sends it on its next try; the federation's worker verifies it
    federation.start()
    running["workers"].append(S.Worker(federation))
    venue_downloads_the_national_list(federation, venue)
    link = received_and_verified(director, officer)
    officer_approves(officer, link, officer_accepts_the_stage(officer, director))
    venue_sees_the_decision(director)
    season_page_lists_the_stage(federation, yesterday.year)
    director_asks_for_a_stage_before_it_starts(director, officer, first_year=yesterday.year)
    running_event_sends_its_fingerprints(director, venue, federation)


class FormFields(HTMLParser):
    """What a browser sends from a page's form ``class="...marker..."`` left as it is: each field's value, the
    checked boxes and radios, each select's selected option (else its first)."""

    def __init__(self, marker):
        super().__init__()
        self.marker, self.inside, self.select, self.first = marker, False, None, None
        self.values = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = self.marker in (a.get("class") or "")
        elif not self.inside or "name" not in a and tag != "option":
            return
        elif tag == "input" and a.get("type") not in ("submit", "button"):
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.values.setdefault(a["name"], []).append(a.get("value") or ("on" if "checked" in a else ""))
        elif tag == "textarea":
            self.values[a["name"]] = [""]
        elif tag == "select":
            self.select, self.first = a["name"], None
        elif tag == "option" and self.select:
            if self.first is None:
                self.first = a.get("value", "")
            if "selected" in a:
                self.values[self.select] = [a.get("value", "")]

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select" and self.select:
            self.values.setdefault(self.select, [self.first or ""])
            self.select = None


def form_fields(html, marker):
    parser = FormFields(marker)
    parser.feed(html)
    return parser.values


def director_asks_for_a_stage_before_it_starts(director, officer, first_year):
    """Issue 35.2 online: the director creates the next stage on the staff pages, dated ten days ahead, and asks
    for it on its "Enviar à federação" page; the venue's worker sends the request, the event is bound to the new
    identifier (not late), and the officer's calendar lists it, asked by the same organiser, and accepts it."""
    start = date.today() + timedelta(days=10)
    page = director.get("/gestao/novo/").text
    fields = form_fields(page, "tournament-form")
    fields.update(
        name=["Circuito Nacional de Damas - Etapa Garanhuns"],
        slug=["etapa-garanhuns"],
        city=["Garanhuns"],
        start_date=[start.isoformat()],
        end_date=[start.isoformat()],
    )
    created = director.post("/gestao/novo/", fields)
    assert (created.status, created.header("Location")) == (302, "/gestao/t/etapa-garanhuns/"), created.text[:2000]
    url = "/gestao/t/etapa-garanhuns/federacao/"
    page = director.get(url).text
    asked = director.post(url, {"csrfmiddlewaretoken": director.csrf(page), "action": "stage"})
    assert (asked.status, asked.header("Location")) == (302, url)
    bound = until(
        lambda: 'class="stage-id"' in (t := director.get(url).text) and t,
        "the venue to be bound to its stage",
    )
    identifier = re.search(r'<strong class="stage-id">(CBJD-\d{4}-\d{3})</strong>', bound).group(1)
    # numbered in the order asked within the year of its start: the second of the year, unless it starts in the next
    assert identifier == f"CBJD-{start.year}-{'002' if start.year == first_year else '001'}"
    assert "registrada tarde" not in bound
    assert "Aguardando a federação aceitar a etapa no calendário da temporada" in bound
    calendar = officer.get("/gestao/federacao/calendario/").text
    row = re.search(rf'<tr id="stage-{identifier}">.*?</tr>', calendar, re.S).group(0)
    assert "Federação Pernambucana" in row and "Etapa Garanhuns" in row and "registrada tarde" not in row
    pk = re.search(r'name="stage" value="(\d+)"', row).group(1)
    decided = officer.post(
        "/gestao/federacao/calendario/",
        {"csrfmiddlewaretoken": officer.csrf(calendar), "stage": pk, "decision": "accept"},
    )
    assert decided.status == 302
    # the venue asks again ("Atualizar situação": its worker asks the calendar) and sees the acceptance
    synced = director.post(url, {"csrfmiddlewaretoken": director.csrf(bound), "action": "sync"})
    assert (synced.status, synced.header("Location")) == (302, url)
    until(
        lambda: "A federação aceitou a etapa no calendário da temporada." in director.get(url).text,
        "the venue to see its stage accepted in the calendar",
    )


def running_event_sends_its_fingerprints(director, venue, federation):
    """Issue 35.4 over HTTP: the demo event, running with 4 rounds published (each pairing and results sealed with
    its fingerprint), is bound to its stage (asked on its first day: late); the venue's worker then sends every
    fingerprint, and the federation holds each one as the venue sealed it."""
    url = f"/gestao/t/{S.DEMO_SLUG}/federacao/"
    page = director.get(url).text
    asked = director.post(url, {"csrfmiddlewaretoken": director.csrf(page), "action": "stage"})
    assert (asked.status, asked.header("Location")) == (302, url)
    bound = until(lambda: 'class="stage-id"' in (t := director.get(url).text) and t, "the demo to be bound")
    identifier = re.search(r'<strong class="stage-id">(CBJD-\d{4}-\d{3})</strong>', bound).group(1)
    assert "registrada tarde" in bound
    sealed = venue.db.query(
        "SELECT r.number, r.pairing_fingerprint, r.results_fingerprint FROM tournaments_round r "
        f"JOIN tournaments_tournament t ON t.id = r.tournament_id WHERE t.slug = '{S.DEMO_SLUG}' ORDER BY r.number"
    )
    expected = sorted([(n, "pairing", p) for n, p, _r in sealed if p] + [(n, "results", r) for n, _p, r in sealed if r])
    assert len(expected) == 8  # the demo's 4 published rounds, pairing and results each
    query = (
        "SELECT f.round, f.kind, f.fingerprint FROM tournaments_stagefingerprint f JOIN tournaments_stage s "
        f"ON s.id = f.stage_id WHERE s.identifier = '{identifier}' ORDER BY f.round, f.kind"
    )
    held = until(lambda: len(rows := federation.db.query(query)) == len(expected) and rows, "the fingerprints")
    assert sorted(held) == expected
    unsent = (
        "SELECT count(*) FROM tournaments_round r JOIN tournaments_tournament t ON t.id = r.tournament_id "
        f"WHERE t.slug = '{S.DEMO_SLUG}' AND (r.pairing_fingerprint_sent_at IS NULL OR r.results_fingerprint_sent_at "
        "IS NULL)"
    )
    until(lambda: venue.db.query(unsent) == [(0,)], "the venue to mark them sent")
