"""Command line: the reference engines' contract.

    python -m pairing --dutch INPUT.trf -p [OUTPUT]   pair the next round
    python -m pairing --dutch INPUT.trf -c            re-pair every round, list differences

Exit codes: 0 done; 1 no valid pairing; 3 invalid input; 5 file error.
"""

from __future__ import annotations

import copy
import sys

from . import model as M
from . import trf
from .api import pair_round, pair_trf

EXIT_OK, EXIT_NO_PAIRING, EXIT_INVALID, EXIT_FILE = 0, 1, 3, 5

USAGE = "uso: python -m pairing --dutch ENTRADA.trf -p [SAIDA]\n     python -m pairing --dutch ENTRADA.trf -c\n"


def format_pairs(p: M.Pairing) -> str:
    lines = [str(len(p.boards) + (1 if p.bye is not None else 0))]
    lines += [f"{w} {b}" for w, b in p.boards]
    if p.bye is not None:
        lines.append(f"{p.bye} 0")
    return "\n".join(lines) + "\n"


def check_rounds(data: trf.TrfData) -> list[str]:
    """Re-pair every played round from its history; describe the rounds that differ."""
    state = data.state
    if not state.total_rounds:
        # a finished tournament: as many rounds as the history has
        state.total_rounds = max((len(p.history) for p in state.players), default=0)
    played = 0
    for p in state.players:
        h = list(p.history)
        while h and h[-1] is None:
            h.pop()
        played = max(played, len(h))
    if state.total_rounds < played:
        raise M.InvalidInput("o número de rodadas é maior que o total de rodadas do torneio")
    if not state.initial_color:
        from .convert import build
        from .engine import WHITE

        probe = copy.deepcopy(state)
        probe.total_rounds = played + 1
        t = build(probe)
        state.initial_color = "w" if t.initial_color == WHITE else "b"
    out = []
    for rnd in range(1, played + 1):
        st = copy.deepcopy(state)
        actual_pairs = set()
        actual_bye = None
        absences = {}
        for p in st.players:
            e = p.history[rnd - 1] if len(p.history) >= rnd else None
            if e is None or e.kind in (M.HALF_BYE, M.FULL_BYE, M.ZERO_BYE, M.ABSENT):
                absences[p.id] = e.kind if e is not None else M.ZERO_BYE
            elif e.kind == M.PAB:
                actual_bye = p.id
            elif e.color == "w" or (e.color is None and p.id < (e.opponent or 0)):
                actual_pairs.add((p.id, e.opponent))
            p.history = p.history[: rnd - 1]
        st.absences = absences
        st.round_to_pair = rnd
        try:
            res = pair_round(st, explain=False)
        except M.NoValidPairing:
            out.append(f"Rodada {rnd}: nenhum emparceiramento válido a partir do histórico")
            continue
        got = set(res.boards)
        if got != actual_pairs or res.bye != actual_bye:
            diff_a = sorted(actual_pairs - got)
            diff_g = sorted(got - actual_pairs)
            msg = f"Rodada {rnd}: emparceiramento diferente"
            if diff_a:
                msg += "; no arquivo: " + ", ".join(f"{w}-{b}" for w, b in diff_a)
            if diff_g:
                msg += "; motor: " + ", ".join(f"{w}-{b}" for w, b in diff_g)
            if res.bye != actual_bye:
                msg += f"; bye no arquivo {actual_bye}, motor {res.bye}"
            out.append(msg)
    return out


def _warn(inp: str, data: trf.TrfData) -> None:
    """What the file holds that the engine does not use, on standard error (the pairing still goes out)."""
    for warning in data.warnings:
        sys.stderr.write(f"{inp}: aviso: {warning}\n")


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--dutch" in args:
        args.remove("--dutch")
    mode = None
    output = None
    inp = None
    i = 0
    while i < len(args):
        a = args[i]
        if a == "-p":
            mode = "p"
            if i + 1 < len(args) and not args[i + 1].startswith("-"):
                output = args[i + 1]
                i += 1
        elif a == "-c":
            mode = "c"
        elif a.startswith("-") and a != "-":
            sys.stderr.write(f"opção desconhecida: {a}\n" + USAGE)
            return EXIT_INVALID
        elif inp is None:
            inp = a
        else:
            sys.stderr.write(USAGE)
            return EXIT_INVALID
        i += 1
    if inp is None or mode is None:
        sys.stderr.write(USAGE)
        return EXIT_INVALID
    try:
        data = trf.read(inp)
    except OSError as exc:
        sys.stderr.write(f"erro ao ler {inp}: {exc.strerror or exc}\n")
        return EXIT_FILE
    except M.InvalidInput as exc:
        sys.stderr.write(f"{inp}: {exc}\n")
        return EXIT_INVALID
    try:
        if mode == "c":
            for line in check_rounds(data):
                sys.stdout.write(line + "\n")
            _warn(inp, data)
            return EXIT_OK
        result = pair_trf(data)
    except M.InvalidInput as exc:
        sys.stderr.write(f"{inp}: {exc}\n")
        return EXIT_INVALID
    except M.NoValidPairing as exc:
        sys.stderr.write(f"{inp}: nenhum emparceiramento válido: {exc}\n")
        return EXIT_NO_PAIRING
    _warn(inp, data)
    text = format_pairs(result)
    if output:
        try:
            with open(output, "w") as fh:
                fh.write(text)
        except OSError as exc:
            sys.stderr.write(f"erro ao escrever {output}: {exc.strerror or exc}\n")
            return EXIT_FILE
    else:
        sys.stdout.write(text)
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
