"""What the federation checks of a stage's origin (issue 35.2, 35.4, 36.4), pure: a function of the interchange
file and of what the federation itself recorded of the stage (:class:`StageFacts`: the calendar's record, the
fingerprints the venue sent as it published each round). Called from the verification's entry point.

* **the calendar**: a file without the stage's identifier is not a registered stage (blocking); a stage asked for
  on or after its first day says it was registered late; one not yet accepted into the calendar says so; one
  refused there is blocking;
* **the fingerprints**: each round's pairing and results are fingerprinted again from the file by the rule the
  venue's report uses too (:func:`tournaments.domain.fingerprints.chain_breaks`); a round whose results no longer
  give the fingerprint stored when they were complete is a break (with the reasons the venue's audit log gives;
  without one it is blocking); a pairing's break, relabelled or changed, is the venue's ``pairing_engine``
  condition (always blocking), which the verification reports in the venue's words; a fingerprint the federation
  received that the file does not carry is blocking, and a round published more than once is said;
* **the program of each round**: in a stage run by this product every round's program is recorded by the product
  (its engine, or "edited by hand"), so a round naming another program is a relabelling (blocking). An event
  really imported from another program's file (``tournament.provenance``) is checked for what can be checked
  without pairing it again: no pairing repeated, the colours (single games), a bye at most once per player; the
  rest is "não verificada", and never passes (blocking).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, NamedTuple

from tournaments.domain.fingerprints import PAIRING, RESULTS, ChainBreak, Stored, chain_breaks, stored_chain
from tournaments.domain.interchange import snapshot_from_interchange
from tournaments.domain.text import clean

ARTICLE = "art. 5, 6"
CALENDAR = "calendário"
LISTED = 8


class Note(NamedTuple):
    code: str
    article: str
    message: str
    blocking: bool = True


@dataclass(frozen=True)
class StageFacts:
    """What the federation recorded of the stage the file names (None: the file names none, or an unknown one)."""

    identifier: str
    status: str = "requested"  # requested / accepted / refused
    late: bool = False
    requested_on: date | None = None
    received: Mapping[tuple[int, str], Sequence[str]] = field(default_factory=dict)


def _listed(items: Sequence[str]) -> str:
    text = ", ".join(items[:LISTED])
    return text + (f" e mais {len(items) - LISTED}" if len(items) > LISTED else "")


def _kind(kind: str) -> str:
    return "emparceiramento" if kind == PAIRING else "resultados"


def calendar_findings(data: Mapping[str, Any], stage: StageFacts | None) -> list[Note]:
    t = data.get("tournament") or {}
    named = clean(t.get("stage_id"), 20)
    if not named or stage is None:
        return [
            Note(
                "stage_unregistered",
                CALENDAR,
                "Etapa sem identificador do calendário da federação: o organizador deve pedir o registro da etapa "
                "(com a sua credencial) e enviá-la com esse identificador.",
            )
        ]
    out = []
    if stage.late:
        when = f" em {stage.requested_on:%d/%m/%Y}" if stage.requested_on else ""
        out.append(
            Note(
                "stage_late",
                CALENDAR,
                f"Etapa {stage.identifier} registrada tarde: pedida{when}, depois do início do evento.",
                blocking=False,
            )
        )
    if stage.status == "refused":
        out.append(
            Note(
                "stage_refused",
                CALENDAR,
                f"A etapa {stage.identifier} foi recusada no calendário da federação: não é homologada (o organizador "
                "pode pedi-la de novo, corrigida).",
            )
        )
    elif stage.status != "accepted":
        out.append(
            Note(
                "stage_not_accepted",
                CALENDAR,
                f"A etapa {stage.identifier} ainda não foi aceita no calendário da federação: aceite-a antes de "
                "homologar.",
                blocking=False,
            )
        )
    return out


def _break_findings(chain: Sequence[ChainBreak]) -> list[Note]:
    """The rounds whose results no longer give the fingerprint the file says was stored when published, with the
    reasons it gives (a pairing's break is the venue's ``pairing_engine`` condition, in its words: the same rule,
    :func:`tournaments.domain.fingerprints.chain_breaks`, judges both)."""
    out = []
    for brk in chain:
        if brk.kind != RESULTS:
            continue
        text = (
            f"Rodada {brk.round}: {_kind(brk.kind)} alterado depois de publicado (impressão publicada "
            f"{brk.stored}, agora {brk.now})"
        )
        if brk.reasons:
            message = f"{text}; motivo registrado: {_listed(brk.reasons)}."
        else:
            message = f"{text}, sem motivo registrado."
        out.append(Note("round_changed", ARTICLE, message, brk.blocking))
    return out


def _received_findings(chain: Mapping[int, Stored], received: Mapping[tuple[int, str], Sequence[str]]) -> list[Note]:
    """The file's chain against the fingerprints the federation received as each round was published."""
    missing, differ, twice = [], [], []
    for (number, kind), values in sorted(received.items()):
        stored = chain.get(number, Stored())
        ours = stored.pairing if kind == PAIRING else stored.results
        where = f"rodada {number} ({_kind(kind)})"
        if not ours:
            missing.append(where)
        elif ours not in values:
            differ.append(f"{where}: recebida {values[0]}, no arquivo {ours}")
        if len(values) > 1:
            twice.append(f"{where}: {', '.join(values)}")
    out = []
    if missing:
        out.append(
            Note(
                "fingerprint_missing",
                ARTICLE,
                "A federação recebeu a impressão destas rodadas quando foram publicadas, mas o arquivo não a traz: "
                f"{_listed(missing)}.",
            )
        )
    if differ:
        out.append(
            Note(
                "fingerprint_differs",
                ARTICLE,
                f"O arquivo não é o que foi publicado (impressões recebidas pela federação): {_listed(differ)}.",
            )
        )
    if twice:
        message = f"Publicado mais de uma vez (desfeito e refeito): {_listed(twice)}."
        out.append(Note("published_twice", ARTICLE, message, blocking=False))
    return out


def fingerprint_findings(
    data: Mapping[str, Any], stage: StageFacts | None, chain: Sequence[ChainBreak] | None = None
) -> list[Note]:
    """The file's chain: its results' breaks (``chain``: the file's breaks already judged, else judged here) and
    the fingerprints the federation received as each round was published."""
    snapshot = snapshot_from_interchange(dict(data))
    if chain is None:
        chain = chain_breaks(snapshot)
    received = stage.received if stage is not None else {}
    return _break_findings(chain) + _received_findings(stored_chain(snapshot), received)


def imported_from(data: Mapping[str, Any], engine_name: str) -> Mapping[str, Any] | None:
    """The file's provenance when the event was imported from another program's file, else None."""
    provenance = (data.get("tournament") or {}).get("provenance")
    if not isinstance(provenance, Mapping) or not provenance:
        return None
    return None if provenance.get("program") == engine_name else provenance


def _pairs(data: Mapping[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """(repeated pairings, colour faults, second byes) of the file's rounds, in words."""
    names = {p.get("id"): clean(p.get("name"), 60) for p in data.get("players") or [] if isinstance(p, Mapping)}
    single = (data.get("tournament") or {}).get("format") == "single-game"
    met: Counter[frozenset[Any]] = Counter()
    byes: Counter[Any] = Counter()
    colours: dict[Any, list[str]] = {}
    repeated, faults = [], []
    for r in sorted(
        (r for r in data.get("rounds") or [] if isinstance(r, Mapping)), key=lambda r: r.get("number") or 0
    ):
        for b in r.get("boards") or []:
            a, c = b.get("first"), b.get("second")
            if a is None or c is None:
                continue
            key = frozenset((a, c))
            met[key] += 1
            if met[key] == 2:
                repeated.append(f"{names.get(a, a)} × {names.get(c, c)}")
            if single and not b.get("colourless"):
                colours.setdefault(a, []).append("w")
                colours.setdefault(c, []).append("b")
        if r.get("bye") is not None:
            byes[r["bye"]] += 1
    for pid, seq in colours.items():
        whites = seq.count("w")
        if abs(2 * whites - len(seq)) > 2 or any(len(set(seq[i : i + 3])) == 1 for i in range(len(seq) - 2)):
            faults.append(str(names.get(pid, pid)))
    second = [str(names.get(pid, pid)) for pid, n in byes.items() if n > 1]
    return repeated, faults, second


def program_findings(data: Mapping[str, Any], engine_name: str) -> list[Note]:
    rounds = [r for r in data.get("rounds") or [] if isinstance(r, Mapping)]
    provenance = imported_from(data, engine_name)
    if provenance is None:
        relabelled = [
            f"{r.get('number')} ({clean(r.get('engine') or 'sem nome', 60)})"
            for r in rounds
            if r.get("engine") != engine_name
        ]
        if not relabelled:
            return []
        return [
            Note(
                "program_relabelled",
                ARTICLE,
                "Etapa conduzida neste programa, que registra o programa de cada rodada, mas o arquivo atribui "
                f"rodadas a outro: {_listed(relabelled)}. O rótulo foi mudado no arquivo.",
            )
        ]
    repeated, faults, second = _pairs(data)
    out = []
    if repeated:
        out.append(Note("pairing_repeated", ARTICLE, f"Confrontos repetidos: {_listed(repeated)}."))
    if faults:
        out.append(
            Note("colour_rules", ARTICLE, f"Cores fora das regras (diferença ou 3 seguidas): {_listed(faults)}.")
        )
    if second:
        out.append(Note("bye_twice", ARTICLE, f"Bye dado mais de uma vez a: {_listed(second)}."))
    source = clean(provenance.get("file"), 80) or "arquivo"
    program = clean(provenance.get("program"), 80) or "programa não informado"
    checked = "sem confronto repetido, cores, um bye por jogador, pontos conforme os resultados"
    out.append(
        Note(
            "pairing_not_verified",
            ARTICLE,
            f"Evento importado de {source} (programa {program}): emparceiramento das rodadas não verificada — a "
            f"federação não emparceira de novo outro programa. Verificado: {checked}.",
        )
    )
    return out


def provenance_findings(
    data: Mapping[str, Any],
    stage: StageFacts | None,
    *,
    engine_name: str,
    calendar: bool = True,
    chain: Sequence[ChainBreak] | None = None,
) -> list[Note]:
    """Every finding of the stage's origin (see the module's docstring); ``calendar``: judge the calendar too
    (the federation's server; a file verified alone, ``verify_event``, has no calendar to read); ``chain``: the
    file's breaks, already judged by :func:`tournaments.domain.fingerprints.chain_breaks`."""
    return [
        *(calendar_findings(data, stage) if calendar else []),
        *fingerprint_findings(data, stage, chain),
        *program_findings(data, engine_name),
    ]
