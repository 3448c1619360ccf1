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
* a bracket (or its remainder, once its S1 players are known) whose players would
  all meet the next score group alike is computed without that group: which
  players float then changes nothing below (``MatchingState.rows_alike``);
  otherwise too, and each of its matchings is accepted when the players it floats
  are shown (each with a player of that group, the group's others in pairs, the
  rest completed) to fill the next bracket with as many pairs as any could (C8,
  the only criterion there that depends on who floats): it is then the best
  matching of the whole round; one not shown so is computed with the group;
* the remainder's order weights (who leads its pairs) first favour only pairs led
  by its first players, a matching of few distinct weights: when each of them
  leads a pair, the earliest leaders are chosen and nobody is exchanged;
* once the S1 players of a remainder are known, their edges to everyone outside
  it go (every optimal matching pairs them in the remainder);
* a matching is skipped when its outcome is already known, and the ties left
  by a matching are broken in the order in which the following steps resolve
  them, so that one matching settles several S1 players (the ranked prefixes
  adapt to what the last matching skipped, or rank just the predicted partner
  when each player takes its first free candidate);
* round 1 without forbidden pairs is S1 v S2 in each (accelerated) score group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import islice

from .engine import NOCOLOR, WHITE, EPlayer, ETournament, invert
from .matching import LazyTiebreak, MatchingState, Tiebreak, Weight

FLOAT_DOWN, FLOAT_UP, FLOAT_NONE = 0, 1, 2

# progress(players paired so far, players to pair)
Progress = Callable[[int, int], None]


class NoValidPairingError(Exception):
    pass


def bits(x: int) -> int:
    return x.bit_length() if x > 0 else 0


def prefs_compatible(a: int, b: int) -> bool:
    return a != b or a == NOCOLOR or b == NOCOLOR


class _Walk:
    """What ``Dutch.run`` carries from one bracket to the next and between the phases of one bracket: the
    players in pairing order (``sp``, vertex ``i`` is ``sp[i]``), the matching, the bracket being paired
    (its players and their vertices; ``stable``, the last matching computed) and the pairs made so far."""

    def __init__(self, sorted_players: list[EPlayer], score: dict[int, int], count_bits: int) -> None:
        self.sp = sorted_players
        self.n = len(sorted_players)
        self.score = score
        self.count_bits = count_bits
        self.M: MatchingState
        # the completion check
        self.bye_score = 0
        self.single_bye = False
        self.initial_single_bye = False
        self.low_mask = 0
        self.not_bye_candidate: list[bool] = []
        # the walk down the brackets
        self.matching_by_id: dict[int, int] = {}
        self.bracket: list[EPlayer] = []  # the moved-down players, the residents, then the next score group
        self.vertex: list[int] = []
        self.nxt = 0  # the first player below the bracket
        self.matched = [False] * self.n
        self.moved_down_count = 0
        self.residents_vertex = 0
        self.stable: list[int] = []
        # the bracket being paired
        self.next_group: range = range(0)
        self.next_group_start = 0
        self.next_group_vertex = 0
        self.next_group_first = 0
        self.cur_score = 0
        self.size = 0
        self.reduced = False
        self.within = False
        self.compute: Callable[..., list[int]]
        # ordered_weight(sm, lg, sm_ri, rem_pairs): the weight of the edge (lg, sm) with the order bits of the
        # remainder (sm its sm_ri-th player); made with the bracket's base weights (a closure: the hot path)
        self.ordered_weight: Callable[[int, int, int, int], Weight | None]
        self.base_weight: dict[tuple[int, int], int | None] = {}
        self.residents: list[int] = []
        self.group: list[int] = []
        self.remainder: list[int] = []
        self.rem_pairs = 0

    def computing_within(self, subset: list[int]) -> Callable[..., list[int]]:
        """compute() restricted to ``subset`` (the caller knows it exact, or restricted it
        with the next score group: when a matching is not shown to fill that group as well
        as any, it and the following ones are computed on the bracket and that group)."""
        within_subset = [subset]
        M = self.M

        def compute_subset(tb: Tiebreak | None = None) -> list[int]:
            mate = M.compute_within(within_subset[0], self.low_mask, self.not_bye_candidate, tb)
            if mate is None:
                M.forget_subset()
                within_subset[0] = self.vertex
                mate = M.compute_within(self.vertex, self.low_mask, self.not_bye_candidate, tb)
                assert mate is not None
            if self.reduced:
                return mate
            # nobody below the next score group: "matched outside" is left unmatched
            n = self.n
            return [v if m == n else m for v, m in enumerate(mate)]

        return compute_subset

    def in_bracket(self, x: int) -> bool:
        return self.residents_vertex <= x < self.next_group_vertex

    def forward(self, v: int) -> bool:
        """Whether ``v`` leads its pair in the last matching (a first-group player of the remainder)."""
        return v < self.stable[v] < self.next_group_vertex

    def first_free(self, pi: int, candidates: Iterable[int]) -> int | None:
        """The vertex of the first of ``candidates`` (bracket indices) not matched yet that may meet ``pi``."""
        matched, vertex, base_weight = self.matched, self.vertex, self.base_weight
        for oi in candidates:
            if not matched[vertex[oi]] and base_weight.get((oi, pi)):
                return vertex[oi]
        return None

    def weigh_to_residents(self, pi: int, pv: int, low: int) -> None:
        """The edges of moved-down player ``pi`` (vertex ``pv``) to the residents, with ``low`` as their low
        part."""
        for oi in range(self.moved_down_count, self.next_group_start):
            weight = self.base_weight.get((oi, pi))
            if weight:
                self.M.set(pv, self.vertex[oi], (weight, low))

    def drop_edges_of_exchanged(self, it: int, pi: int, pv: int) -> None:
        """A second-group player moved to the first group by an exchange (the ``it``-th of the remainder): no
        edge to the remainder's players before it, nor to the next score group."""
        remainder, vertex, base_weight, set_weight = self.remainder, self.vertex, self.base_weight, self.M.set
        for k in range(it):
            base_weight.pop((pi, remainder[k]), None)
            set_weight(pv, vertex[remainder[k]], None)
        for oi in range(self.next_group_start, self.size):
            base_weight.pop((oi, pi), None)
            set_weight(pv, vertex[oi], None)

    def moved_down_of_score(self, pi: int, moved_down_score: int) -> tuple[int, int]:
        """How many moved-down players from ``pi`` on have that score, and how many of them the last matching
        pairs in the bracket."""
        left = paired = 0
        j = pi
        while self.score[self.bracket[j].pid] >= moved_down_score:
            left += 1
            if self.in_bracket(self.stable[self.vertex[j]]):
                paired += 1
            j += 1
        return left, paired


class Dutch:
    """One pairing run over an ETournament (already ranked and with colour data)."""

    def __init__(self, t: ETournament, reduce: bool = True, progress: Progress | None = None) -> None:
        self.t = t
        self.reduce = reduce
        self.no_colour = t.no_colour_criteria
        # progress(players paired so far, players to pair), called as pairs are settled
        self.progress = progress
        self.settled = 0
        # filled by run() (check_pairing and the tests fill the first ones themselves)
        self.forbidden: list[set[int]] = []
        self.pairing_score: dict[int, int] = {}  # pid -> score with the virtual points of acceleration
        self.ckey: dict[int, int | None] = {}
        self.sorted: list[EPlayer] = []
        self.bye_eligible: dict[int, bool] = {}
        self.float_1: dict[int, int] = {}  # pid -> FLOAT_DOWN / FLOAT_UP / FLOAT_NONE, one round back
        self.float_2: dict[int, int] = {}  # two rounds back
        self.shifts: dict[int, int] = {}  # score -> its bit in the score fields
        self.score_bits = 0  # width of a score field
        self.count_bits = 0  # width of a count field
        self.unplayed_ranks: dict[int, int] = {}
        self.positions: dict[str, int] = {}
        self.info: dict[int, tuple[int, int, bool, bool, bool, bool, int, int]] = {}
        self.fast_single = False
        self.fast_bye = 0
        self.outside_bye_score = 0  # the bye assignee's score, for outside_weight
        self.outside_single_bye = False  # the single downfloater is the bye assignee
        self.paired_in: dict[int, int] = {}  # pid -> score of the bracket where the player was paired
        self.moved_down: dict[int, list[tuple[int, int, int]]] = {}  # pid -> (bracket score, size, pairs)

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
        for pid, s in self.pairing_score.items():
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
        return self.bye_eligible[p.pid] and self.pairing_score[p.pid] <= bye_score

    # ------------------------------------------------------------ edge weights
    def colour_fields(self, player: EPlayer, opp: EPlayer, in_cur: bool) -> tuple[int, int, int, int]:
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

    # The edge weight is one integer of bit fields, highest priority on top. WEIGHT_LAYOUT is its only
    # definition: field_positions() places the fields from it, edge_weight() fills them one by one, and the
    # fast paths (fast_weight, outside_weight) use the same positions (tests/pairing/test_internals.py checks
    # that they give edge_weight's value).
    def weight_layout(self) -> list[tuple[str, int]]:
        """The fields below the completion field, highest priority first, with their widths in bits."""
        count, scores = self.count_bits, self.score_bits
        played = self.t.played_rounds
        fields = [
            ("current_pairs", count),  # C6: a pair in the current bracket
            ("current_scores", scores),  # C7: the score paired in the current bracket
            ("next_pairs", count),  # C8: a pair in the next bracket
            ("next_scores", scores),  # C8: the score paired in the next bracket
            ("unplayed", 2 * count),  # C9: the bye assignee's unplayed games
            ("colour_imbalance", count),  # C10
            ("colour_absolute", count),  # C11
            ("colour_preference", count),  # C12
            ("colour_strong", count),  # C13
        ]
        if played:
            fields += [("down_1", count), ("up_1", count)]  # C14, C16: repeated floats, one round back
        if played > 1:
            fields += [("down_2", count), ("up_2", count)]  # C15, C17: two rounds back
        if played:
            fields += [("down_1_scores", scores), ("up_1_scores", scores)]  # C18, C20: their scores
        if played > 1:
            fields += [("down_2_scores", scores), ("up_2_scores", scores)]  # C19, C21
        return fields

    def field_positions(self) -> dict[str, int]:
        """Bit position of every field of weight_layout, and of the completion field on top."""
        positions = {}
        pos = 0
        for name, width in reversed(self.weight_layout()):
            positions[name] = pos
            pos += width
        positions["completion"] = pos
        return positions

    def edge_weight(
        self, hi: EPlayer, lo: EPlayer, in_cur: bool, in_next: bool, bye_score: int, single_bye: bool
    ) -> int:
        """The edge weight (0 when the pair is not allowed), field by field: the definition."""
        if not self.compatible(hi, lo):
            return 0
        shifts = self.shifts
        score = self.pairing_score
        s_hi = score[hi.pid]
        s_lo = score[lo.pid]
        value = {
            "completion": 1 + (not self.is_bye_candidate(hi, bye_score)) + (not self.is_bye_candidate(lo, bye_score)),
            "current_pairs": int(in_cur),
            "current_scores": (1 << shifts[s_hi]) if in_cur else 0,
            "next_pairs": int(in_next),
            "next_scores": (1 << shifts[s_hi]) if in_next else 0,
            "unplayed": 0,
        }
        if single_bye:
            if s_hi == bye_score:
                value["unplayed"] += self.unplayed_ranks[hi.played_games]
            if s_lo == bye_score:
                value["unplayed"] += self.unplayed_ranks[lo.played_games]
        (
            value["colour_imbalance"],
            value["colour_absolute"],
            value["colour_preference"],
            value["colour_strong"],
        ) = self.colour_fields(lo, hi, in_cur)
        for back, floats in ((1, self.float_1), (2, self.float_2)):
            if self.t.played_rounds < back:
                break
            down = up = down_scores = up_scores = 0
            if in_cur:
                down = (floats[lo.pid] == FLOAT_DOWN) + (s_hi <= s_lo and floats[hi.pid] == FLOAT_DOWN)
                up = int(not (s_hi > s_lo and floats[lo.pid] == FLOAT_UP))
                if floats[lo.pid] == FLOAT_DOWN:
                    down_scores += 1 << shifts[s_lo]
                if floats[hi.pid] == FLOAT_DOWN:
                    down_scores += 1 << shifts[s_hi]
                if up:
                    up_scores = 1 << shifts[s_hi]
            value[f"down_{back}"] = down
            value[f"up_{back}"] = up
            value[f"down_{back}_scores"] = down_scores
            value[f"up_{back}_scores"] = up_scores
        positions = self.field_positions()
        return sum(v << positions[name] for name, v in value.items())

    def prepare_fast(self, bye_score: int, single_bye: bool) -> None:
        """Field positions and per-player data for fast_weight."""
        self.positions = self.field_positions()
        self.fast_single = single_bye
        self.fast_bye = bye_score
        info = {}
        for p in self.sorted:
            pid = p.pid
            s = self.pairing_score[pid]
            f1 = self.float_1.get(pid, FLOAT_NONE)
            f2 = self.float_2.get(pid, FLOAT_NONE)
            unplayed = 0
            if single_bye and s == bye_score:
                unplayed = self.unplayed_ranks[p.played_games]
            info[pid] = (
                s,
                int(not (self.bye_eligible[pid] and s <= bye_score)),
                f1 == FLOAT_DOWN,
                f1 == FLOAT_UP,
                f2 == FLOAT_DOWN,
                f2 == FLOAT_UP,
                unplayed,
                self.shifts[s],
            )
        # per player: (score, not a bye candidate, down 1, up 1, down 2, up 2, unplayed rank, score shift)
        self.info = info

    def fast_weight(self, hi: EPlayer, lo: EPlayer, in_cur: bool, in_next: bool) -> int:
        """edge_weight(hi, lo, in_cur, in_next, bye, single) with the parameters of
        prepare_fast: the same fields at the same positions, from precomputed player data."""
        if not self.compatible(hi, lo):
            return 0
        P = self.positions
        ih = self.info[hi.pid]
        il = self.info[lo.pid]
        s_hi = ih[0]
        s_lo = il[0]
        r = (1 + ih[1] + il[1]) << P["completion"]
        if self.fast_single:
            r += (ih[6] + il[6]) << P["unplayed"]
        if in_next:
            r += (1 << P["next_pairs"]) + (1 << (P["next_scores"] + ih[7]))
            return r
        if not in_cur:
            return r
        r += (1 << P["current_pairs"]) + (1 << (P["current_scores"] + ih[7]))
        if not self.no_colour:
            a, b, c, d = self.colour_fields(lo, hi, True)
            r += (
                (a << P["colour_imbalance"])
                + (b << P["colour_absolute"])
                + (c << P["colour_preference"])
                + (d << P["colour_strong"])
            )
        played = self.t.played_rounds
        if played:
            r += (il[2] + (s_hi <= s_lo and ih[2])) << P["down_1"]
            up = not (s_hi > s_lo and il[3])
            r += int(up) << P["up_1"]
            if il[2]:
                r += 1 << (P["down_1_scores"] + il[7])
            if ih[2]:
                r += 1 << (P["down_1_scores"] + ih[7])
            if up:
                r += 1 << (P["up_1_scores"] + ih[7])
        if played > 1:
            r += (il[4] + (s_hi <= s_lo and ih[4])) << P["down_2"]
            up = not (s_hi > s_lo and il[5])
            r += int(up) << P["up_2"]
            if il[4]:
                r += 1 << (P["down_2_scores"] + il[7])
            if ih[4]:
                r += 1 << (P["down_2_scores"] + ih[7])
            if up:
                r += 1 << (P["up_2_scores"] + ih[7])
        return r

    def outside_weight(self, hi: EPlayer, lo: EPlayer, bye_score: int, single_bye: bool) -> int:
        """edge_weight(hi, lo, False, False, ...) computed directly: only the
        completion field (and the unplayed-games field of the bye assignee)."""
        if not self.compatible(hi, lo):
            return 0
        eligible = self.bye_eligible
        score = self.pairing_score
        s_hi = score[hi.pid]
        s_lo = score[lo.pid]
        positions = self.positions
        r = (1 + (not (eligible[hi.pid] and s_hi <= bye_score)) + (not (eligible[lo.pid] and s_lo <= bye_score))) << (
            positions["completion"]
        )
        if single_bye:
            u = 0
            if s_hi == bye_score:
                u += self.unplayed_ranks[hi.played_games]
            if s_lo == bye_score:
                u += self.unplayed_ranks[lo.played_games]
            r += u << positions["unplayed"]
        return r

    def exact_completion(self, M: MatchingState, n: int, top_score: int) -> list[int]:
        """The reference's first matching: complete, with the lowest-scored
        eligible player left over when the number of players is odd."""
        sp = self.sorted
        score = self.pairing_score
        bye_eligible = self.bye_eligible
        edges = []
        if n & 1:
            shifts, score_bits, count_bits = self.shifts, self.score_bits, self.count_bits
            for i in range(n):
                p = sp[i]
                s_p = score[p.pid]
                for j in range(i):
                    o = sp[j]
                    if self.compatible(p, o):
                        w = 1 + (not bye_eligible[p.pid]) + (not bye_eligible[o.pid])
                        w <<= score_bits
                        w |= shifts[s_p] + shifts[score[o.pid]]
                        w <<= count_bits
                        w |= int(s_p >= top_score)
                        edges.append((j, i, w))
        else:
            for i in range(n):
                for j in range(i):
                    x = M.outside(j, i)
                    if x is not None:
                        edges.append((j, i, x[0]))
        return M.compute_edges(edges)

    def quick_completion(self, n: int) -> list[int] | None:
        """A complete matching found greedily (None when not certain to agree with
        the exact computation: then the exact one is used)."""
        sp = self.sorted
        score = self.pairing_score
        bye_eligible = self.bye_eligible
        comp = self.compatible
        top = score[sp[0].pid]
        bye = None
        if n & 1:
            cands = [v for v in range(n - 1, -1, -1) if bye_eligible[sp[v].pid]]
            if not cands:
                return None
            bye = cands[0]
            if score[sp[bye].pid] >= top and score[sp[-1].pid] < top:
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
    def first_colour_difference(self, p0: EPlayer, p1: EPlayer) -> tuple[int, int]:
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
        return (self.pairing_score[p.pid], o.rank) < (self.pairing_score[o.pid], p.rank)

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

    def first_round(self, players: list[EPlayer]) -> tuple[list[tuple[int, int]], int | None]:
        """Round 1 with no forbidden pair and everyone eligible for the bye: no colour, float
        or opponent history, so every candidate pairing meets every quality criterion alike
        and the first one in the rules' order is chosen: each score group (scores with the
        virtual points of an acceleration) S1 v S2 in rating order, the odd one out (the last
        player of S2) moved down to the top of the next group, where it meets the first
        resident, the other residents S1 v S2; the last one left gets the bye."""
        score = self.pairing_score
        self.paired_in = {}
        self.moved_down = {}
        matched: list[tuple[EPlayer, EPlayer]] = []
        floater: EPlayer | None = None
        i = 0
        while i < len(players):
            j = i
            while j < len(players) and score[players[j].pid] == score[players[i].pid]:
                j += 1
            group_score = score[players[i].pid]
            residents = players[i:j]
            size = len(residents) + (floater is not None)
            if floater is not None:
                top = residents.pop(0)
                matched.append((floater, top))
                self.paired_in[floater.pid] = self.paired_in[top.pid] = group_score
                floater = None
            half = len(residents) // 2
            for k in range(half):
                p, o = residents[k], residents[k + half]
                matched.append((p, o))
                self.paired_in[p.pid] = self.paired_in[o.pid] = group_score
            if len(residents) & 1:
                floater = residents[-1]
                if j < len(players):
                    self.moved_down[floater.pid] = [(group_score, size, size - 1)]
            i = j
        pairs: list[tuple[int, int]] = []
        for p, o in matched:
            a, b = (p, o) if p.pid < o.pid else (o, p)
            col, _ = self.choose_colour(a, b)
            pairs.append((a.pid, b.pid) if col == WHITE else (b.pid, a.pid))
        bye = None
        if floater is not None:
            bye = floater.pid
            self.paired_in[bye] = score[bye]
        return self.board_order(pairs), bye

    def meet_alike(self, M: MatchingState, vertices: list[int], group: list[int], mask: int) -> bool:
        """``M.rows_alike(vertices, group, mask)`` for players above ``group``, the next score
        group: the weights of those pairs that nobody set are those of ``fast_weight(x, y, False,
        True)``, a part of x's (its score, its unplayed games when the bye is single) and one of
        y's where the two are compatible, so the rows are alike when those parts of x and the
        players of the group each x may not meet are."""
        gset = set(group)
        xadj = M.xadj
        if any(xadj[x] & gset for x in vertices):
            return M.rows_alike(vertices, group, mask)  # some of those weights were set
        sp = self.sorted
        ckey = self.ckey
        group_pids = set()
        with_key: dict[int, set[int]] = {}
        for y in group:
            q = sp[y].pid
            group_pids.add(q)
            k = ckey[q]
            if k is not None:
                with_key.setdefault(k, set()).add(q)
        info = self.info
        single = self.fast_single
        first = None
        for x in vertices:
            pid = sp[x].pid
            blocked = self.forbidden[pid] & group_pids
            key = ckey[pid]
            if key in with_key:
                blocked |= with_key[key]
            # the players x may not meet and, if it may meet any, x's part of the weights
            part = (info[pid][7], info[pid][6] if single else 0) if len(blocked) < len(group_pids) else None
            signature = (blocked, part)
            if first is None:
                first = signature
            elif signature != first:
                return False
        return True

    # ------------------------------------------------------------------- main
    def run(self) -> tuple[list[tuple[int, int]], int | None]:
        """Pair the next round: the players in pairing order, the completion check, then bracket by bracket
        from the top score group down (each bracket's phases below, in the order of C.04.3)."""
        sorted_players = self._pairing_order()
        n = len(sorted_players)
        if n == 0:
            return [], None
        self._floats(sorted_players)
        self._score_layout(sorted_players)
        walk = _Walk(sorted_players, self.pairing_score, self.count_bits)
        walk.M = self._matching_state(walk)
        if self._plain_first_round(sorted_players):
            return self.first_round(sorted_players)
        self._completion(walk)
        self._top_bracket(walk)
        while len(walk.bracket) > 1 or walk.nxt != n:
            self._pair_bracket(walk)
        return self._pairs(walk)

    def _pairing_order(self) -> list[EPlayer]:
        """The players to pair, by pairing score then rank; with who may not meet whom (forbidden pairs and
        games already played), the pairing scores and the colour keys."""
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
        self.pairing_score = {p.pid: t.score_acc(p) for p in t.players if p.valid}
        score = self.pairing_score
        self.colour_keys()
        sorted_players.sort(key=lambda p: (-score[p.pid], p.rank))
        self.sorted = sorted_players
        return sorted_players

    def _floats(self, sorted_players: list[EPlayer]) -> None:
        """Who may get the bye, and each player's float one and two rounds back."""
        t = self.t
        pr = t.played_rounds
        self.bye_eligible = {p.pid: t.eligible_for_bye(p) for p in sorted_players}
        self.float_1 = {}
        self.float_2 = {}
        for p in sorted_players:
            if pr:
                self.float_1[p.pid] = self.get_float(p, 1)
            if pr > 1:
                self.float_2[p.pid] = self.get_float(p, 2)

    def _score_layout(self, sorted_players: list[EPlayer]) -> None:
        """The score-group bit layout of the weights: a field per score, as wide as its group needs."""
        score = self.pairing_score
        shifts = {}
        score_bits = 0
        max_size = 0
        rep = 0
        for idx in range(len(sorted_players) - 1, -1, -1):
            rep += 1
            cur = score[sorted_players[idx].pid]
            if idx == 0 or cur < score[sorted_players[idx - 1].pid]:
                shifts[cur] = score_bits
                max_size = max(max_size, rep)
                score_bits += bits(rep)
                rep = 0
        self.shifts = shifts
        self.score_bits = score_bits
        self.count_bits = bits(max_size)
        self.unplayed_ranks = {}
        self.positions = self.field_positions()

    def _matching_state(self, walk: _Walk) -> MatchingState:
        """The matching over every player; the edges outside the current bracket are made when asked for."""
        sorted_players = walk.sp

        def outside(u: int, v: int) -> Weight | None:
            # the vertices of the current bracket's next score group: their edges (to the bracket and
            # among themselves) are made when a computation asks for them, not with the bracket's
            if v in walk.next_group:
                # u < v: u is in the bracket or in that group too (everyone above is paired)
                w = self.fast_weight(sorted_players[u], sorted_players[v], False, True)
            else:
                w = self.outside_weight(
                    sorted_players[u], sorted_players[v], self.outside_bye_score, self.outside_single_bye
                )
            return (w, 0) if w else None

        M = MatchingState(walk.n, outside)
        M.compat = lambda u, v: self.compatible(sorted_players[u], sorted_players[v])
        M.b_split = 2 * self.count_bits + 1
        return M

    def _plain_first_round(self, sorted_players: list[EPlayer]) -> bool:
        """Round 1 with nothing to distinguish the players but their (accelerated) pairing scores."""
        return (
            self.reduce
            and self.t.played_rounds == 0
            and not any(self.forbidden[p.pid] for p in sorted_players)
            and all(self.bye_eligible[p.pid] for p in sorted_players)
        )

    def _completion(self, walk: _Walk) -> None:
        """The completion check (every player paired but at most one bye-eligible player), and the score of
        the bye assignee: the round's first matching, from which the brackets start."""
        M, n, sorted_players, score = walk.M, walk.n, walk.sp, walk.score
        top_score = score[sorted_players[0].pid]
        mate = self.quick_completion(n) if self.reduce else None
        if mate is None:
            mate = self.exact_completion(M, n, top_score)
        unmatched = [v for v in range(n) if mate[v] == v]
        if len(unmatched) > 1 or (unmatched and not self.bye_eligible[sorted_players[unmatched[0]].pid]):
            raise NoValidPairingError(
                "The players could not be simultaneously matched while satisfying all absolute criteria."
            )
        if n & 1:
            walk.bye_score = bye_score = score[sorted_players[unmatched[0]].pid]
            walk.single_bye = bye_score >= top_score and self._single_bye(walk, mate, top_score)
            counts = sorted((p.played_games for p in sorted_players if score[p.pid] == bye_score), reverse=True)
            for rank, g in enumerate(counts):
                self.unplayed_ranks[g] = rank
            self.outside_bye_score = bye_score
            self.outside_single_bye = walk.single_bye
        M.base_mate = {v: mate[v] for v in range(n) if mate[v] != v}
        M.mate = list(range(n))
        walk.initial_single_bye = walk.single_bye
        walk.stable = mate

    @staticmethod
    def _single_bye(walk: _Walk, mate: list[int], top_score: int) -> bool:
        """Whether the top score group pairs within itself, the bye assignee (of the top score) apart."""
        sorted_players, score = walk.sp, walk.score
        for v in range(walk.n):
            if score[sorted_players[v].pid] < top_score:
                break
            if score[sorted_players[mate[v]].pid] < top_score:
                return False
        return True

    def _top_bracket(self, walk: _Walk) -> None:
        """The fast weights for the bye found, and the first bracket: the top score group."""
        sorted_players, score, n = walk.sp, walk.score, walk.n
        self.prepare_fast(walk.bye_score, walk.single_bye)
        walk.low_mask = (1 << self.positions["completion"]) - 1
        walk.not_bye_candidate = [not self.is_bye_candidate(p, walk.bye_score) for p in sorted_players]
        self.paired_in = {}
        self.moved_down = {}
        top_score = score[sorted_players[0].pid]
        nxt = 0
        while nxt < n and score[sorted_players[nxt].pid] >= top_score:
            walk.bracket.append(sorted_players[nxt])
            walk.vertex.append(len(walk.vertex))
            nxt += 1
        walk.nxt = nxt

    # ------------------------------------------------------------ one bracket
    def _pair_bracket(self, walk: _Walk) -> None:
        """Pair one bracket (its residents and the players moved down to it) with the next score group in
        view; who is left over moves down to the next bracket."""
        self._open_bracket(walk)
        self._bracket_weights(walk)
        self._first_matching(walk)
        self._pair_moved_down(walk)
        self._moved_down_opponents(walk)
        exchange_count = self._order_remainder(walk)
        self._exchange_from_first_group(walk, exchange_count)
        self._exchange_from_second_group(walk, exchange_count)
        self._finalize_exchanges(walk)
        self._restrict_to_remainder(walk)
        self._first_group_opponents(walk)
        self._next_bracket(walk)

    def _open_bracket(self, w: _Walk) -> None:
        """Add the next score group to the bracket, and choose how its matchings are computed."""
        sorted_players, score, n, M = w.sp, w.score, w.n, w.M
        w.next_group_start = len(w.bracket)
        w.next_group_vertex = w.residents_vertex + (w.next_group_start - w.moved_down_count)
        w.next_group_first = first = nxt = w.nxt
        w.cur_score = score[w.bracket[w.next_group_start - 1].pid]
        while nxt != n and score[sorted_players[nxt].pid] >= score[sorted_players[first].pid]:
            w.bracket.append(sorted_players[nxt])
            w.vertex.append(w.vertex[-1] + 1)
            nxt += 1
        w.nxt = nxt
        w.size = len(w.bracket)
        if self.fast_single is not w.single_bye:
            self.prepare_fast(w.bye_score, w.single_bye)
        M.forget_subset()
        w.reduced = (
            self.reduce
            and not w.initial_single_bye
            and not ((n & 1) and first != n and w.bye_score >= score[sorted_players[first].pid])
        )
        # the last score group is the next one: the bracket and that group are all the players
        # left, and computing within them only saves rebuilding the edges at each matching
        w.within = w.reduced or (self.reduce and nxt == n)
        w.compute = w.computing_within(w.vertex) if w.within else M.compute
        w.next_group = range(first, nxt)

    def _bracket_weights(self, w: _Walk) -> None:
        """Base edge weights: base_weight[(larger, smaller)] within the bracket (those to the next score group
        and within it come from ``outside``, when asked for)."""
        fast = self.fast_weight
        bracket, vertex = w.bracket, w.vertex
        base_weight: dict[tuple[int, int], int | None] = {}
        E = w.M.E
        xadj = w.M.xadj
        for lg in range(w.moved_down_count, w.next_group_start):
            plg = bracket[lg]
            vlg = vertex[lg]
            xl = xadj[vlg]
            for sm in range(lg):
                weight: int | None = fast(bracket[sm], plg, True, False)
                vs = vertex[sm]
                # vertex indices grow with the player index: vs < vlg
                if weight:
                    base_weight[(lg, sm)] = weight
                    E[(vs, vlg)] = (weight, 0)
                else:
                    E[(vs, vlg)] = None
                xl.add(vs)
                xadj[vs].add(vlg)
        w.base_weight = base_weight
        shift = 2 * w.count_bits
        get = base_weight.get

        def ordered_weight(sm: int, lg: int, sm_ri: int, rem_pairs: int) -> Weight | None:
            r = get((lg, sm))
            if not r:
                return None
            add = ((int(sm_ri < rem_pairs) << shift) - sm_ri) << 1
            return (r, add)

        w.ordered_weight = ordered_weight

    def _first_matching(self, w: _Walk) -> None:
        """The bracket's first matching, computed without the next score group when that is shown not to
        change it."""
        M, vertex = w.M, w.vertex
        closed = None
        if w.reduced and not w.next_group_start & 1:
            # an even bracket that can be paired within itself: its pairing does not depend
            # on the next score group, so every matching of this bracket leaves that group out
            bracket_vertices = vertex[: w.next_group_start]
            closed = M.try_close(bracket_vertices, w.low_mask, w.not_bye_candidate)
            if closed is not None:
                w.compute = w.computing_within(bracket_vertices)
        w.residents = vertex[w.moved_down_count : w.next_group_start]
        w.group = vertex[w.next_group_start : w.size]
        alike = closed is None and w.within and self.meet_alike(M, w.residents, w.group, w.low_mask)
        if closed is None and (alike or w.reduced):
            # how many players float is decided by the pairs of the bracket (C6). When every
            # resident would meet the next score group alike, which ones float does not change
            # the rest; otherwise each matching is accepted when the ones it floats are shown
            # to fill the next bracket with as many pairs as any could (C8; only the next
            # group's pairs depend on who floats). So the matchings of this bracket leave that
            # group out, as long as every moved-down player is paired in the bracket (if one is
            # in an optimal matching of the bracket, then in all of them: C7)
            bracket_vertices = vertex[: w.next_group_start]
            M.restrict_subset(bracket_vertices, w.low_mask, None if alike else w.group, w.residents)
            restricted = w.computing_within(bracket_vertices)
            trial = restricted()
            if all(w.residents_vertex <= trial[v] < w.next_group_vertex for v in vertex[: w.moved_down_count]):
                closed = trial
                w.compute = restricted
            else:
                M.forget_subset()
        w.stable = closed if closed is not None else w.compute()

    def _pair_moved_down(self, w: _Walk) -> None:
        """Which moved-down players are paired in this bracket (the most, the highest first: C6, C7)."""
        score, bracket, vertex, matched = w.score, w.bracket, w.vertex, w.matched
        moved_down_score = 0
        moved_down_left = moved_down_left_paired = 0
        for pi in range(w.moved_down_count):
            if pi == 0 or score[bracket[pi].pid] < moved_down_score:
                moved_down_score = score[bracket[pi].pid]
                moved_down_left, moved_down_left_paired = w.moved_down_of_score(pi, moved_down_score)
            if not moved_down_left_paired:
                continue
            pv = vertex[pi]
            if moved_down_left <= moved_down_left_paired:
                matched[pv] = True
                continue
            moved_down_left -= 1
            if not w.in_bracket(w.stable[pv]):
                w.weigh_to_residents(pi, pv, 1)
                w.stable = w.compute()
            if w.in_bracket(w.stable[pv]):
                matched[pv] = True
                moved_down_left_paired -= 1
                w.weigh_to_residents(pi, pv, (w.next_group_start - w.moved_down_count) + 1)

    def _moved_down_opponents(self, w: _Walk) -> None:
        """The opponents of the moved-down players paired here: each its first free compatible resident."""
        M, vertex, matched = w.M, w.vertex, w.matched
        residents = range(w.moved_down_count, w.next_group_start)
        for pi in range(w.moved_down_count):
            pv = vertex[pi]
            if not matched[pv]:
                continue
            if w.stable[pv] != w.first_free(pi, residents):
                self._rank_moved_down(w, pi, pv)
            mv = w.stable[pv]
            matched[mv] = True
            M.finalize(pv, mv)
            self.report(self.settled + 2, w.n)

    @staticmethod
    def _rank_moved_down(w: _Walk, pi: int, pv: int) -> None:
        """The matching that gives moved-down player ``pi`` its first free compatible resident (and, the ties
        broken in that order, the following moved-down players theirs)."""
        M, vertex, matched, base_weight = w.M, w.vertex, w.matched, w.base_weight
        moved_down_count, next_group_start = w.moved_down_count, w.next_group_start
        addend = w.size
        for oi in range(next_group_start - 1, moved_down_count - 1, -1):
            ov = vertex[oi]
            if matched[ov]:
                continue
            weight = base_weight.get((oi, pi))
            if weight:
                M.set(pv, ov, (weight, addend))
                addend += 1
        M.tb_hint["settled"] = pv

        def moved_down_ranking(pi: int = pi) -> Iterator[tuple[int, list[int]]]:
            for pj in range(pi, moved_down_count):
                if matched[vertex[pj]]:
                    yield (
                        vertex[pj],
                        [
                            vertex[oi]
                            for oi in range(moved_down_count, next_group_start)
                            if not matched[vertex[oi]] and base_weight.get((oi, pj))
                        ],
                    )

        w.stable = w.compute(LazyTiebreak(moved_down_ranking))

    def _order_remainder(self, w: _Walk) -> int:
        """The remainder (the residents not paired with a moved-down player) and who leads its pairs (S1);
        returns how many of its first players must be exchanged."""
        vertex = w.vertex
        remainder: list[int] = []
        rem_pairs = 0
        for pi in range(w.moved_down_count, w.next_group_start):
            pv = vertex[pi]
            if w.stable[pv] < w.residents_vertex:
                continue
            remainder.append(pi)
            if w.stable[pv] < pv:
                rem_pairs += 1
        w.remainder, w.rem_pairs = remainder, rem_pairs
        R = len(remainder)
        # the order weights favour pairs led by the remainder's first rem_pairs players, then
        # the earliest leaders: first only the former (quicker to compute), for when every
        # one of those players can lead a pair (the earliest leaders then, and no exchange)
        top_first = 2 * rem_pairs >= R - 1
        self._set_order_weights(w, top_first)
        w.stable = w.compute()
        if top_first and not all(
            vertex[pi] < w.stable[vertex[pi]] < w.next_group_vertex for pi in remainder[:rem_pairs]
        ):
            self._set_order_weights(w, False)
            w.stable = w.compute()
        exchange_count = 0
        for ridx in range(min(rem_pairs, R)):
            if not w.forward(vertex[remainder[ridx]]):
                exchange_count += 1
        return exchange_count

    @staticmethod
    def _set_order_weights(w: _Walk, leaders_only: bool) -> None:
        remainder, vertex, rem_pairs, set_weight = w.remainder, w.vertex, w.rem_pairs, w.M.set
        ordered_weight = w.ordered_weight
        leader_bit = 2 * w.count_bits + 1
        for oidx in range(len(remainder)):
            oi = remainder[oidx]
            ov = vertex[oi]
            for ridx in range(len(remainder)):
                pi = remainder[ridx]
                if oi <= pi:
                    break
                ow = ordered_weight(pi, oi, ridx, rem_pairs)
                if leaders_only and ow is not None:
                    ow = (ow[0], (ridx < rem_pairs) << leader_bit)
                set_weight(vertex[pi], ov, ow)

    def _exchange_from_first_group(self, w: _Walk, exchange_count: int) -> None:
        """The lower players of the higher group (S1) to be exchanged."""
        remainder, vertex, rem_pairs, set_weight = w.remainder, w.vertex, w.rem_pairs, w.M.set
        forward, ordered_weight = w.forward, w.ordered_weight
        R = len(remainder)
        ex_rem = exchange_count
        pri = rem_pairs
        it = rem_pairs
        while it != 0 and ex_rem:
            opp_it = it
            pri -= 1
            it -= 1
            pi = remainder[it]
            pv = vertex[pi]
            if forward(pv):
                for k in range(opp_it, R):
                    ow = ordered_weight(pi, remainder[k], pri, rem_pairs)
                    if ow:
                        set_weight(pv, vertex[remainder[k]], (ow[0], ow[1] - 1))
                w.stable = w.compute()
            exchange = not forward(pv)
            ex_rem -= exchange
            for k in range(it + 1, R):
                if exchange:
                    w.base_weight.pop((remainder[k], pi), None)
                set_weight(pv, vertex[remainder[k]], ordered_weight(pi, remainder[k], pri, rem_pairs))

    def _exchange_from_second_group(self, w: _Walk, exchange_count: int) -> None:
        """The higher players of the lower group (S2) to be exchanged."""
        remainder, vertex, rem_pairs, set_weight = w.remainder, w.vertex, w.rem_pairs, w.M.set
        forward, ordered_weight = w.forward, w.ordered_weight
        R = len(remainder)
        ex_rem = exchange_count
        ri = rem_pairs
        for it in range(rem_pairs, R):
            if not ex_rem > 1:
                break
            pi = remainder[it]
            pv = vertex[pi]
            already = forward(pv)
            if not already:
                for k in range(it + 1, R):
                    ow = ordered_weight(pi, remainder[k], ri, rem_pairs)
                    if ow:
                        set_weight(pv, vertex[remainder[k]], (ow[0], ow[1] + 1))
                w.stable = w.compute()
            if forward(pv):
                ex_rem -= 1
                w.drop_edges_of_exchanged(it, pi, pv)
            if not already:
                for k in range(it + 1, R):
                    set_weight(pv, vertex[remainder[k]], ordered_weight(pi, remainder[k], ri, rem_pairs))
            ri += 1

    @staticmethod
    def _finalize_exchanges(w: _Walk) -> None:
        """Only the edges from a first-group player to a later second-group one stay in the remainder."""
        remainder, vertex, base_weight, set_weight = w.remainder, w.vertex, w.base_weight, w.M.set
        R = len(remainder)
        leads = [w.forward(vertex[pos]) for pos in remainder]  # no matching is computed here
        for ia in range(R):
            pos_a = remainder[ia]
            pv = vertex[pos_a]
            fa = leads[ia]
            for c in range(ia + 1, R):
                pos_c = remainder[c]
                ov = vertex[pos_c]
                if not fa or leads[c]:
                    base_weight.pop((pos_c, pos_a), None)
                weight = base_weight.get((pos_c, pos_a))
                set_weight(pv, ov, (weight, 0) if weight else None)

    def _restrict_to_remainder(self, w: _Walk) -> None:
        """Opponents of the first-group players.  Among the remainder only edges from a first-group player to a
        later second-group one are left, and every optimal matching has as many pairs in the bracket as there
        are first-group players: each of them is paired in the remainder, so its edges to everyone else can go
        (smaller matchings); and the matchings that follow are computed on the remainder when that is shown
        not to change them."""
        M, vertex, matched = w.M, w.vertex, w.matched
        rem_vertices = {vertex[pi] for pi in w.remainder}
        others = [v for v in (vertex if w.reduced else range(w.n)) if M.active[v] and v not in rem_vertices]
        for pi in w.remainder:
            pv = vertex[pi]
            if w.forward(pv):
                for ov in others:
                    M.set(pv, ov, None)
        if not w.within:
            return
        rem_active = [vertex[pi] for pi in w.remainder if not matched[vertex[pi]]]
        s1_count = sum(1 for v in rem_active if w.forward(v))
        if rem_active and 2 * s1_count == len(rem_active):
            # nobody of the remainder floats: its pairing does not depend
            # on the other players
            M.close_subset(rem_active, w.low_mask)
            w.compute = w.computing_within(rem_active)
        elif rem_active:
            # some of the second group float: when each would meet the next score group
            # alike, which ones float is decided within the remainder; otherwise each
            # matching is accepted when the ones it floats fill the next bracket as well as
            # any could (C8). Either way the matchings of the first group's opponents leave
            # the next score group out
            second = [v for v in rem_active if not w.forward(v)]
            # the others are the next group's residents, unless a moved-down player floats on
            residents_only = others == [v for v in w.group if M.active[v]]
            if residents_only:
                alike = self.meet_alike(M, second, others, w.low_mask)
            else:
                alike = M.rows_alike(second, others, w.low_mask)
            if alike or (w.reduced and residents_only):
                M.restrict_subset(rem_active, w.low_mask, None if alike else others, second)
                w.compute = w.computing_within(rem_active)

    def _first_group_opponents(self, w: _Walk) -> None:
        """Each first-group player in turn gets its first free compatible player of the second group."""
        M, vertex, matched, remainder = w.M, w.vertex, w.matched, w.remainder
        for idx, pi in enumerate(remainder):
            pv = vertex[pi]
            if not w.forward(pv):
                continue
            # the remainder is in bracket order: the players after pi are those after it in the list
            if w.stable[pv] != w.first_free(pi, islice(remainder, idx + 1, None)) and pv not in M.covered:
                self._rank_first_group(w, pi, pv)
            mv = w.stable[pv]
            matched[pv] = True
            matched[mv] = True
            M.finalize(pv, mv)
            self.report(self.settled + 2, w.n)

    @staticmethod
    def _rank_first_group(w: _Walk, pi: int, pv: int) -> None:
        """The matching that gives first-group player ``pi`` its first free compatible opponent (and, the ties
        broken in that order, the following first-group players theirs)."""
        M, vertex, matched, base_weight, remainder = w.M, w.vertex, w.matched, w.base_weight, w.remainder
        forward = w.forward
        addend = 0
        for oi in reversed(remainder):
            ov = vertex[oi]
            if oi <= pi or matched[ov]:
                continue
            weight = base_weight.get((oi, pi))
            if weight:
                M.set(pv, ov, (weight, addend))
            addend += 1
        # the player itself first: the tie-break's predictions then know whom it takes
        M.tb_hint["settled"] = pv

        def first_group_ranking(pi: int = pi) -> Iterator[tuple[int, list[int]]]:
            for pj in remainder:
                if pj >= pi and forward(vertex[pj]):
                    yield (
                        vertex[pj],
                        [
                            vertex[oi]
                            for oi in remainder
                            if oi > pj and not matched[vertex[oi]] and base_weight.get((oi, pj))
                        ],
                    )

        w.stable = w.compute(LazyTiebreak(first_group_ranking))

    def _next_bracket(self, w: _Walk) -> None:
        """Record the pairs made; the players left over move down to the next bracket."""
        sorted_players, score, n, vertex, matched = w.sp, w.score, w.n, w.vertex, w.matched
        next_group_start, next_group_first, cur_score = w.next_group_start, w.next_group_first, w.cur_score
        new_pbi: list[EPlayer] = []
        new_vi: list[int] = []
        moved_down_count = 0
        single_bye = bool(
            (n & 1) and next_group_first != n and w.bye_score >= score[sorted_players[next_group_first].pid]
        )
        for pi in range(w.size):
            pv = vertex[pi]
            if pi < next_group_start and matched[pv]:
                a = w.bracket[pi]
                b = sorted_players[w.stable[pv]]
                w.matching_by_id[a.pid] = b.pid
                w.matching_by_id[b.pid] = a.pid
                self.paired_in[a.pid] = self.paired_in[b.pid] = cur_score
            else:
                new_pbi.append(w.bracket[pi])
                new_vi.append(pv)
                if pi < next_group_start:
                    moved_down_count += 1
                    self.moved_down.setdefault(w.bracket[pi].pid, []).append(
                        (cur_score, next_group_start, sum(1 for q in range(next_group_start) if matched[vertex[q]]))
                    )
                if single_bye and score[sorted_players[w.stable[pv]].pid] < score[sorted_players[next_group_first].pid]:
                    single_bye = False
        w.single_bye = single_bye
        w.moved_down_count = moved_down_count
        w.bracket = new_pbi
        w.vertex = new_vi
        w.residents_vertex = w.next_group_vertex

    def _pairs(self, w: _Walk) -> tuple[list[tuple[int, int]], int | None]:
        """The pairs with their colours, in board order, and the bye."""
        t, score = self.t, w.score
        pairs = []
        bye = None
        for p in w.sp:
            partner = w.matching_by_id.get(p.pid)
            if partner is not None:
                if p.pid < partner:
                    col, _ = self.choose_colour(p, t.players[partner])
                    if col == WHITE:
                        pairs.append((p.pid, partner))
                    else:
                        pairs.append((partner, p.pid))
            else:
                bye = p.pid
                self.paired_in[p.pid] = score[p.pid]
        pairs = self.board_order(pairs)
        self.report(w.n, w.n)
        return pairs, bye

    def board_order(self, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        t = self.t

        def key(pair: tuple[int, int]) -> tuple[int, int, int]:
            w, b = pair
            pw, pb = t.players[w], t.players[b]
            # unacceleratedScoreRankCompare(pw, pb): pw below pb
            if (pw.score, pb.rank) < (pb.score, pw.rank):
                hi, lo = pb, pw
            else:
                hi, lo = pw, pb
            return (-hi.score, -lo.score, hi.rank)

        return sorted(pairs, key=key)
