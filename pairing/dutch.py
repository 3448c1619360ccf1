"""FIDE Dutch system (C.04.3, edition applied from 1 February 2026).

The pairing is the optimum of a sequence of maximum-weight matchings whose
edge weights encode the criteria lexicographically, bracket by bracket:

  compatibility (C1-C3, forbidden pairs) > completion and PAB eligibility
  (C2, C4, C5) > pairs in the current bracket (C6) > scores paired in the
  current bracket (C7) > pairs / scores in the next bracket (C8) > unplayed
  games of the PAB assignee (C9) > colour criteria (C10-C13) > repeated
  floats (C14-C17) > their score differences (C18-C21) > the order in which
  the rules generate candidates (S1/S2 transpositions and exchanges).

The same criteria ordering as the reference engine (bbpPairings 6.0.0) is
used, so that the results are identical.  This is an independent Python
implementation; weights are Python integers split into a high part and a
small signed low part (the candidate ordering bits), and compressed for each
matching so that they fit the 127-bit integers of rustworkx.

Speed (the reference recomputes matchings on the whole round):

* the players below the next score group only matter through completability
  (their edges carry nothing but the completion field), so each matching is
  computed on the bracket and the next score group only, and accepted when the
  players it leaves over can still be matched with the rest (a quick
  alternating-path certificate from a complete matching found once, with an
  exact check as fallback; otherwise the whole round is used);
* a matching is skipped when its outcome is already known, and the ties left
  by a matching are broken in the order in which the following steps resolve
  them, so that one matching settles several S1 players;
* round 1 without forbidden pairs or virtual points is S1 v S2 directly.
"""

from __future__ import annotations

from .engine import NOCOLOR, WHITE, EPlayer, ETournament, invert
from .matching import MatchingState

FLOAT_DOWN, FLOAT_UP, FLOAT_NONE = 0, 1, 2


class NoValidPairingError(Exception):
    pass


def bits(x: int) -> int:
    return x.bit_length() if x > 0 else 0


def prefs_compatible(a: int, b: int) -> bool:
    return a != b or a == NOCOLOR or b == NOCOLOR


class Dutch:
    """One pairing run over an ETournament (already ranked and with colour data)."""

    def __init__(self, t: ETournament, reduce: bool = True, progress=None):
        self.t = t
        self.reduce = reduce
        self.no_colour = t.no_colour_criteria
        # progress(players paired so far, players to pair), called as pairs are settled
        self.progress = progress
        self.settled = 0

    def report(self, settled: int, total: int) -> None:
        self.settled = settled
        if self.progress is not None:
            self.progress(settled, total)

    # ------------------------------------------------------------------ basics
    def compatible(self, p0: EPlayer, p1: EPlayer) -> bool:
        if p1.pid in self.forbidden[p0.pid]:
            return False
        k = self.ckey[p0.pid]
        return k is None or k != self.ckey[p1.pid]

    def colour_keys(self) -> None:
        """ckey[pid]: the absolute colour preference that forbids meeting a player
        with the same one (C3), or None (no absolute preference, topscorer in the
        last round, or colour criteria off)."""
        t = self.t
        self.ckey = {}
        last = t.played_rounds + 1 >= t.expected_rounds
        thr = (t.played_rounds * max(t.win, t.draw)) >> 1
        for pid, s in self.sa.items():
            p = t.players[pid]
            if self.no_colour or not p.absolute_pref() or (last and s > thr):
                self.ckey[pid] = None
            else:
                self.ckey[pid] = p.pref

    def get_float(self, p: EPlayer, back: int) -> int:
        t = self.t
        m = p.matches[t.played_rounds - back]
        if not m.played:
            return FLOAT_DOWN if t.points(p, m) > t.loss else FLOAT_NONE
        ps = t.score_acc(p, back)
        os_ = t.score_acc(t.players[m.opponent], back)
        if ps > os_:
            return FLOAT_DOWN
        if ps < os_:
            return FLOAT_UP
        return FLOAT_NONE

    def is_bye_candidate(self, p: EPlayer, bye_score: int) -> bool:
        return self.elig[p.pid] and self.sa[p.pid] <= bye_score

    # ------------------------------------------------------------ edge weights
    def colour_fields(self, player: EPlayer, opp: EPlayer, in_cur: bool):
        """The four colour bits (C10..C13 analogues), player = lower one."""
        if not in_cur or self.no_colour:
            return 0, 0, 0, 0
        a = not player.absolute_imbalance() or not opp.absolute_imbalance() or player.pref != opp.pref
        if not player.absolute_pref() or not opp.absolute_pref() or player.pref != opp.pref:
            b = True
        elif player.imbalance == opp.imbalance:
            b = player.repeated == NOCOLOR or player.repeated != opp.repeated
        else:
            src = opp if player.imbalance > opp.imbalance else player
            b = src.repeated != invert(player.pref)
        c = prefs_compatible(player.pref, opp.pref)
        d = (
            (not player.strong and not player.absolute_pref())
            or (not opp.strong and not opp.absolute_pref())
            or (player.absolute_pref() and opp.absolute_pref())
            or player.pref != opp.pref
        )
        return int(a), int(b), int(c), int(d)

    def edge_weight(
        self, hi: EPlayer, lo: EPlayer, in_cur: bool, in_next: bool, bye_score: int, single_bye: bool
    ) -> int:
        """High part of the edge weight (0 when the pair is not allowed), field by
        field in priority order: the definition that fast_weight and
        outside_weight compute faster (tests/pairing/test_internals.py)."""
        if not self.compatible(hi, lo):
            return 0
        sgsb = self.sgsb
        sgs = self.sgs
        shifts = self.shifts
        sa = self.sa
        shi = sa[hi.pid]
        slo = sa[lo.pid]
        r = 1 + (not self.is_bye_candidate(hi, bye_score)) + (not self.is_bye_candidate(lo, bye_score))
        r = (r << sgsb) | int(in_cur)
        r <<= sgs
        if in_cur:
            r |= 1 << shifts[shi]
        r = (r << sgsb) | int(in_next)
        r <<= sgs
        if in_next:
            r |= 1 << shifts[shi]
        r <<= 2 * sgsb
        if single_bye:
            if shi == bye_score:
                r |= self.unplayed_ranks[hi.played_games]
            if slo == bye_score:
                r += self.unplayed_ranks[lo.played_games]
        a, b, c, d = self.colour_fields(lo, hi, in_cur)
        r = (((((((r << sgsb) | a) << sgsb) | b) << sgsb) | c) << sgsb) | d
        pr = self.t.played_rounds
        f1 = self.f1
        f2 = self.f2
        if pr:
            r <<= sgsb
            if in_cur:
                r += (f1[lo.pid] == FLOAT_DOWN) + (shi <= slo and f1[hi.pid] == FLOAT_DOWN)
            r <<= sgsb
            if in_cur:
                r |= int(not (shi > slo and f1[lo.pid] == FLOAT_UP))
        if pr > 1:
            r <<= sgsb
            if in_cur:
                r += (f2[lo.pid] == FLOAT_DOWN) + (shi <= slo and f2[hi.pid] == FLOAT_DOWN)
            r <<= sgsb
            if in_cur:
                r |= int(not (shi > slo and f2[lo.pid] == FLOAT_UP))
        # Score differences of repeated floats, one round back then two rounds back.
        for back, floats in ((1, f1), (2, f2)):
            if pr < back:
                break
            r <<= sgs
            if in_cur:
                if floats[lo.pid] == FLOAT_DOWN:
                    r += 1 << shifts[slo]
                if floats[hi.pid] == FLOAT_DOWN:
                    r += 1 << shifts[shi]
            r <<= sgs
            if in_cur and not (floats[lo.pid] == FLOAT_UP and shi > slo):
                r |= 1 << shifts[shi]
        return r

    def prepare_fast(self, bye_score: int, single_bye: bool) -> None:
        """Field positions and per-player data for fast_weight."""
        sgsb, sgs = self.sgsb, self.sgs
        pr = self.t.played_rounds
        pos = 0
        P = {}
        if pr > 1:
            P["u2s"] = pos
            pos += sgs
            P["d2s"] = pos
            pos += sgs
        if pr:
            P["u1s"] = pos
            pos += sgs
            P["d1s"] = pos
            pos += sgs
        if pr > 1:
            P["u2"] = pos
            pos += sgsb
            P["d2"] = pos
            pos += sgsb
        if pr:
            P["u1"] = pos
            pos += sgsb
            P["d1"] = pos
            pos += sgsb
        P["cd"] = pos
        pos += sgsb
        P["cc"] = pos
        pos += sgsb
        P["cb"] = pos
        pos += sgsb
        P["ca"] = pos
        pos += sgsb
        P["un"] = pos
        pos += 2 * sgsb
        P["ns"] = pos
        pos += sgs
        P["np"] = pos
        pos += sgsb
        P["cs"] = pos
        pos += sgs
        P["cp"] = pos
        pos += sgsb
        P["top"] = pos
        self.P = P
        self.fast_single = single_bye
        self.fast_bye = bye_score
        info = {}
        for p in self.sorted:
            pid = p.pid
            s = self.sa[pid]
            f1 = self.f1.get(pid, FLOAT_NONE)
            f2 = self.f2.get(pid, FLOAT_NONE)
            unpl = 0
            if single_bye and s == bye_score:
                unpl = self.unplayed_ranks[p.played_games]
            info[pid] = (
                s,
                int(not (self.elig[pid] and s <= bye_score)),
                f1 == FLOAT_DOWN,
                f1 == FLOAT_UP,
                f2 == FLOAT_DOWN,
                f2 == FLOAT_UP,
                unpl,
                self.shifts[s],
            )
        self.info = info

    def fast_weight(self, hi: EPlayer, lo: EPlayer, in_cur: bool, in_next: bool) -> int:
        """edge_weight(hi, lo, in_cur, in_next, bye, single) with the parameters of
        prepare_fast, computed field by field."""
        if not self.compatible(hi, lo):
            return 0
        P = self.P
        ih = self.info[hi.pid]
        il = self.info[lo.pid]
        shi = ih[0]
        slo = il[0]
        r = (1 + ih[1] + il[1]) << P["top"]
        if self.fast_single:
            r += (ih[6] + il[6]) << P["un"]
        if in_next:
            r += (1 << P["np"]) + (1 << (P["ns"] + ih[7]))
            return r
        if not in_cur:
            return r
        r += (1 << P["cp"]) + (1 << (P["cs"] + ih[7]))
        if not self.no_colour:
            a, b, c, d = self.colour_fields(lo, hi, True)
            r += (a << P["ca"]) + (b << P["cb"]) + (c << P["cc"]) + (d << P["cd"])
        pr = self.t.played_rounds
        if pr:
            r += (il[2] + (shi <= slo and ih[2])) << P["d1"]
            r += int(not (shi > slo and il[3])) << P["u1"]
            if il[2]:
                r += 1 << (P["d1s"] + il[7])
            if ih[2]:
                r += 1 << (P["d1s"] + ih[7])
            if not (il[3] and shi > slo):
                r += 1 << (P["u1s"] + ih[7])
        if pr > 1:
            r += (il[4] + (shi <= slo and ih[4])) << P["d2"]
            r += int(not (shi > slo and il[5])) << P["u2"]
            if il[4]:
                r += 1 << (P["d2s"] + il[7])
            if ih[4]:
                r += 1 << (P["d2s"] + ih[7])
            if not (il[5] and shi > slo):
                r += 1 << (P["u2s"] + ih[7])
        return r

    def completion_shift(self) -> int:
        """Number of bits of the edge weight below the completion field."""
        sgsb, sgs = self.sgsb, self.sgs
        p = sgsb + sgs + sgsb + sgs + 2 * sgsb + 4 * sgsb
        pr = self.t.played_rounds
        if pr:
            p += 2 * sgsb + 2 * sgs
        if pr > 1:
            p += 2 * sgsb + 2 * sgs
        return p

    def outside_weight(
        self, hi: EPlayer, lo: EPlayer, bye_score: int, single_bye: bool, top_shift: int, unplayed_shift: int
    ) -> int:
        """edge_weight(hi, lo, False, False, ...) computed directly: only the
        completion field (and the unplayed-games field of the bye assignee)."""
        if not self.compatible(hi, lo):
            return 0
        elig = self.elig
        sa = self.sa
        shi = sa[hi.pid]
        slo = sa[lo.pid]
        r = (1 + (not (elig[hi.pid] and shi <= bye_score)) + (not (elig[lo.pid] and slo <= bye_score))) << top_shift
        if single_bye:
            u = 0
            if shi == bye_score:
                u |= self.unplayed_ranks[hi.played_games]
            if slo == bye_score:
                u += self.unplayed_ranks[lo.played_games]
            r += u << unplayed_shift
        return r

    def exact_completion(self, M, n, top_score):
        """The reference's first matching: complete, with the lowest-scored
        eligible player left over when the number of players is odd."""
        sp = self.sorted
        sa = self.sa
        elig = self.elig
        edges = []
        if n & 1:
            shifts, sgs, sgsb = self.shifts, self.sgs, self.sgsb
            for i in range(n):
                p = sp[i]
                s_p = sa[p.pid]
                for j in range(i):
                    o = sp[j]
                    if self.compatible(p, o):
                        w = 1 + (not elig[p.pid]) + (not elig[o.pid])
                        w <<= sgs
                        w |= shifts[s_p] + shifts[sa[o.pid]]
                        w <<= sgsb
                        w |= int(s_p >= top_score)
                        edges.append((j, i, w))
        else:
            for i in range(n):
                for j in range(i):
                    x = M.outside(j, i)
                    if x is not None:
                        edges.append((j, i, x[0]))
        return M.compute_edges(edges)

    def quick_completion(self, n):
        """A complete matching found greedily (None when not certain to agree with
        the exact computation: then the exact one is used)."""
        sp = self.sorted
        sa = self.sa
        elig = self.elig
        comp = self.compatible
        top = sa[sp[0].pid]
        bye = None
        if n & 1:
            cands = [v for v in range(n - 1, -1, -1) if elig[sp[v].pid]]
            if not cands:
                return None
            bye = cands[0]
            if sa[sp[bye].pid] >= top and sa[sp[-1].pid] < top:
                return None  # the reference's choice then depends on its first matching
        order = [v for v in range(n) if v != bye]
        mate = {}
        free = []
        for i, u in enumerate(order):
            if u in mate:
                continue
            pu = sp[u]
            for v in order[i + 1 :]:
                if v not in mate and comp(pu, sp[v]):
                    mate[u] = v
                    mate[v] = u
                    break
            else:
                free.append(u)
        # repair along augmenting paths of length three
        while free:
            a = free.pop()
            pa = sp[a]
            done = False
            for k in range(len(free) - 1, -1, -1):
                b = free[k]
                if comp(pa, sp[b]):
                    mate[a] = b
                    mate[b] = a
                    free.pop(k)
                    done = True
                    break
            if done:
                continue
            for x in order:
                y = mate.get(x)
                if y is None or x == a or not comp(pa, sp[x]):
                    continue
                py = sp[y]
                for k in range(len(free) - 1, -1, -1):
                    b = free[k]
                    if b != x and comp(py, sp[b]):
                        mate[a] = x
                        mate[x] = a
                        mate[y] = b
                        mate[b] = y
                        free.pop(k)
                        done = True
                        break
                if done:
                    break
            if not done:
                return None
        out = list(range(n))
        for u, v in mate.items():
            out[u] = v
        return out

    # ----------------------------------------------------------------- colour
    def first_colour_difference(self, p0: EPlayer, p1: EPlayer):
        a = [m.color for m in p0.matches if m.played]
        b = [m.color for m in p1.matches if m.played]
        i, j = len(a) - 1, len(b) - 1
        while i >= 0 and j >= 0 and a[i] == b[j]:
            i -= 1
            j -= 1
        return (a[i] if i >= 0 else NOCOLOR), (b[j] if j >= 0 else NOCOLOR)

    def neutral_colour(self, p: EPlayer, o: EPlayer) -> int:
        if prefs_compatible(p.pref, o.pref):
            if p.pref != NOCOLOR:
                return p.pref
            if o.pref != NOCOLOR:
                return invert(o.pref)
            return NOCOLOR
        if p.absolute_pref() and (p.imbalance > o.imbalance or not o.absolute_pref()):
            return p.pref
        if o.absolute_pref() and (o.imbalance > p.imbalance or not p.absolute_pref()):
            return invert(o.pref)
        if p.strong and not o.strong:
            return p.pref
        if o.strong and not p.strong:
            return invert(o.pref)
        c0, c1 = self.first_colour_difference(p, o)
        if c0 != NOCOLOR and c1 != NOCOLOR:
            return c1
        return NOCOLOR

    def ranked_before(self, p: EPlayer, o: EPlayer) -> bool:
        """acceleratedScoreRankCompare(p, o): p ranks below o."""
        return (self.sa[p.pid], o.rank) < (self.sa[o.pid], p.rank)

    def choose_colour(self, p: EPlayer, o: EPlayer) -> tuple[int, str]:
        """Colour of p against o, and the rule (E.1..E.5) that decided."""
        t = self.t
        res = self.neutral_colour(p, o)
        if res != NOCOLOR:
            return res, "pref"
        if p.pref == NOCOLOR:
            if self.ranked_before(p, o):
                return (t.initial_color if o.rank & 1 else invert(t.initial_color)), "E5"
            return (invert(t.initial_color) if p.rank & 1 else t.initial_color), "E5"
        if self.ranked_before(p, o):
            return invert(o.pref), "E4"
        return p.pref, "E4"

    # ------------------------------------------------------------------- main
    def run(self):
        t = self.t
        pr = t.played_rounds
        self.forbidden = t.resolve_forbidden(pr)
        sorted_players: list[EPlayer] = []
        for p in t.players:
            if p.valid:
                if len(p.matches) <= pr:
                    sorted_players.append(p)
                for m in p.matches:
                    if m.played:
                        self.forbidden[p.pid].add(m.opponent)
        self.sa = {p.pid: t.score_acc(p) for p in t.players if p.valid}
        sa = self.sa
        self.colour_keys()
        sorted_players.sort(key=lambda p: (-sa[p.pid], p.rank))
        self.sorted = sorted_players
        n = len(sorted_players)
        if n == 0:
            return [], None
        self.elig = {p.pid: t.eligible_for_bye(p) for p in sorted_players}
        self.f1 = {}
        self.f2 = {}
        for p in sorted_players:
            if pr:
                self.f1[p.pid] = self.get_float(p, 1)
            if pr > 1:
                self.f2[p.pid] = self.get_float(p, 2)

        # score-group bit layout
        shifts = {}
        sgs = 0
        max_size = 0
        rep = 0
        for idx in range(n - 1, -1, -1):
            rep += 1
            cur = sa[sorted_players[idx].pid]
            if idx == 0 or cur < sa[sorted_players[idx - 1].pid]:
                shifts[cur] = sgs
                max_size = max(max_size, rep)
                sgs += bits(rep)
                rep = 0
        self.shifts = shifts
        self.sgs = sgs
        self.sgsb = sgsb = bits(max_size)
        self.unplayed_ranks: dict[int, int] = {}

        top_shift = self.completion_shift()
        unplayed_shift = top_shift - (sgsb + sgs + sgsb + sgs + 2 * sgsb)
        top_score = sa[sorted_players[0].pid]
        params = [0, False]  # bye assignee score, single downfloater is the bye

        def outside(u, v):
            w = self.outside_weight(
                sorted_players[u], sorted_players[v], params[0], params[1], top_shift, unplayed_shift
            )
            return (w, 0) if w else None

        M = MatchingState(n, outside)
        M.compat = lambda u, v: self.compatible(sorted_players[u], sorted_players[v])
        M.b_split = 2 * sgsb + 1
        setw = M.set

        # round 1 with nothing to distinguish the players: S1 v S2 in rating order
        if (
            pr == 0
            and sa[sorted_players[0].pid] == sa[sorted_players[-1].pid]
            and not any(self.forbidden[p.pid] for p in sorted_players)
            and all(self.elig[p.pid] for p in sorted_players)
        ):
            half = n // 2
            self.paired_in = {p.pid: sa[p.pid] for p in sorted_players}
            pairs = []
            for i in range(half):
                p, o = sorted_players[i], sorted_players[i + half]
                a, b = (p, o) if p.pid < o.pid else (o, p)
                col, _ = self.choose_colour(a, b)
                pairs.append((a.pid, b.pid) if col == WHITE else (b.pid, a.pid))
            bye = sorted_players[-1].pid if n & 1 else None
            return self.board_order(pairs), bye

        # completion check, bye assignee score
        mate = self.quick_completion(n) if self.reduce else None
        if mate is None:
            mate = self.exact_completion(M, n, top_score)
        unmatched = [v for v in range(n) if mate[v] == v]
        if len(unmatched) > 1 or (unmatched and not self.elig[sorted_players[unmatched[0]].pid]):
            raise NoValidPairingError(
                "The players could not be simultaneously matched while satisfying all absolute criteria."
            )
        bye_score = 0
        single_bye = False
        if n & 1:
            bv = unmatched[0]
            bye_score = sa[sorted_players[bv].pid]
            if bye_score >= top_score:
                single_bye = True
                for v in range(n):
                    if sa[sorted_players[v].pid] < top_score:
                        break
                    if sa[sorted_players[mate[v]].pid] < top_score:
                        single_bye = False
                        break
            counts = sorted((p.played_games for p in sorted_players if sa[p.pid] == bye_score), reverse=True)
            for rank, g in enumerate(counts):
                self.unplayed_ranks[g] = rank
            params[0] = bye_score
            params[1] = single_bye
        M.base_mate = {v: mate[v] for v in range(n) if mate[v] != v}
        M.mate = list(range(n))

        initial_single_bye = single_bye
        self.prepare_fast(bye_score, single_bye)
        low_mask = (1 << top_shift) - 1
        nbc = [not self.is_bye_candidate(p, bye_score) for p in sorted_players]
        matching_by_id: dict[int, int] = {}
        self.paired_in: dict[int, int] = {}
        self.moved_down: dict[int, list] = {}
        pbi: list[EPlayer] = []
        vi: list[int] = []
        nxt = 0
        while nxt < n and sa[sorted_players[nxt].pid] >= top_score:
            pbi.append(sorted_players[nxt])
            vi.append(len(vi))
            nxt += 1
        matched = [False] * n
        sg_begin = 0
        sg_begin_v = 0
        stable = mate

        while len(pbi) > 1 or nxt != n:
            nsgb = len(pbi)
            nsgb_v = sg_begin_v + (nsgb - sg_begin)
            sg_it = nxt
            cur_score = sa[pbi[nsgb - 1].pid]
            while nxt != n and sa[sorted_players[nxt].pid] >= sa[sorted_players[sg_it].pid]:
                pbi.append(sorted_players[nxt])
                vi.append(vi[-1] + 1)
                nxt += 1
            size = len(pbi)
            if self.fast_single is not single_bye:
                self.prepare_fast(bye_score, single_bye)
            fast = self.fast_weight
            M.begin_bracket()
            reduced = (
                self.reduce
                and not initial_single_bye
                and not ((n & 1) and sg_it != n and bye_score >= sa[sorted_players[sg_it].pid])
            )

            def compute(tb=None):
                if reduced:
                    return M.compute_within(vi, low_mask, nbc, top_shift, tb)
                return M.compute(tb)

            # base edge weights: bew[(larger, smaller)] over bracket + next group
            bew: dict[tuple[int, int], int | None] = {}
            E = M.E
            xadj = M.xadj
            for lg in range(sg_begin, size):
                plg = pbi[lg]
                vlg = vi[lg]
                in_cur = lg < nsgb
                xl = xadj[vlg]
                for sm in range(lg):
                    w = fast(pbi[sm], plg, in_cur, not in_cur)
                    vs = vi[sm]
                    # vertex indices grow with the player index: vs < vlg
                    if w:
                        bew[(lg, sm)] = w
                        E[(vs, vlg)] = (w, 0)
                    else:
                        E[(vs, vlg)] = None
                    xl.add(vs)
                    xadj[vs].add(vlg)

            def ewc(sm, lg, sm_ri, rem_pairs):
                r = bew.get((lg, sm))
                if not r:
                    return None
                add = ((int(sm_ri < rem_pairs) << (2 * sgsb)) - sm_ri) << 1
                return (r, add)

            stable = None
            if reduced and not nsgb & 1:
                # an even bracket that can be paired within itself: its pairing does not depend
                # on the next score group, so every matching of this bracket leaves that group out
                bracket_v = vi[:nsgb]
                stable = M.try_close(bracket_v, low_mask, nbc, top_shift)
                if stable is not None:

                    def compute(tb=None):
                        return M.compute_within(bracket_v, low_mask, nbc, top_shift, tb)

            if stable is None:
                stable = compute()

            def in_bracket(x):
                return sg_begin_v <= x < nsgb_v

            # moved-down players to pair in this bracket
            md_score = None
            rem_md = rem_md_matched = 0
            for pi in range(sg_begin):
                if pi == 0 or sa[pbi[pi].pid] < md_score:
                    md_score = sa[pbi[pi].pid]
                    rem_md_matched = 0
                    rem_md = 0
                    j = pi
                    while sa[pbi[j].pid] >= md_score:
                        rem_md += 1
                        if in_bracket(stable[vi[j]]):
                            rem_md_matched += 1
                        j += 1
                if not rem_md_matched:
                    continue
                pv = vi[pi]
                if rem_md <= rem_md_matched:
                    matched[pv] = True
                    continue
                rem_md -= 1
                if not in_bracket(stable[pv]):
                    for oi in range(sg_begin, nsgb):
                        w = bew.get((oi, pi))
                        if w:
                            setw(pv, vi[oi], (w, 1))
                    stable = compute()
                if in_bracket(stable[pv]):
                    matched[pv] = True
                    rem_md_matched -= 1
                    for oi in range(sg_begin, nsgb):
                        w = bew.get((oi, pi))
                        if w:
                            setw(pv, vi[oi], (w, (nsgb - sg_begin) + 1))

            # opponents of the moved-down players
            for pi in range(sg_begin):
                pv = vi[pi]
                if not matched[pv]:
                    continue
                best = None
                for oi in range(sg_begin, nsgb):
                    if not matched[vi[oi]] and bew.get((oi, pi)):
                        best = vi[oi]
                        break
                if stable[pv] != best:
                    addend = size
                    for oi in range(nsgb - 1, sg_begin - 1, -1):
                        ov = vi[oi]
                        if matched[ov]:
                            continue
                        w = bew.get((oi, pi))
                        if w:
                            setw(pv, ov, (w, addend))
                            addend += 1
                    tb = []
                    for pj in range(pi + 1, sg_begin):
                        if matched[vi[pj]]:
                            tb.append(
                                (
                                    vi[pj],
                                    [
                                        vi[oi]
                                        for oi in range(sg_begin, nsgb)
                                        if not matched[vi[oi]] and bew.get((oi, pj))
                                    ],
                                )
                            )
                    stable = compute(tb)
                mv = stable[pv]
                matched[mv] = True
                M.finalize(pv, mv)
                self.report(self.settled + 2, n)

            # remainder
            remainder: list[int] = []
            rem_pairs = 0
            for pi in range(sg_begin, nsgb):
                pv = vi[pi]
                if stable[pv] < sg_begin_v:
                    continue
                remainder.append(pi)
                if stable[pv] < pv:
                    rem_pairs += 1
            R = len(remainder)
            for oidx in range(R):
                oi = remainder[oidx]
                ov = vi[oi]
                for ridx in range(R):
                    pi = remainder[ridx]
                    if oi <= pi:
                        break
                    setw(vi[pi], ov, ewc(pi, oi, ridx, rem_pairs))
            stable = compute()

            def forward(v):
                return v < stable[v] < nsgb_v

            exchange_count = 0
            for ridx in range(min(rem_pairs, R)):
                pv = vi[remainder[ridx]]
                if not forward(pv):
                    exchange_count += 1

            # lower players of the higher group to be exchanged
            ex_rem = exchange_count
            pri = rem_pairs
            it = rem_pairs
            while it != 0 and ex_rem:
                opp_it = it
                pri -= 1
                it -= 1
                pi = remainder[it]
                pv = vi[pi]
                if forward(pv):
                    for k in range(opp_it, R):
                        w = ewc(pi, remainder[k], pri, rem_pairs)
                        if w:
                            setw(pv, vi[remainder[k]], (w[0], w[1] - 1))
                    stable = compute()
                exchange = not forward(pv)
                ex_rem -= exchange
                for k in range(it + 1, R):
                    if exchange:
                        bew.pop((remainder[k], pi), None)
                    setw(pv, vi[remainder[k]], ewc(pi, remainder[k], pri, rem_pairs))

            # higher players of the lower group to be exchanged
            ex_rem = exchange_count
            ri = rem_pairs
            for it in range(rem_pairs, R):
                if not ex_rem > 1:
                    break
                pi = remainder[it]
                pv = vi[pi]
                already = forward(pv)
                if not already:
                    for k in range(it + 1, R):
                        w = ewc(pi, remainder[k], ri, rem_pairs)
                        if w:
                            setw(pv, vi[remainder[k]], (w[0], w[1] + 1))
                    stable = compute()
                exchange = forward(pv)
                if exchange:
                    ex_rem -= 1
                    for k in range(it):
                        bew.pop((pi, remainder[k]), None)
                        setw(pv, vi[remainder[k]], None)
                    for oi in range(nsgb, size):
                        bew.pop((oi, pi), None)
                        setw(pv, vi[oi], None)
                if not already:
                    for k in range(it + 1, R):
                        setw(pv, vi[remainder[k]], ewc(pi, remainder[k], ri, rem_pairs))
                ri += 1

            # finalize the exchanges
            for a in range(R):
                pa = remainder[a]
                pv = vi[pa]
                fa = forward(pv)
                for c in range(a + 1, R):
                    pc = remainder[c]
                    ov = vi[pc]
                    if not fa or forward(ov):
                        bew.pop((pc, pa), None)
                    w = bew.get((pc, pa))
                    setw(pv, ov, (w, 0) if w else None)

            # opponents of the first-group players
            if reduced:
                rem_active = [vi[pi] for pi in remainder if not matched[vi[pi]]]
                s1_count = sum(1 for v in rem_active if forward(v))
                if rem_active and 2 * s1_count == len(rem_active):
                    # nobody of the remainder floats: its pairing does not depend
                    # on the other players
                    M.close_subset(rem_active, low_mask)
                    sub_vi = rem_active

                    def compute(tb=None):
                        return M.compute_within(sub_vi, low_mask, nbc, top_shift, tb)

            for pi in remainder:
                pv = vi[pi]
                if forward(pv):
                    best = None
                    for oi in remainder:
                        if oi > pi and not matched[vi[oi]] and bew.get((oi, pi)):
                            best = vi[oi]
                            break
                    if stable[pv] != best and pv not in M.covered:
                        addend = 0
                        for oi in reversed(remainder):
                            ov = vi[oi]
                            if oi <= pi or matched[ov]:
                                continue
                            w = bew.get((oi, pi))
                            if w:
                                setw(pv, ov, (w, addend))
                            addend += 1
                        tb = []
                        for pj in remainder:
                            if pj > pi and forward(vi[pj]):
                                tb.append(
                                    (
                                        vi[pj],
                                        [
                                            vi[oi]
                                            for oi in remainder
                                            if oi > pj and not matched[vi[oi]] and bew.get((oi, pj))
                                        ],
                                    )
                                )
                        stable = compute(tb)
                    mv = stable[pv]
                    matched[pv] = True
                    matched[mv] = True
                    M.finalize(pv, mv)
                    self.report(self.settled + 2, n)

            # next bracket
            new_pbi: list[EPlayer] = []
            new_vi: list[int] = []
            sg_begin = 0
            single_bye = bool((n & 1) and sg_it != n and bye_score >= sa[sorted_players[sg_it].pid])
            for pi in range(size):
                pv = vi[pi]
                if pi < nsgb and matched[pv]:
                    a = pbi[pi]
                    b = sorted_players[stable[pv]]
                    matching_by_id[a.pid] = b.pid
                    matching_by_id[b.pid] = a.pid
                    self.paired_in[a.pid] = self.paired_in[b.pid] = cur_score
                else:
                    new_pbi.append(pbi[pi])
                    new_vi.append(pv)
                    if pi < nsgb:
                        sg_begin += 1
                        self.moved_down.setdefault(pbi[pi].pid, []).append(
                            (cur_score, nsgb, sum(1 for q in range(nsgb) if matched[vi[q]]))
                        )
                    if single_bye and sa[sorted_players[stable[pv]].pid] < sa[sorted_players[sg_it].pid]:
                        single_bye = False
            pbi = new_pbi
            vi = new_vi
            sg_begin_v = nsgb_v

        pairs = []
        bye = None
        for p in sorted_players:
            m = matching_by_id.get(p.pid)
            if m is not None:
                if p.pid < m:
                    col, _ = self.choose_colour(p, t.players[m])
                    if col == WHITE:
                        pairs.append((p.pid, m))
                    else:
                        pairs.append((m, p.pid))
            else:
                bye = p.pid
                self.paired_in[p.pid] = sa[p.pid]
        pairs = self.board_order(pairs)
        self.report(n, n)
        return pairs, bye

    def board_order(self, pairs):
        t = self.t

        def key(pair):
            w, b = pair
            pw, pb = t.players[w], t.players[b]
            # unacceleratedScoreRankCompare(pw, pb): pw below pb
            if (pw.score, pb.rank) < (pb.score, pw.rank):
                hi, lo = pb, pw
            else:
                hi, lo = pw, pb
            return (-hi.score, -lo.score, hi.rank)

        return sorted(pairs, key=key)
