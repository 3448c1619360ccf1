"""Swiss Perfect 98 in (issue 12): the tournament files (.ini + .trn + .sco, dBase; zipped or side by side) and the
cross-table text export; and out: the cross table exactly as Swiss Perfect writes it. Imports are all-or-nothing
with Portuguese reasons."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from tests.tournaments.interchange.helpers import row_counts
from tests.tournaments.interchange.sp_files import SCO_FIELDS, TRN_FIELDS, dbf, game, ini, player, zipped
from tournaments.interchange import (
    InterchangeError,
    Upload,
    crosstable_sp,
    crosstable_sp_file,
    file_type_of,
    import_file,
    import_upload,
)
from tournaments.interchange.dbase import DbfError, read_dbf
from tournaments.models import Absence, Board, Entry, Game, Seat

pytestmark = pytest.mark.django_db

PLAYERS = [
    # the key .sco uses (ID) is not the pairing number (START_NO); ORDER written as Swiss Perfect does, NUL-ended
    player(3, 1, "Conceição", "João", ORDER=b"1\x00\x003", SEX="1", LOC_ID="12345", LOC_RTG=2100, FEDER="PE",
           CLUB="Clube X", BIRTH_DATE="19900301"),
    player(1, 2, "Souza", "Ana", SEX="2", LOC_ID="12346", LOC_RTG=2000, INTL_RTG=2050, TITLE="5"),
    player(2, 3, "Lima", "Bruno", SEX="1", LOC_RTG=1900, FEDER="IRL", INTL_ID="2500012"),
    player(5, 4, "Dias", "Carla", SEX="2", LOC_RTG=1800, ABSENT=2),  # absent in round 2 (bit 1)
    player(4, 5, "Rocha", "Davi", LOC_RTG=1700, WITHDRAWAL=3),  # sex not given; out from round 3 on
    player(6, 6, "Gomes", "Edu", SEX="1", LOC_RTG=1600),
]  # fmt: skip
RESULTS = [
    game(1, 3, 2, 2, 0),  # João (1) with White beats Bruno (3)
    game(1, 1, 5, 1, 1),  # Ana - Carla, draw
    game(1, 4, 6, 0, 2, 34, 34),  # Davi loses by forfeit to Edu
    game(2, 1, 3, 0, 2),  # Ana - João 0-1
    game(2, 6, 2, 2, 0),  # Edu - Bruno 1-0
    game(2, 4, 0, 2, 0, 1, 0),  # Davi: the bye (a whole point, alone)
    game(2, 5, 0, 0, 0, 1, 0),  # Carla: absent, zero
    game(3, 5, 3, 1, 1),  # Carla - João, draw
    game(3, 1, 2, 0, 0, 36, 36),  # Ana - Bruno, both forfeit
    game(3, 6, 0, 2, 0, 1, 0),  # Edu: the bye
    game(3, 0, 0, 0, 0, 0, 0),  # an empty slot Swiss Perfect keeps
]


def byes(t):
    """The pairing-allocated bye of each round (pairing number or None)."""
    seats = dict(
        Seat.objects.filter(round__tournament=t, side="bye").values_list("round__number", "entry__pairing_number")
    )
    return [seats.get(n) for n in range(1, t.rounds.count() + 1)]


def native(players=PLAYERS, results=RESULTS, **ini_args):
    return ini(**ini_args), dbf(TRN_FIELDS, players), dbf(SCO_FIELDS, results)


def sp_zip(players=PLAYERS, results=RESULTS, stem="OLINDA", **ini_args):
    i, t, s = native(players, results, **ini_args)
    return zipped({f"{stem}.ini": i, f"{stem}.trn": t, f"{stem}.sco": s})


EXPECTED_CROSSTABLE = (
    "No\tName          \tFeder\tIntl Id\tLoc Id\tRtg \tLoc \tTitle\tTotal\t 1  \t 2  \t 3  \r\n"
    "\r\n"
    "1 \tJoão Conceição\tPE   \t       \t12345 \t    \t2100\t     \t2.5  \t 3:W\t 2:W\t 4:D\r\n"
    "2 \tAna Souza     \t     \t       \t12346 \t2050\t2000\tMF   \t0.5  \t 4:D\t 1:L\t 3:-\r\n"
    "3 \tBruno Lima    \tIRL  \t2500012\t      \t    \t1900\t     \t0    \t 1:L\t 6:L\t 2:-\r\n"
    "4 \tCarla Dias    \t     \t       \t      \t    \t1800\t     \t1    \t 2:D\t 0:-\t 1:D\r\n"
    "5 \tDavi Rocha    \t     \t       \t      \t    \t1700\t     \t1    \t 6:-\t 0:W\t 0: \r\n"
    "6 \tEdu Gomes     \t     \t       \t      \t    \t1600\t     \t3    \t 5:+\t 3:W\t 0:W\r\n"
)


def test_tournament_files_zipped_are_imported_with_colours_byes_absences_withdrawals():
    imported = import_upload(Upload(sp_zip(), "olinda.zip"))
    t = imported.tournament
    assert imported.file_type == "swissperfect"
    assert (t.name, t.chief_arbiter, t.planned_rounds, t.format, t.bye_value, t.absence_value) == (
        "Aberto de Olinda",
        "Carlos Árbitro",
        3,
        "single-game",
        "win",
        "zero",
    )
    # Swiss Perfect keeps no date: to be given by the director; meanwhile the day the results were saved
    assert (t.start_date_unknown, str(t.start_date), str(t.end_date)) == (True, "2010-09-12", "2010-09-12")
    entries = {e.pairing_number: e for e in Entry.objects.filter(tournament=t).select_related("player")}
    joao = entries[1].player
    assert (joao.name, joao.sex, joao.cbjd_id, joao.state, joao.club, str(joao.birth_date)) == (
        "João Conceição",
        "M",
        "12345",
        "PE",
        "Clube X",
        "1990-03-01",
    )
    assert (entries[2].player.title, entries[2].player.sex, entries[2].rating) == ("MF", "F", 2000)
    # a federation that is not a Brazilian state is kept as the TRF import keeps it, the Intl Id as foreign ID
    bruno = entries[3].player
    assert (bruno.state, bruno.federation, bruno.foreign_id, bruno.cbjd_id) == ("", "IRL", "2500012", None)
    assert (joao.federation, joao.foreign_id) == ("", "")
    assert entries[5].player.sex == ""  # not given in the file: not guessed
    assert entries[5].withdrawn_from_round == 3
    # colours as Swiss Perfect recorded them: the first seat of a single game has White
    boards = {
        (b.round.number, b.number): (
            b.seats.get(side="first").entry.pairing_number,
            b.seats.get(side="second").entry.pairing_number,
        )
        for b in Board.objects.filter(round__tournament=t)
    }
    assert boards == {
        (1, 1): (1, 3),
        (1, 2): (2, 4),
        (1, 3): (5, 6),
        (2, 1): (2, 1),
        (2, 2): (6, 3),
        (3, 1): (4, 1),
        (3, 2): (2, 3),
    }
    results = sorted(
        Game.objects.filter(board__round__tournament=t).values_list("board__round__number", "board__number", "result")
    )
    assert results == [(1, 1, "1-0"), (1, 2, "1/2"), (1, 3, "-/+"), (2, 1, "0-1"), (2, 2, "1-0"), (3, 1, "1/2"),
                       (3, 2, "-/-")]  # fmt: skip
    assert byes(t) == [None, 5, 6]
    assert list(Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number")) == [
        (4, 2)
    ]
    assert imported.warnings == [
        "sexo não informado no arquivo para 1 jogador (número 5): deixado em branco, e categorias por sexo não "
        "o incluem; informe-o nas inscrições",
        "o Swiss Perfect não grava a data do torneio: o torneio fica com 12/09/2010 (a data em que os resultados "
        "foram salvos) até o diretor informar a data de início nas configurações",
    ]
    # and the cross table written back exactly as Swiss Perfect writes it
    assert crosstable_sp(t) == EXPECTED_CROSSTABLE


def test_the_command_line_takes_one_of_the_three_files_beside_the_others(tmp_path, capsys):
    for suffix, data in zip(("ini", "TRN", "sco"), native(), strict=True):
        (tmp_path / f"olinda.{suffix}").write_bytes(data)
    call_command("import_tournament", str(tmp_path / "olinda.TRN"))
    slug = capsys.readouterr().out.strip().splitlines()[-1]
    assert Entry.objects.filter(tournament__slug=slug).count() == 6
    (tmp_path / "olinda.sco").unlink()
    before = row_counts()
    with pytest.raises(InterchangeError, match=r"Swiss Perfect, olinda.ini: falta olinda.sco na mesma pasta"):
        import_file(tmp_path / "olinda.ini")
    assert row_counts() == before


def test_the_staff_page_takes_the_zip(client, director):
    client.force_login(director)
    upload = SimpleUploadedFile("olinda.zip", sp_zip(), content_type="application/zip")
    response = client.post(reverse("staff:tournament_import"), {"file": upload}, follow=True)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Aberto de Olinda" in text and "o Swiss Perfect não grava a data do torneio" in text


def test_the_text_export_is_imported_and_round_trips():
    t = import_upload(Upload(sp_zip(), "olinda.zip")).tournament
    exported = crosstable_sp(t).encode("utf-8")
    assert file_type_of(Upload(exported, "tabela.txt")).key == "swissperfect-text"
    again = import_upload(Upload(exported, "Aberto de Olinda.txt"))
    assert again.file_type == "swissperfect-text"
    assert again.warnings[0].startswith("a exportação de texto do Swiss Perfect não registra as cores")
    # same players, results, byes, absences and withdrawal; colours by pairing number (the file has none)
    assert crosstable_sp(again.tournament) == EXPECTED_CROSSTABLE
    assert again.tournament.name == "Aberto de Olinda"


# A cross table as Swiss Perfect exports it (tab-separated, padded, CRLF, a blank line after the header).
SP_TEXT = (
    "No\tName               \tLoc Id\tTotal\t 1  \t 2  \t 3  \r\n"
    "\r\n"
    "1 \tConceição, João    \t12345 \t2    \t 3:W\t 2:W\t 0:-\r\n"
    "2 \tSouza, Ana         \t12346 \t1.5  \t 4:W\t 1:L\t 3:D\r\n"
    "3 \tLima, Bruno        \t      \t1.5  \t 1:L\t 0:+\t 2:D\r\n"
    "4 \tDias, Carla        \t      \t0    \t 2:L\t  : \t  : \r\n"
).encode("cp1252")


def test_a_real_shaped_text_export_cp1252():
    imported = import_upload(Upload(SP_TEXT, "Aberto de Caruaru.txt"))
    t = imported.tournament
    assert imported.file_type == "swissperfect-text" and t.name == "Aberto de Caruaru"
    names = dict(Entry.objects.filter(tournament=t).values_list("pairing_number", "player__name"))
    assert names == {1: "Conceição, João", 2: "Souza, Ana", 3: "Lima, Bruno", 4: "Dias, Carla"}
    assert Entry.objects.get(tournament=t, pairing_number=4).withdrawn_from_round == 2
    assert list(Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number")) == [
        (1, 3)
    ]
    assert byes(t) == [None, 3, None]


@pytest.mark.parametrize(
    "text,message",
    [
        (
            SP_TEXT.replace(b"1.5  \t 4:W", b"2    \t 4:W"),
            "Swiss Perfect (texto), x, linha 4: Souza, Ana tem total 2 na coluna Total, mas os resultados somam 1.5",
        ),
        (
            SP_TEXT.replace(b" 1:L\t 0:+", b" 4:L\t 0:+"),
            "Swiss Perfect (texto), x, linha 3, rodada 1: Conceição, João (nº 1) enfrenta o nº 3, mas a linha 5 (nº 3) "
            "mostra o jogador 4 nessa rodada",
        ),
        (
            SP_TEXT.replace(b" 2:D\r\n", b" 2:X\r\n"),
            "Swiss Perfect (texto), x, linha 5, rodada 3: resultado ilegível “2:X”",
        ),
        (
            SP_TEXT.replace(b" 3:D\r\n", b" 3:W\r\n"),
            "Swiss Perfect (texto), x, linha 4, rodada 3: resultados de 2 e 3 não conferem (“W” nesta linha e “D” na "
            "linha 5)",
        ),
    ],
)
def test_text_export_refusals_name_the_line(text, message):
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(text, "x.txt"))
    assert exc.value.messages[0] == message
    assert row_counts() == before


def _with(results=None, players=None, **ini_args):
    return sp_zip(players or PLAYERS, results or RESULTS, **ini_args)


@pytest.mark.parametrize(
    "data,message",
    [
        (
            _with(multi_games=2),
            "Swiss Perfect, OLINDA.ini: 2 partidas por rodada (Multi Games=2); o Swiss Perfect não grava o resultado "
            "de cada partida, só o total da rodada: importe rodadas de uma partida",
        ),
        (_with(team=1), "Swiss Perfect, OLINDA.ini: torneio por equipes, que este programa não gere"),
        (
            _with(results=[*RESULTS[:9], game(3, 6, 0, 1, 0, 1, 0)]),  # Edu's bye worth half a point, Davi's one
            "Swiss Perfect: byes de valores diferentes no mesmo torneio (meio ponto: Edu Gomes (nº 6), rodada 3; um "
            "ponto: Davi Rocha (nº 5), rodada 2); um torneio aqui tem um valor só para o bye",
        ),
        (
            _with(players=PLAYERS[:5] + [{**PLAYERS[5], "BONUS": "0.5"}]),
            "Swiss Perfect, OLINDA.trn, registro 6: Edu Gomes tem 0.5 ponto de bônus (BONUS), mas nenhuma rodada "
            "sem partida que os receba; este programa não guarda pontos fora das rodadas",
        ),
        (
            _with(results=[*RESULTS[:3], game(1, 2, 9, 2, 0)]),
            "Swiss Perfect, OLINDA.sco, registro 4: jogador de ID 9 não está no arquivo .trn",
        ),
        (
            _with(results=[*RESULTS[:3], game(2, 2, 3, 2, 2)]),
            "Swiss Perfect, OLINDA.sco, registro 4: rodada 2, Bruno Lima × João Conceição: pontos 1 e 1 não formam "
            "um resultado",
        ),
        (
            zipped({"OLINDA.ini": ini(), "OLINDA.trn": dbf(TRN_FIELDS, PLAYERS)}),
            "Swiss Perfect, olinda.zip: o zip deve conter um torneio: os arquivos .ini, .trn e .sco de mesmo nome "
            "(contém: OLINDA.ini, OLINDA.trn)",
        ),
        (
            zipped({"A.ini": ini(), "A.trn": dbf(TRN_FIELDS, PLAYERS), "B.sco": dbf(SCO_FIELDS, RESULTS)}),
            "Swiss Perfect, olinda.zip: o zip deve conter um torneio: os arquivos .ini, .trn e .sco de mesmo nome "
            "(contém: A.ini, A.trn, B.sco)",
        ),
        (
            zipped({"OLINDA.ini": ini(), "OLINDA.trn": dbf(TRN_FIELDS, PLAYERS, declared=500),
                    "OLINDA.sco": dbf(SCO_FIELDS, RESULTS)}),
            "Swiss Perfect, OLINDA.trn: tabela dBase cortada: 500 registros declarados, o arquivo não os contém",
        ),
    ],
)  # fmt: skip
def test_what_cannot_map_is_refused_whole(data, message):
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(data, "olinda.zip"))
    assert exc.value.messages[0] == message
    assert row_counts() == before


def test_a_lone_file_through_the_web_and_a_zip_bomb_are_refused():
    before = row_counts()
    with pytest.raises(InterchangeError, match=r"envie os três juntos num \.zip"):
        import_upload(Upload(dbf(TRN_FIELDS, PLAYERS), "olinda.trn"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("X.ini", ini())
        z.writestr("X.trn", b"\x03" + b"\x00" * (6 * 1024 * 1024))  # 6 MB of zeros: a few KB compressed
        z.writestr("X.sco", dbf(SCO_FIELDS, RESULTS))
    assert len(buf.getvalue()) < 50_000
    with pytest.raises(InterchangeError, match=r"X\.trn teria 6291457 bytes descompactado \(máximo 5242880\)"):
        import_upload(Upload(buf.getvalue(), "bomba.zip"))
    assert row_counts() == before


def test_dbase_reader_reads_fields_and_refuses_broken_tables():
    table = read_dbf(dbf(TRN_FIELDS, PLAYERS[:2]))
    assert [f.name for f in table.fields][:4] == ["ORDER", "ID", "START_NO", "SURNAME"]
    first = table.records[0]
    assert (first["ORDER"], first["ID"], first["SURNAME"], first["LOC_RTG"], str(first["BIRTH_DATE"])) == (
        1,
        3,
        "Conceição",
        2100,
        "1990-03-01",
    )
    assert table.records[1]["INTL_RTG"] == 2050 and table.records[1]["BIRTH_DATE"] is None
    for broken, reason in [
        (b"", "arquivo dBase curto demais"),
        (b"\x30" + bytes(40), "não é uma tabela dBase III"),
        (dbf(TRN_FIELDS, PLAYERS, declared=10**6), "tabela dBase com 1000000 registros (máximo 100000)"),
        (dbf(SCO_FIELDS, [{**RESULTS[0], "ROUND": "1x"}]), "registro 1, campo ROUND: número inválido “1x”"),
    ]:
        with pytest.raises(DbfError) as exc:
            read_dbf(broken)
        assert exc.value.reason == reason


def test_late_entry_with_half_a_point_for_the_round_missed():
    players = [
        player(1, 1, "Alves", "Ana", SEX="2"),
        player(2, 2, "Braga", "Bia", SEX="2"),
        player(3, 3, "Cunha", "Caio", SEX="1"),
        player(4, 4, "Duarte", "Dora", SEX="2", LATE_ENTRY=2, ABSENT=1),  # joined in round 2
    ]
    results = [
        game(1, 1, 2, 2, 0),
        game(1, 3, 0, 2, 0, 1, 0),  # the bye
        game(1, 4, 0, 1, 0, 1, 0),  # half a point for the round before joining
        game(2, 1, 3, 1, 1),
        game(2, 2, 4, 0, 2),
    ]
    imported = import_upload(Upload(sp_zip(players, results, rounds=2), "tarde.zip"))
    t = imported.tournament
    # here a round before a late entry scores nothing: the half point is kept as an absence at the draw value
    dora = Entry.objects.get(tournament=t, pairing_number=4)
    assert dora.late_entry_round is None and t.absence_value == "draw"
    assert imported.warnings[0] == (
        "Dora Duarte (nº 4): entrada tardia na rodada 2 registrada como ausências nas rodadas anteriores, com os "
        "pontos que o Swiss Perfect deu"
    )
    assert list(Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number")) == [
        (4, 1)
    ]
    assert byes(t) == [3, None]
    assert crosstable_sp(t).split("\r\n")[2:6] == [
        "1 \tAna Alves  \t     \t       \t      \t   \t   \t     \t1.5  \t 2:W\t 3:D",
        "2 \tBia Braga  \t     \t       \t      \t   \t   \t     \t0    \t 1:L\t 4:L",
        "3 \tCaio Cunha \t     \t       \t      \t   \t   \t     \t1.5  \t 0:W\t 1:D",
        "4 \tDora Duarte\t     \t       \t      \t   \t   \t     \t1.5  \t 0:=\t 2:W",
    ]


def test_the_cross_table_is_downloaded_from_the_staff_pages(client, director):
    t = import_upload(Upload(sp_zip(), "olinda.zip"), user=director).tournament
    client.force_login(director)
    url = reverse("staff:download", args=[t.slug, "crosstable"])
    assert url in client.get(reverse("staff:homologation", args=[t.slug])).content.decode()
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="{t.slug}-tabela-cruzada.txt"'
    assert response["Content-Type"] == "text/tab-separated-values; charset=windows-1252"
    assert response.content == EXPECTED_CROSSTABLE.encode("cp1252")  # "João Conceição" as Swiss Perfect writes it
    assert b"Jo\xe3o Concei\xe7\xe3o" in response.content


def test_a_loc_id_of_someone_else_in_the_registry_is_refused(make_player):
    # another person with that ID is refused; the same person written differently is the registry's player
    same = make_player(name="JOAO CONCEICAO", cbjd_id="12345")
    other = make_player(name="Maria Souza", cbjd_id="12346")
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:
        import_upload(Upload(sp_zip(), "olinda.zip"))
    assert exc.value.messages == [
        "Swiss Perfect: o Loc Id 12346 de Ana Souza (nº 2) é, no cadastro, o ID CBJD de Maria Souza; corrija o Loc "
        "Id no Swiss Perfect (ou o cadastro) e importe de novo"
    ]
    assert row_counts() == before
    other.delete()
    t = import_upload(Upload(sp_zip(), "olinda.zip")).tournament
    assert Entry.objects.get(tournament=t, pairing_number=1).player == same


def test_absences_keep_each_its_own_value_zero_half_or_whole():
    # Carla absent in round 2 with half a point (BONUS), Davi absent in round 3 with nothing, Edu given a whole
    # point without a game in round 3 (type 35: not the bye the pairing gives)
    players = [*PLAYERS[:3], {**PLAYERS[3], "BONUS": "0.5"}, {**PLAYERS[4], "WITHDRAWAL": ""}, PLAYERS[5]]
    results = [*RESULTS[:9], game(3, 6, 0, 2, 0, 35, 35), game(3, 4, 0, 0, 0, 1, 0)]
    before = row_counts()
    t = import_upload(Upload(sp_zip(players, results), "olinda.zip")).tournament
    assert row_counts() != before
    own = Absence.objects.filter(entry__tournament=t).order_by("round_number", "entry__pairing_number")
    assert list(own.values_list("entry__pairing_number", "round_number", "value")) == [
        (4, 2, "draw"),
        (5, 3, "zero"),
        (6, 3, "win"),
    ]
    assert byes(t) == [None, 5, None] and t.absence_value == "zero"
    assert crosstable_sp(t).split("\r\n")[5:8] == [
        "4 \tCarla Dias    \t     \t       \t      \t    \t1800\t     \t1.5  \t 2:D\t 0:=\t 1:D",
        "5 \tDavi Rocha    \t     \t       \t      \t    \t1700\t     \t1    \t 6:-\t 0:W\t 0:-",
        "6 \tEdu Gomes     \t     \t       \t      \t    \t1600\t     \t3    \t 5:+\t 3:W\t 0:+",
    ]


def test_a_player_whose_sex_the_file_does_not_give_is_in_no_category_by_sex(director):
    from tournaments.categories.services import category_save

    t = import_upload(Upload(sp_zip(), "olinda.zip")).tournament
    men, count = category_save(tournament=t, user=director, code="MAS", name="Masculino", sex="M")
    women, _ = category_save(tournament=t, user=director, code="FEM", name="Feminino", sex="F")
    assert sorted(men.entries.values_list("pairing_number", flat=True)) == [1, 3, 6] and count == 3
    assert sorted(women.entries.values_list("pairing_number", flat=True)) == [2, 4]


def test_the_cross_table_file_is_windows_1252_and_hostile_text_stays_in_its_cell():
    from tournaments.models import Player

    t = import_upload(Upload(sp_zip(), "olinda.zip")).tournament
    hostile = {
        1: '=HYPERLINK("http://x.example")',  # a formula
        2: "Łukasz Żółć",  # letters Windows-1252 lacks: their base letter (ó it has)
        3: "Linha\r\nNova\tcoluna\x01\x1b",  # line breaks, a tab, control characters
        4: "李 Wei 🎲",  # no base letter at all: ?
        5: "Şükrü Ödőn",
        6: "@SUM(A1)",
    }
    for number, name in hostile.items():
        Player.objects.filter(entries__tournament=t, entries__pairing_number=number).update(name=name)
    Player.objects.filter(entries__tournament=t, entries__pairing_number=2).update(foreign_id="-2+3")
    text = crosstable_sp(t)
    assert [line.split("\t")[1:4] for line in text.split("\r\n")[2:8]] == [
        ['\'=HYPERLINK("http://x.example")', "PE   ", "       "],
        ["Lukasz Zólc                    ", "     ", "'-2+3  "],
        ["Linha Nova coluna              ", "IRL  ", "2500012"],
        ["? Wei ?                        ", "     ", "       "],
        ["Sükrü Ödon                     ", "     ", "       "],
        ["'@SUM(A1)                      ", "     ", "       "],
    ]
    assert text.count("\r\n") == 8 and "\n" not in text.replace("\r\n", "")
    assert {line.count("\t") for line in text.split("\r\n")[2:8]} == {text.split("\r\n")[0].count("\t")}
    data = crosstable_sp_file(t)
    assert data == text.encode("cp1252") and b"S\xfckr\xfc \xd6don" in data


@pytest.mark.parametrize(
    "encode",
    [
        lambda text: text.encode("cp1252"),  # as Swiss Perfect writes it
        lambda text: text.encode("utf-8"),
        lambda text: b"\xef\xbb\xbf" + text.encode("utf-8"),  # UTF-8 with a BOM (Notepad)
    ],
    ids=["cp1252", "utf-8", "utf-8-bom"],
)
def test_the_text_export_is_read_in_windows_1252_and_utf_8(encode):
    t = import_upload(Upload(encode(SP_TEXT.decode("cp1252")), "Aberto de Caruaru.txt")).tournament
    names = dict(Entry.objects.filter(tournament=t).values_list("pairing_number", "player__name"))
    assert names == {1: "Conceição, João", 2: "Souza, Ana", 3: "Lima, Bruno", 4: "Dias, Carla"}


def test_withdrawal_is_the_first_round_out_and_a_result_after_it_moves_it():
    # Davi out from round 3 on: the zero record Swiss Perfect keeps for him in round 3 is no absence
    t = import_upload(Upload(sp_zip(results=[*RESULTS, game(3, 4, 0, 0, 0, 1, 0)]), "olinda.zip")).tournament
    assert Entry.objects.get(tournament=t, pairing_number=5).withdrawn_from_round == 3
    assert not Absence.objects.filter(entry__tournament=t, entry__pairing_number=5).exists()
    # WITHDRAWAL=2 contradicts his bye in round 2: the result stands, the withdrawal moves after it, and says so
    players = [*PLAYERS[:4], {**PLAYERS[4], "WITHDRAWAL": 2}, PLAYERS[5]]
    imported = import_upload(Upload(sp_zip(players), "olinda.zip"))
    assert Entry.objects.get(tournament=imported.tournament, pairing_number=5).withdrawn_from_round == 3
    assert imported.warnings[0] == (
        "Davi Rocha (nº 5): retirado na rodada 2 (WITHDRAWAL), mas com resultado na rodada 2; registrado como "
        "retirado a partir da rodada 3"
    )


def test_a_late_entrant_given_a_whole_point_for_the_round_before_joining():
    # as a real club championship: joined for round 3, given a whole point (type 35) for round 2, nothing for 1
    players = [
        player(1, 1, "Alves", "Ana", SEX="2"),
        player(2, 2, "Braga", "Bia", SEX="2"),
        player(3, 3, "Cunha", "Caio", SEX="1"),
        player(4, 4, "Esteves", "Eva", SEX="2", LATE_ENTRY=3, ABSENT=2),
    ]
    results = [
        game(1, 1, 2, 2, 0),
        game(1, 3, 0, 2, 0, 1, 1),  # the bye
        game(2, 3, 1, 1, 1),
        game(2, 2, 0, 2, 0, 1, 1),  # the bye
        game(2, 4, 0, 2, 0, 35, 35),  # Eva: a point given without a game
        game(3, 1, 4, 0, 2),
        game(3, 3, 2, 2, 0),
    ]
    imported = import_upload(Upload(sp_zip(players, results), "tarde.zip"))
    t = imported.tournament
    assert imported.warnings[0] == (
        "Eva Esteves (nº 4): entrada tardia na rodada 3 registrada na rodada 2, com ausências até a rodada 2, com os "
        "pontos que o Swiss Perfect deu"
    )
    assert Entry.objects.get(tournament=t, pairing_number=4).late_entry_round == 2
    assert list(
        Absence.objects.filter(entry__tournament=t).values_list("entry__pairing_number", "round_number", "value")
    ) == [(4, 2, "win")]
    assert byes(t) == [3, 2, None]
    assert crosstable_sp(t).split("\r\n")[2:6] == [
        "1 \tAna Alves  \t     \t       \t      \t   \t   \t     \t1.5  \t 2:W\t 3:D\t 4:L",
        "2 \tBia Braga  \t     \t       \t      \t   \t   \t     \t1    \t 1:L\t 0:W\t 3:L",
        "3 \tCaio Cunha \t     \t       \t      \t   \t   \t     \t2.5  \t 0:W\t 1:D\t 2:W",
        "4 \tEva Esteves\t     \t       \t      \t   \t   \t     \t2    \t 0: \t 0:+\t 1:W",
    ]


# A cross table in the shape of a real Swiss Perfect export (a club championship's, checked outside the
# repository): players numbered by final place, the pairing bye "0:W", a point given without a game "0:+", bonus
# half points "0:D", and "0:" with no letter for the rounds before a late entry.
SP_REAL_SHAPE = (
    "No\tName            \tLoc Id\tTotal\t 1  \t 2  \t 3  \r\n"
    "\r\n"
    "1 \tTalazec, Laurent\t10692 \t2.5  \t 0:W\t 4:D\t 5:W\r\n"
    "2 \tFreeman, Conor  \t      \t2    \t 0:D\t 0:D\t 4:W\r\n"
    "3 \tWall, Robert    \t      \t2    \t 0: \t 0:+\t 0:W\r\n"
    "4 \tCassidy, John   \t193   \t1.5  \t 5:W\t 1:D\t 2:L\r\n"
    "5 \tMirza, Gabriel  \t5601  \t1    \t 4:L\t 0:W\t 1:L\r\n"
).encode("cp1252")


def test_a_text_export_in_the_shape_of_a_real_one():
    imported = import_upload(Upload(SP_REAL_SHAPE, "Limerick.txt"))
    t = imported.tournament
    names = dict(Entry.objects.filter(tournament=t).values_list("pairing_number", "player__name"))
    assert names == {  # as written (issue 27)
        1: "Talazec, Laurent",
        2: "Freeman, Conor",
        3: "Wall, Robert",
        4: "Cassidy, John",
        5: "Mirza, Gabriel",
    }
    assert byes(t) == [1, 5, 3]
    own = Absence.objects.filter(entry__tournament=t).order_by("entry__pairing_number", "round_number")
    assert list(own.values_list("entry__pairing_number", "round_number", "value")) == [
        (2, 1, "draw"),
        (2, 2, "draw"),
        (3, 2, "win"),
    ]
    assert Entry.objects.get(tournament=t, pairing_number=3).late_entry_round == 2
    assert (t.absence_value, t.bye_value, t.start_date_unknown) == ("draw", "win", True)
    assert crosstable_sp(t).split("\r\n")[2:7] == [
        "1 \tTalazec, Laurent\t     \t       \t10692 \t   \t   \t     \t2.5  \t 0:W\t 4:D\t 5:W",
        "2 \tFreeman, Conor  \t     \t       \t      \t   \t   \t     \t2    \t 0:D\t 0:D\t 4:W",  # as written
        "3 \tWall, Robert    \t     \t       \t      \t   \t   \t     \t2    \t 0: \t 0:+\t 0:W",
        "4 \tCassidy, John   \t     \t       \t193   \t   \t   \t     \t1.5  \t 5:W\t 1:D\t 2:L",
        "5 \tMirza, Gabriel  \t     \t       \t5601  \t   \t   \t     \t1    \t 4:L\t 0:W\t 1:L",
    ]


def test_an_ini_without_its_tournament_section_names_the_tournament_after_the_file():
    bare = b"[List Of Participants]\nSort Criteria=1171,1172,\n[Desktop]\nRound=3\n"  # LF only, as a real one
    data = zipped(
        {"CLUBE10.ini": bare, "CLUBE10.trn": dbf(TRN_FIELDS, PLAYERS), "CLUBE10.sco": dbf(SCO_FIELDS, RESULTS)}
    )
    imported = import_upload(Upload(data, "clube.zip"))
    t = imported.tournament
    assert (t.name, t.chief_arbiter, t.planned_rounds) == ("CLUBE10", "", 3)
    assert imported.warnings[0] == (
        "Swiss Perfect, CLUBE10.ini: sem a seção [Tournament Info]; o torneio leva o nome do arquivo (CLUBE10), sem "
        "árbitro, e tantas rodadas quantas foram jogadas"
    )


def test_a_round_without_a_record_is_no_absence_and_is_written_as_swiss_perfect_writes_it():
    # Ana and Bruno have no record in round 3 (not paired, no absence announced): Swiss Perfect writes "0:" there
    results = [r for r in RESULTS if (r["ROUND"], r["WHITE"]) != (3, 1)]
    t = import_upload(Upload(sp_zip(results=results), "olinda.zip")).tournament
    assert not Absence.objects.filter(entry__tournament=t, round_number=3).exists()
    lines = crosstable_sp(t).split("\r\n")
    assert [line.split("\t")[-1] for line in lines[2:8]] == [" 4:D", " 0: ", " 0: ", " 1:D", " 0: ", " 0:W"]
    assert [line.split("\t")[-2] for line in lines[2:8]][3] == " 0:-"  # Carla's announced absence in round 2
    # and read back: still no absence, the same cross table
    again = import_upload(Upload(crosstable_sp_file(t), "Aberto de Olinda.txt")).tournament
    assert not Absence.objects.filter(entry__tournament=again, round_number=3).exists()
    assert crosstable_sp(again) == crosstable_sp(t)


def test_a_round_marked_absent_without_a_record_is_still_an_announced_absence():
    # Carla marked absent in round 2 but with no record there (a real file has such), Edu marked absent in round 4,
    # the one still to be paired
    players = [*PLAYERS[:5], {**PLAYERS[5], "ABSENT": 8}]
    results = [r for r in RESULTS if (r["ROUND"], r["WHITE"]) != (2, 5)]
    t = import_upload(Upload(sp_zip(players, results, rounds=4), "olinda.zip")).tournament
    own = Absence.objects.filter(entry__tournament=t).order_by("round_number")
    assert list(own.values_list("entry__pairing_number", "round_number", "value")) == [(4, 2, "zero"), (6, 4, "zero")]
    assert t.rounds.count() == 3 and t.planned_rounds == 4


def test_an_intl_id_that_is_no_id_and_a_long_federation_are_not_stored_and_said():
    # real files use INTL_ID for birth dates; FEDER holds four characters
    players = [{**PLAYERS[0], "INTL_ID": "16-02-1944"}, {**PLAYERS[1], "FEDER": "EIRE"}, *PLAYERS[2:]]
    imported = import_upload(Upload(sp_zip(players), "olinda.zip"))
    entries = {e.pairing_number: e.player for e in Entry.objects.filter(tournament=imported.tournament)}
    assert (entries[1].foreign_id, entries[2].federation, entries[2].state) == ("", "", "")
    # what changes rights (the categories by sex) before what changes nothing (issue 38.2)
    assert imported.warnings[:3] == [
        "sexo não informado no arquivo para 1 jogador (número 5): deixado em branco, e categorias por sexo não "
        "o incluem; informe-o nas inscrições",
        "Ana Souza (nº 2): federação “EIRE” com mais de 3 letras; não guardada",
        "Intl Id que não é um número para 1 jogador (número 1 (“16-02-1944”)): não guardado como ID internacional",
    ]


def test_points_in_the_total_no_cell_shows_are_swiss_perfects_bonus():
    # Ana's Total has half a point more than her cells: the bonus Swiss Perfect does not always write in a cell
    text = (
        "No\tName     \tTotal\t 1  \t 2  \t 3  \r\n"
        "\r\n"
        "1 \tAlves, Ana\t2.5  \t 2:W\t 0:L\t 3:W\r\n"
        "2 \tBraga, Bia\t0    \t 1:L\t 3:L\t 0: \r\n"
        "3 \tCunha, Caio\t1    \t 0:W\t 2:W\t 1:L\r\n"
    ).encode("cp1252")
    before = row_counts()
    with pytest.raises(InterchangeError) as exc:  # Caio's Total is not his cells' sum (2): less cannot be a bonus
        import_upload(Upload(text, "bonus.txt"))
    assert exc.value.messages == [
        "Swiss Perfect (texto), bonus, linha 5: Cunha, Caio tem total 1 na coluna Total, mas os resultados somam 2"
    ]
    assert row_counts() == before
    imported = import_upload(Upload(text.replace(b"1    \t 0:W", b"2    \t 0:W"), "bonus.txt"))
    t = imported.tournament
    assert imported.warnings[0] == (
        "Swiss Perfect (texto), bonus, linha 3: Alves, Ana tem 0.5 ponto no Total que nenhuma rodada mostra (bônus "
        "do Swiss Perfect): registrado como ausência valendo meio ponto na rodada 2"
    )
    own = Absence.objects.filter(entry__tournament=t)
    assert list(own.values_list("entry__pairing_number", "round_number", "value")) == [(1, 2, "draw")]
    assert crosstable_sp(t).split("\r\n")[2].endswith("\t2.5  \t 2:W\t 0:=\t 3:W")


def test_a_second_pairing_bye_in_a_round_is_kept_for_that_player():
    # Carla not marked absent and given a whole point alone in round 2, as Davi: two byes (pairing by hand)
    players = [*PLAYERS[:3], {**PLAYERS[3], "ABSENT": 0}, *PLAYERS[4:]]
    results = [*RESULTS[:6], game(2, 5, 0, 2, 0, 1, 0), *RESULTS[7:]]
    imported = import_upload(Upload(sp_zip(players, results), "olinda.zip"))
    t = imported.tournament
    assert imported.warnings[0] == (
        "Swiss Perfect, rodada 2: 2 jogadores com o bye do emparceiramento (números 4, 5); o bye da rodada fica com o "
        "nº 4, os outros contam como byes registrados só para o jogador"
    )
    assert byes(t) == [None, 4, 6] and not Absence.objects.filter(entry__tournament=t).exists()
    lines = crosstable_sp(t).split("\r\n")
    assert [line.split("\t")[-2] for line in lines[5:7]] == [" 0:W", " 0:W"]
    assert [line.split("\t")[8] for line in lines[5:7]] == ["2    ", "1    "]  # Carla: ½ + 1 + ½; Davi: 0 + 1


# A Swiss Perfect text export written while the last round's results were being entered (issue 38.5): the game of
# 1 and 3 in round 2 has no result yet, written ``3:`` and ``1:`` (opponent, colon, nothing); the Total column
# counts nothing for it.
SP_NO_RESULT = (
    "No\tName            \tLoc Id\tTotal\t 1  \t 2  \r\n"
    "\r\n"
    "1 \tAlves, Túlio    \t20101 \t1    \t 2:W\t 3: \r\n"
    "2 \tBrito, Sara     \t20102 \t1    \t 1:L\t 4:W\r\n"
    "3 \tCosta, Ivo      \t      \t0.5  \t 4:D\t 1: \r\n"
    "4 \tDuarte, Lia     \t20104 \t0.5  \t 3:D\t 2:L\r\n"
).encode("cp1252")


def test_a_game_without_a_result_in_the_text_export_is_read_as_one():
    imported = import_upload(Upload(SP_NO_RESULT, "Aberto de Penedo.txt"))
    t = imported.tournament
    board = Board.objects.get(round__tournament=t, round__number=2, seats__entry__pairing_number=1)
    assert [g.result for g in board.games.all()] == [None]  # for the director to enter
    said = (
        "Swiss Perfect, rodada 2: a partida de Alves, Túlio (nº 1) e Costa, Ivo (nº 3) está sem resultado (“3:” e "
        "“1:”), e o Total do arquivo não a conta; importada sem resultado, para o diretor lançar"
    )
    assert said in imported.warnings and imported.warnings[0] == said  # it changes points: listed first
    assert not any("uma letra" in w for w in imported.warnings)


def test_a_game_without_a_result_before_a_later_round_counts_nothing():
    text = (
        "No\tName            \tLoc Id\tTotal\t 1  \t 2  \t 3  \r\n"
        "\r\n"
        "1 \tAlves, Túlio    \t20101 \t2    \t 2:W\t 3: \t 4:W\r\n"
        "2 \tBrito, Sara     \t20102 \t2    \t 1:L\t 4:W\t 3:W\r\n"
        "3 \tCosta, Ivo      \t      \t0.5  \t 4:D\t 1: \t 2:L\r\n"
        "4 \tDuarte, Lia     \t20104 \t0.5  \t 3:D\t 2:L\t 1:L\r\n"
    ).encode("cp1252")
    imported = import_upload(Upload(text, "Aberto de Penedo.txt"))
    board = Board.objects.get(round__tournament=imported.tournament, round__number=2, seats__entry__pairing_number=1)
    assert [g.result for g in board.games.all()] == ["-/-"]
    assert any("importada como W.O. duplo (-/-), que não vale pontos a nenhum dos dois" in w for w in imported.warnings)
