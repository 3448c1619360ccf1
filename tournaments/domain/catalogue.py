"""The catalogue of tiebreaks: one entry per tiebreak the product offers, with its key (used in settings, the
interchange file and the ``standings`` command), its name and abbreviation in Portuguese and English, and what
it measures (docs/domain.md section 5). Every page, command and export names a tiebreak from here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tiebreak:
    key: str
    name_pt: str
    name_en: str
    abbr_pt: str
    abbr_en: str
    description_pt: str
    description_en: str

    def name(self, language: str | None) -> str:
        """The name in ``language`` (a code such as "pt-br" or "en"): Portuguese unless English is asked for."""
        return self.name_en if _english(language) else self.name_pt

    def abbr(self, language: str | None) -> str:
        return self.abbr_en if _english(language) else self.abbr_pt

    def description(self, language: str | None) -> str:
        return self.description_en if _english(language) else self.description_pt


def _english(language: str | None) -> bool:
    return (language or "").lower().startswith("en")


TIEBREAKS: tuple[Tiebreak, ...] = (
    Tiebreak(
        "progressive",
        "Escore acumulado",
        "Progressive score",
        "EA",
        "Prog.",
        "Soma dos pontos acumulados ao fim de cada rodada.",
        "Sum of the running score after each round.",
    ),
    Tiebreak(
        "progressive_corrected",
        "Escore acumulado corrigido",
        "Corrected progressive score",
        "EAC",
        "Prog. corr.",
        "Escore acumulado sem as primeiras rodadas (a leitura em vigor diz quantas).",
        "Progressive score without the first rounds (the reading in force says how many).",
    ),
    Tiebreak(
        "buchholz",
        "Milésimos",
        "Buchholz",
        "Mil.",
        "Buch.",
        "Soma dos pontos finais dos adversários (rodadas não jogadas pelo art. 16 do C.07 da FIDE).",
        "Sum of the opponents' final scores (unplayed rounds by FIDE C.07 article 16).",
    ),
    Tiebreak(
        "buchholz_cut1",
        "Milésimos corte 1",
        "Buchholz cut 1",
        "Mil. c1",
        "Buch. c1",
        "Milésimos sem o menor valor.",
        "Buchholz without the lowest contribution.",
    ),
    Tiebreak(
        "buchholz_median",
        "Milésimos medianos",
        "Median Buchholz",
        "Mil. med.",
        "Buch. med.",
        "Milésimos sem o maior e o menor valor.",
        "Buchholz without the highest and the lowest contribution.",
    ),
    Tiebreak(
        "direct_encounter",
        "Confronto direto",
        "Direct encounter",
        "CD",
        "DE",
        "Entre dois empatados que se enfrentaram: quem fez mais pontos no confronto.",
        "Between two tied players who met: who scored more in their encounter.",
    ),
    Tiebreak(
        "sonneborn_berger",
        "Sonneborn-Berger",
        "Sonneborn-Berger",
        "SB",
        "SB",
        "Pontos finais de cada adversário multiplicados pelo resultado contra ele.",
        "Each opponent's final score times the result against them.",
    ),
    Tiebreak(
        "matches_won",
        "Micro-matches vencidos",
        "Micro-matches won",
        "MV",
        "MW",
        "Número de micro-matches vencidos.",
        "Number of micro-matches won.",
    ),
    Tiebreak(
        "games_won",
        "Partidas vencidas",
        "Games won",
        "PV",
        "GW",
        "Número de partidas vencidas.",
        "Number of games won.",
    ),
    Tiebreak(
        "match_points",
        "Pontos de match",
        "Match points",
        "PM",
        "MP",
        "Pontos de match: vitória, empate ou derrota em cada micro-match.",
        "Match points: a win, draw or loss per micro-match.",
    ),
    Tiebreak(
        "opponents_rating",
        "Rating médio dos adversários",
        "Average rating of opponents",
        "RMA",
        "ARO",
        "Média dos ratings dos adversários enfrentados.",
        "Mean rating of the opponents met.",
    ),
    Tiebreak(
        "truncated_solkoff",
        "Solkoff truncado",
        "Truncated Solkoff",
        "ST",
        "TS",
        "Milésimos sem o adversário mais fraco (FMJD).",
        "Buchholz less the weakest opponent (FMJD).",
    ),
    Tiebreak(
        "riga",
        "Coeficiente de Riga",
        "Riga coefficient",
        "Riga",
        "Riga",
        "Pontos de cada adversário vezes 4, 3, 2, 1 ou 0 conforme o resultado do micro-match.",
        "Each opponent's score times 4, 3, 2, 1 or 0 by the micro-match result.",
    ),
)

TIEBREAK_BY_KEY: dict[str, Tiebreak] = {t.key: t for t in TIEBREAKS}
