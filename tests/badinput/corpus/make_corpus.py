"""Regenerate the bad-input corpus (the files next to this script): ``python tests/badinput/corpus/make_corpus.py``.

Every file is deterministic. The huge files (over the limits) are not committed: the tests generate them.
"""

import io
import json
import random
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOOD_CSV = "ID CBJD;Nome;Rating;Nascimento;Sexo;UF;Clube\n"


def write(name, data):
    (HERE / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def workbook(rows):
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def trf_player(pid, pts, rounds=(), rating=2000, name=None):
    base = f"001 {pid:>4}      {(name or 'Jogador ' + str(pid)):<33} {rating:>4}{'':28}{pts:>4}{'':5}"
    return base.ljust(89) + "".join(f"  {r}" for r in rounds)


def main():
    # ---------------------------------------------------------------- rating lists (CSV)
    write(
        "ratings_truncated.csv", GOOD_CSV + "30001;João Araújo;2105;01/02/1990;M;PE;Clube Recife\n30002;Maria da Concei"
    )  # the upload stopped in the middle of a name: no rating on line 3
    write(
        "ratings_latin1_stray_byte.csv",
        ("ID CBJD;Nome;Rating;Sexo;UF\n30011;José Conceição;1980;M;PE\n").encode("latin-1")
        + b"30012;Ana Mar\x9dlia;1875;F;PB\n"  # 0x9D: no character in Latin-1/cp1252 (a control code)
        + ("30013;Cláudio Brandão;1702;M;RN\n").encode("latin-1"),
    )
    write(
        "ratings_mixed_encoding.csv",
        ("ID CBJD;Nome;Rating;Sexo;UF\n30021;João Araújo;2105;M;PE\n").encode()
        + "30022;Inês Peçanha;1933;F;SP\n".encode("latin-1"),
    )  # one line saved in Latin-1 inside a UTF-8 file
    write("ratings_nul_byte.csv", GOOD_CSV + "30031;Carlos\x00 Lima;1800;;M;PE;\n")
    write("ratings_wrong_columns.csv", "Jogador;Pontos;Cidade\nJoão Araújo;2105;Recife\nAna Lima;1988;Natal\n")
    write("ratings_empty.csv", b"")
    write("ratings_only_separators.csv", ";;;\n;;;\n\n")
    write("ratings_header_only.csv", GOOD_CSV)
    rng = random.Random(7)
    write("ratings_binary_garbage.csv", bytes(rng.randrange(256) for _ in range(4096)))
    # ---------------------------------------------------------------- rating lists (XLSX)
    good = workbook(
        [
            ["ID CBJD", "Nome", "Rating", "Sexo"],
            ["30041", "Paulo Freitas", 2001, "M"],
            ["30042", "Luana Dias", 1890, "F"],
        ]
    )
    write("ratings_truncated.xlsx", good[: len(good) // 2])
    write(
        "ratings_wrong_headers.xlsx",
        workbook([["Atleta", "Pontuação FMJD", "Cidade"], ["Paulo Freitas", 2001, "Recife"]]),
    )
    write(
        "ratings_text_in_rating.xlsx",
        workbook(
            [
                ["ID CBJD", "Nome", "Rating", "Sexo"],
                ["30051", "Paulo Freitas", "dois mil", "M"],
                ["30052", "Luana Dias", 1890, "F"],
            ]
        ),
    )
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("leia-me.txt", "isto não é uma planilha")
    write("ratings_zip_not_workbook.xlsx", zipped.getvalue())
    # ---------------------------------------------------------------- TRF (pairing engine, import_tournament)
    header = "012 Aberto de Teste\n022 Recife\n042 2026/11/07\n052 2026/11/08\nXXR 5\nXXC white1\n"
    players = [
        trf_player(1, "1.0", ["   3 w 1"]),
        trf_player(2, "0.0", ["   4 b 0"]),
        trf_player(3, "0.0", ["   1 b 0"]),
        trf_player(4, "1.0", ["   2 w 1"]),
    ]
    write("valid_4_players.trf", header + "\n".join(players) + "\n")
    write("trf_truncated.trf", header + "\n".join(players[:3]) + "\n" + players[3][:60])
    write(
        "trf_latin1.trf",
        (
            header
            + "\n".join(players[:2] + [trf_player(3, "0.0", ["   1 b 0"], name="João Conceição")] + players[3:])
            + "\n"
        ).encode("latin-1"),
    )
    # Every field after the name five columns to the right (a name longer than its column): the rating column
    # (49-52) now holds the name's end and the points column holds spaces and digits of the rating.
    write("trf_wrong_columns.trf", header + "\n".join(p[:14] + "Silva" + p[14:] for p in players) + "\n")
    # ---------------------------------------------------------------- interchange JSON (import_tournament)
    small = {
        "format": "damas-swiss/1",
        "tournament": {
            "name": "Aberto Corpus",
            "slug": "aberto-corpus",
            "variant": "brazilian-64",
            "format": "micro-match",
            "rounds": 3,
            "minutes_per_game": 21,
            "start_date": "2026-11-07",
            "end_date": "2026-11-08",
            "city": "Recife",
            "state": "PE",
        },
        "categories": [{"code": "ABS", "name": "Absoluto"}],
        "players": [
            {
                "id": i,
                "cbjd_id": f"3010{i}",
                "name": f"Jogador {i}",
                "sex": "M",
                "rating": 2000 - i,
                "categories": ["ABS"],
            }
            for i in range(1, 5)
        ],
        "rounds": [],
    }
    text = json.dumps(small, ensure_ascii=False, indent=1)
    write("interchange_truncated.json", text[: len(text) // 2])
    wrong = json.loads(text)
    wrong["tournament"]["rounds"] = "três"
    wrong["tournament"]["start_date"] = 20261107
    wrong["players"][1]["rating"] = "mil e novecentos"
    wrong["players"][2] = ["não", "é", "um", "objeto"]
    write("interchange_wrong_types.json", json.dumps(wrong, ensure_ascii=False, indent=1))
    write("interchange_not_an_object.json", "[1, 2, 3]\n")
    write("interchange_latin1.json", text.replace("Recife", "São José").encode("latin-1"))


if __name__ == "__main__":
    main()
