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
    """An n-vertex graph whose weights change between computations."""

    def __init__(self, n: int, sgsb: int = 0):
        self.n = n
        self.w: List[List[Optional[Tuple[int, int]]]] = [[None] * n for _ in range(n)]
        self.active = [True] * n
        self.mate = list(range(n))
        self.calls = 0

    def finalize(self, u: int, v: int) -> None:
        self.active[u] = False
        self.active[v] = False
        self.mate[u] = v
        self.mate[v] = u

    def compute(self) -> List[int]:
        self.calls += 1
        act = [v for v in range(self.n) if self.active[v]]
        W = self.w
        edges = []
        for ii, u in enumerate(act):
            row = W[u]
            for v in act[ii + 1:]:
                x = row[v]
                if x is not None:
                    edges.append((u, v, x[0], x[1]))
        mate = self.mate
        for v in act:
            mate[v] = v
        if not edges:
            return list(mate)
        pairs = solve(edges, len(act))
        for u, v in pairs:
            mate[u] = v
            mate[v] = u
        return list(mate)


def compress(edges, nact):
    """Return integer weights (same order of sums over matchings) and their width."""
    m = nact // 2
    groups = {}
    for idx, e in enumerate(edges):
        a = e[2]
        g = groups.get(a)
        if g is None:
            groups[a] = [idx]
        else:
            g.append(idx)
    orall = 0
    for a in groups:
        orall |= a
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

    def region_bound(lo, hi):
        mask = (1 << (hi - lo + 1)) - 1
        maxval = 0
        verts = set()
        cnt = 0
        for a in keys:
            val = (a >> lo) & mask
            if val:
                if val > maxval:
                    maxval = val
                g = groups[a]
                cnt += len(g)
                if len(verts) < nact:
                    for idx in g:
                        e = edges[idx]
                        verts.add(e[0])
                        verts.add(e[1])
        k = min(len(verts) // 2, m, cnt)
        return max(1, k) * maxval

    regions = []  # (lo, hi, width)
    i = 0
    while i < len(runs):
        lo, hi = runs[i]
        i += 1
        while True:
            need = _bits(region_bound(lo, hi))
            if i < len(runs) and runs[i][0] <= lo + need - 1 + 1:
                # merge when the carries could reach the next run (keep one spare bit)
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
    for e in edges:
        b = e[3]
        if b < 0:
            b = -b
        if b > bmax:
            bmax = b
    lw = _bits(bmax * max(1, m)) + 1
    weights = [(newval[e[2]] << lw) + e[3] for e in edges]
    return weights, abits + lw


def solve(edges, nact):
    weights, width = compress(edges, nact)
    if width <= MAX_BITS:
        g = rx.PyGraph()
        nodes = {}
        for e in edges:
            for v in (e[0], e[1]):
                if v not in nodes:
                    nodes[v] = len(nodes)
        g.add_nodes_from(range(len(nodes)))
        back = {i: v for v, i in nodes.items()}
        g.add_edges_from([(nodes[e[0]], nodes[e[1]], w) for e, w in zip(edges, weights)])
        res = rx.max_weight_matching(g, max_cardinality=False, weight_fn=int)
        return [(back[a], back[b]) for a, b in res]
    from .bigmatch import max_weight_matching
    return max_weight_matching([(e[0], e[1], w) for e, w in zip(edges, weights)])
