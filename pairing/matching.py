"""Maximum-weight matching on lexicographic weights.

Each edge weight is a pair ``(A, b)``: ``A`` is a non-negative big integer whose
bit fields are the pairing criteria (highest priority in the highest bits) and
``b`` a small signed integer that only breaks ties (it ranks below every bit of
``A``).  A matching is better when the sum of ``A`` is larger, then when the
sum of ``b`` is larger.

rustworkx computes matchings on integers of at most 127 bits, so before each
computation the weights are compressed: bit runs of ``A`` that no edge uses are
removed, keeping for every remaining run just enough room for the carries of a
sum over one matching (bounded from the vertices the run touches).  The order
of the sums over matchings is unchanged.  When the compressed weights are still
too wide, a pure-Python matching on the exact integers is used.
"""
from __future__ import annotations

from typing import List, Optional, Tuple

import rustworkx as rx

MAX_BITS = 120


def _bits(x: int) -> int:
    return x.bit_length() if x > 0 else 0


class MatchingState:
    """An n-vertex graph whose weights change between computations.

    Finalized pairs leave the graph (their matching is fixed).
    """

    def __init__(self, n: int):
        self.n = n
        self.E = {}
        self.adj = [set() for _ in range(n)]
        self.active = [True] * n
        self.covered = set()
        self.mate = list(range(n))
        self.calls = 0

    def set(self, u: int, v: int, val) -> None:
        key = (u, v) if u < v else (v, u)
        if val is None:
            if self.E.pop(key, None) is not None:
                self.adj[u].discard(v)
                self.adj[v].discard(u)
        else:
            self.E[key] = val
            self.adj[u].add(v)
            self.adj[v].add(u)

    def get(self, u: int, v: int):
        return self.E.get((u, v) if u < v else (v, u))

    def finalize(self, u: int, v: int) -> None:
        for x in (u, v):
            for y in self.adj[x]:
                self.E.pop((x, y) if x < y else (y, x), None)
                if y != u and y != v:
                    self.adj[y].discard(x)
            self.adj[x] = set()
            self.active[x] = False
        self.mate[u] = v
        self.mate[v] = u

    def compute(self, tiebreak=None) -> List[int]:
        """Maximum-weight matching; ``tiebreak``: [(vertex, [candidates best first]), ...]
        breaks the remaining ties lexicographically (first vertex first), below every
        weight, as far as the integer width allows."""
        self.calls += 1
        self.covered = set()
        mate = self.mate
        active = self.active
        for v in range(self.n):
            if active[v]:
                mate[v] = v
        if not self.E:
            return list(mate)
        edges = [(k[0], k[1], x[0], x[1]) for k, x in self.E.items()]
        nact = sum(active)
        covered = []
        for u, v in solve(edges, nact, self.n, tiebreak, covered):
            mate[u] = v
            mate[v] = u
        self.covered = set(covered)
        return list(mate)


def compress(edges, nact):
    """Return integer weights (same order of sums over matchings) and their width."""
    m = nact // 2
    groups = {}
    for e in edges:
        a = e[2]
        g = groups.get(a)
        if g is None:
            groups[a] = [e]
        else:
            g.append(e)
    orall = 0
    for a in groups:
        orall |= a
    topbit = orall.bit_length() - 1
    # runs of set bits
    runs = []
    pos = 0
    x = orall
    while x:
        if x & 1:
            lo = pos
            while x & 1:
                x >>= 1
                pos += 1
            runs.append((lo, pos - 1))
        else:
            low = (x & -x).bit_length() - 1
            x >>= low
            pos += low
    keys = list(groups)
    ends = {}

    def region_bound(lo, hi):
        mask = (1 << (hi - lo + 1)) - 1
        maxval = 0
        cnt = 0
        nz = []
        for a in keys:
            val = (a >> lo) & mask
            if val:
                if val > maxval:
                    maxval = val
                cnt += len(groups[a])
                nz.append(a)
        k = min(m, cnt)
        if k > 1 and hi < topbit:
            lows = set()
            highs = set()
            for a in nz:
                ab = ends.get(a)
                if ab is None:
                    g = groups[a]
                    ab = ends[a] = ({e[0] for e in g}, {e[1] for e in g})
                lows |= ab[0]
                highs |= ab[1]
            # a matching has at most one edge per vertex of any vertex cover
            k = min(k, len(lows), len(highs), len(lows | highs) // 2)
        return max(1, k) * maxval

    regions = []  # (lo, hi, width)
    i = 0
    while i < len(runs):
        lo, hi = runs[i]
        i += 1
        while True:
            need = _bits(region_bound(lo, hi))
            if i < len(runs) and runs[i][0] <= lo + need:
                # the carries of this run could reach the next one: merge them
                hi = runs[i][1]
                i += 1
                continue
            break
        regions.append((lo, hi, need))
    newval = {}
    for a in keys:
        v = 0
        p = 0
        for lo, hi, width in regions:
            v |= ((a >> lo) & ((1 << (hi - lo + 1)) - 1)) << p
            p += width
        newval[a] = v
    abits = sum(r[2] for r in regions)
    bmax = 0
    bcnt = 0
    for e in edges:
        b = e[3]
        if b:
            bcnt += 1
            if b < 0:
                b = -b
            if b > bmax:
                bmax = b
    lw = _bits(bmax * max(1, min(m, bcnt))) + 1
    weights = [(newval[e[2]] << lw) + e[3] for e in edges]
    return weights, abits + lw


def solve(edges, nact, nvert, tiebreak=None, covered=None):
    weights, width = compress(edges, nact)
    if tiebreak and width < MAX_BITS:
        budget = MAX_BITS - width
        prio = {}
        used = 0
        chosen = []
        for v, cands in tiebreak:
            need = _bits(len(cands))
            if not cands or used + need > budget:
                break
            chosen.append((v, cands, need))
            used += need
            if covered is not None:
                covered.append(v)
        shift = 0
        for v, cands, need in reversed(chosen):
            k = len(cands)
            for j, q in enumerate(cands):
                key = (v, q) if v < q else (q, v)
                prio[key] = prio.get(key, 0) + ((k - j) << shift)
            shift += need
        if prio:
            weights = [(w << used) + prio.get((e[0], e[1]), 0) for e, w in zip(edges, weights)]
            width += used
    if width <= MAX_BITS:
        g = rx.PyGraph()
        g.add_nodes_from(range(nvert))
        g.add_edges_from([(e[0], e[1], w) for e, w in zip(edges, weights)])
        return rx.max_weight_matching(g, max_cardinality=False, weight_fn=int)
    from .bigmatch import max_weight_matching
    return max_weight_matching([(e[0], e[1], w) for e, w in zip(edges, weights)])
