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

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from typing import Any

import rustworkx as rx

MAX_BITS = 120

# An edge weight (A, b): A the criteria's bit fields, b a small signed tie-break below all of them.
Weight = tuple[int, int]
# An edge with its weight: (u, v, A, b).
Edge = tuple[int, int, int, int]
# Lexicographic preferences below every weight: [(vertex, [candidates, best first]), ...]; a
# computation reads a prefix only (as far as the integer width allows), so they may come lazily.
Tiebreak = Iterable[tuple[int, list[int]]]


class LazyTiebreak:
    """Tie-break preferences made as a computation reads them (``make`` gives a fresh iterator
    each time: a computation that falls back to a larger one reads them again)."""

    def __init__(self, make: Callable[[], Iterator[tuple[int, list[int]]]]) -> None:
        self.make = make

    def __iter__(self) -> Iterator[tuple[int, list[int]]]:
        return self.make()


def _bits(x: int) -> int:
    return x.bit_length() if x > 0 else 0


_MISSING: Weight = (-1, -1)  # "no weight set": told apart by identity
_IntSet = set[int]  # (inside the class, ``set`` is the method)


class MatchingState:
    """An n-vertex graph whose weights change between computations.

    Weights set explicitly (``set``; ``None`` removes an edge) override the
    default weight ``outside(u, v)`` of a pair, which is computed on demand.
    Finalized pairs leave the graph (their matching is fixed).

    Computations can be restricted to a subset of the vertices (``compute_within``):
    the caller promises that, on the edges it has not set, the weight is nothing but
    bits above ``mask``, the same for every way of matching all the vertices (a
    completability requirement: as many vertices matched as possible, those of
    ``must_match`` first).
    """

    def __init__(self, n: int, outside: Callable[[int, int], Weight | None] | None = None) -> None:
        self.n = n
        self.E: dict[tuple[int, int], Weight | None] = {}
        self.xadj: list[_IntSet] = [set() for _ in range(n)]
        self.active = [True] * n
        self.covered: _IntSet = set()
        self.absorb_cache: dict[frozenset[int], bool] = {}
        self.outside_key: bool | None = None
        self.outside_data: tuple[list[int], _IntSet, dict[int, int], list[int]] = ([], set(), {}, [])
        self.outside: Callable[[int, int], Weight | None] = outside or (lambda u, v: None)
        self.compat: Callable[[int, int], bool] = lambda u, v: self.outside(u, v) is not None
        self.base_mate: dict[int, int] | None = None
        self.b_split = 0
        self.sub: dict[tuple[int, int], Weight] | None = None
        self.sub_set: _IntSet = set()
        self.sub_mask = 0
        self.layout: dict[str, Any] = {}
        self.closed_subset = False
        # restrict_subset(..., group=...): the next score group, whose pairs (C8) the vertices
        # left over by the subset must leave at their most
        self.group: list[int] | None = None
        self.group_floaters: _IntSet = set()
        self.below_cache: dict[frozenset[int], bool] = {}
        self.mate = list(range(n))
        self.calls = 0
        self.tb_hint: dict[str, int] = {}

    def set(self, u: int, v: int, val: Weight | None) -> None:
        key = (u, v) if u < v else (v, u)
        self.E[key] = val
        self.xadj[u].add(v)
        self.xadj[v].add(u)
        sub = self.sub
        if sub is not None and u in self.sub_set and v in self.sub_set:
            if val is None:
                sub.pop(key, None)
            else:
                a = val[0] & self.sub_mask
                if a or val[1]:
                    sub[key] = (a, val[1])
                else:
                    sub.pop(key, None)

    def get(self, u: int, v: int) -> Weight | None:
        key = (u, v) if u < v else (v, u)
        x = self.E.get(key, _MISSING)
        if x is _MISSING:
            return self.outside(key[0], key[1])
        return x

    def finalize(self, u: int, v: int) -> None:
        self.absorb_cache = {}
        sub = self.sub
        for x in (u, v):
            for y in self.xadj[x]:
                key = (x, y) if x < y else (y, x)
                self.E.pop(key, None)
                if y != u and y != v:
                    self.xadj[y].discard(x)
            self.xadj[x] = set()
            self.active[x] = False
            if sub is not None and x in self.sub_set:
                # (the subset's edges include default weights, never set)
                self.sub_set.discard(x)
                for y in self.sub_set:
                    sub.pop((x, y) if x < y else (y, x), None)
        self.mate[u] = v
        self.mate[v] = u

    def compute_within(
        self, subset: Sequence[int], mask: int, must_match: Sequence[bool], tiebreak: Tiebreak | None = None
    ) -> list[int] | None:
        """Matching restricted to ``subset``.

        The vertices outside the subset only matter through completability: their
        edges carry nothing below ``mask``.  So the best matching inside the subset
        (weights masked) is optimal for the whole graph whenever the vertices it
        leaves unmatched can still be matched with the vertices outside (checked
        exactly; ``must_match[v]``: v may not be the one vertex left over).
        Otherwise the whole graph is used.  Vertices of the subset matched outside
        it get the partner ``self.n``.

        When the subset was restricted with a ``group`` (``restrict_subset``), the
        vertices left over must also fill that group as well as any could (checked
        by a certificate); None is returned when that is not shown, and the caller
        computes with the group.
        """
        self.calls += 1
        self.covered = set()
        if self.sub is None:
            self._begin_subset(subset, mask)
        subset, unmatched, covered = self._solve_subset(subset, tiebreak)
        inset = set(subset)
        mate = self.mate
        if self.closed_subset:
            # the subset is known to be matched within itself in every optimal
            # matching, independently of the rest
            if unmatched:
                for v in subset:
                    mate[v] = v
                return self.compute(tiebreak)
        elif self.group is not None:
            if not self._group_absorbable(unmatched, inset, must_match):
                for v in subset:
                    mate[v] = v
                return None
        elif not self._absorbable(unmatched, inset, must_match):
            return self.compute(tiebreak)
        self.covered = set(covered)
        out = list(mate)
        for v in unmatched:
            out[v] = self.n
            mate[v] = v
        return out

    def _solve_subset(
        self, subset: Sequence[int], tiebreak: Tiebreak | None
    ) -> tuple[list[int], frozenset[int], list[int]]:
        """Best matching of the subset's edges (``self.sub``), written into ``self.mate``;
        returns the active vertices of the subset, those left unmatched and the covered ones."""
        subset = sorted(v for v in subset if self.active[v])
        edges = [(k[0], k[1], x[0], x[1]) for k, x in (self.sub or {}).items()]
        mate = self.mate
        for v in subset:
            mate[v] = v
        covered: list[int] = []
        if edges:
            for u, v in solve(edges, len(subset), self.n, tiebreak, covered, self.b_split, self.layout, self.tb_hint):
                mate[u] = v
                mate[v] = u
        return subset, frozenset(v for v in subset if mate[v] == v), covered

    def try_close(self, subset: Sequence[int], mask: int, must_match: Sequence[bool]) -> list[int] | None:
        """Close the computations to ``subset`` when it can be matched within itself and the
        vertices outside it can still all be matched (but for one vertex not in ``must_match``).

        The caller knows that every optimal matching then matches the subset within itself (its
        weights reward the pairs inside the subset above anything else below ``mask``). Returns
        the matching (as ``compute_within``), or None with nothing changed, when the subset has
        no perfect matching or the rest could not be completed.
        """
        subset = sorted(v for v in subset if self.active[v])
        if len(subset) % 2:
            return None
        # the completability check of the vertices outside this subset (the caches belong to
        # the current subset: set them aside)
        self.absorb_cache, self.outside_key = {}, None
        completable = self._absorbable(frozenset(), set(subset), must_match)
        self.absorb_cache, self.outside_key = {}, None
        if not completable:
            return None
        self.close_subset(subset, mask)
        self.calls += 1
        subset, unmatched, covered = self._solve_subset(subset, None)
        if unmatched:
            for v in subset:
                self.mate[v] = v
            self.sub, self.layout, self.closed_subset = None, {}, False
            return None
        self.covered = set(covered)
        return list(self.mate)

    def forget_subset(self) -> None:
        """A new subset follows: forget what depends on the current one."""
        self.absorb_cache = {}
        self.outside_key = None
        self.sub = None
        self.layout = {}
        self.closed_subset = False
        self.group = None
        self.group_floaters = set()
        self.below_cache = {}

    def close_subset(self, subset: Sequence[int], mask: int) -> None:
        """From now on compute within ``subset`` only: every optimal matching
        matches it within itself, whatever happens to the other vertices."""
        self._begin_subset(subset, mask)
        self.layout = {}
        self.closed_subset = True

    def restrict_subset(
        self,
        subset: Sequence[int],
        mask: int,
        group: Sequence[int] | None = None,
        floaters: Collection[int] = (),
    ) -> None:
        """From now on compute within ``subset``: the caller knows that the vertices outside it
        only matter through completability, whichever vertices of the subset are left over
        (the left-over ones are checked as in ``compute_within``).

        With ``group``: the vertices outside the subset also matter through the edges that
        end in ``group`` (the next score group), which carry one same weight below ``mask``
        for each of the ``floaters`` (vertices of the subset that may be left over) and one
        same weight between two vertices of the group. The most such edges a matching can
        hold is then every left-over vertex with one of the group and the rest of the group
        in pairs (but for one when their number is odd); a matching of the subset is
        accepted when its left-over vertices, all ``floaters``, are shown to reach that with
        every vertex outside completed: none of the other ways of leaving vertices over
        does better there, and within the subset it is the best (``compute_within``)."""
        self.forget_subset()
        self._begin_subset(subset, mask)
        if group is not None:
            self.group = list(group)
            self.group_floaters = set(floaters)

    def rows_alike(self, vertices: Sequence[int], others: Sequence[int], mask: int) -> bool:
        """Whether every vertex of ``vertices`` has the same edges (weights below ``mask``
        included) to each vertex of ``others``."""
        ref: list[Weight | None] | None = None
        get = self.get
        for x in vertices:
            row: list[Weight | None] = []
            for y in others:
                w = get(x, y)
                row.append(None if w is None else (w[0] & mask, w[1]))
            if ref is None:
                ref = row
            elif row != ref:
                return False
        return True

    def _begin_subset(self, subset: Sequence[int], mask: int) -> None:
        subset = sorted(v for v in subset if self.active[v])
        self.sub_set = set(subset)
        self.sub_mask = mask
        sub = {}
        Eget = self.E.get
        outside = self.outside
        miss = _MISSING
        for i, u in enumerate(subset):
            for v in subset[i + 1 :]:
                x = Eget((u, v), miss)
                if x is miss:
                    x = outside(u, v)
                if x is not None:
                    a = x[0] & mask
                    if a or x[1]:
                        sub[(u, v)] = (a, x[1])
        self.sub = sub

    def _absorbable(self, U: frozenset[int], inset: _IntSet, must_match: Sequence[bool]) -> bool:
        cache = self.absorb_cache
        if U in cache:
            return cache[U]
        if self._absorb_greedy(U, inset, must_match):
            cache[U] = True
            return True
        act = [v for v in range(self.n) if self.active[v] and (v not in inset or v in U)]
        if not act:
            cache[U] = True
            return True
        comp = self.compat
        edges = []
        for i, u in enumerate(act):
            uu = u in U
            nu = must_match[u]
            for v in act[i + 1 :]:
                if uu and v in U:
                    continue
                if comp(u, v):
                    edges.append((u, v, 1 + nu + must_match[v]))
        need = len(act) // 2 + sum(1 for v in act if must_match[v])
        ok = False
        if edges:
            g = rx.PyGraph()
            g.add_nodes_from(range(self.n))
            g.add_edges_from(edges)
            m = rx.max_weight_matching(g, max_cardinality=False, weight_fn=int)
            wmap = {(e[0], e[1]): e[2] for e in edges}
            total = sum(wmap.get((a, b), wmap.get((b, a), 0)) for a, b in m)
            ok = total >= need
        else:
            ok = len(act) <= 1 and (not act or not must_match[act[0]])
        cache[U] = ok
        return ok

    def _outside_matching(self, inset: _IntSet) -> None:
        """The base complete matching restricted to the vertices outside the subset (into ``outside_data``)."""
        if self.outside_key is not None:
            return
        L = [v for v in range(self.n) if self.active[v] and v not in inset]
        Lset = set(L)
        mate, free = self._base_among(L, Lset)
        self.outside_key = True
        self.outside_data = (L, Lset, mate, free)

    def _base_among(self, vertices: list[int], among: _IntSet) -> tuple[dict[int, int], list[int]]:
        """The pairs of the base complete matching within ``vertices`` (``among``: the same as a
        set), and those of them whose partner is elsewhere."""
        base = self.base_mate or {}
        mate: dict[int, int] = {}
        free: list[int] = []
        for v in vertices:
            m = base.get(v)
            if m is not None and m in among:
                mate[v] = m
            else:
                free.append(v)
        return mate, free

    def _absorb_greedy(self, U: frozenset[int], inset: _IntSet, must_match: Sequence[bool]) -> bool:
        """Quick certificate that the vertices U and the outside vertices can all be
        matched (but for one not in ``must_match``): extend a known matching of the
        outside vertices along alternating paths (a search that ignores odd cycles, so a
        failure proves nothing and the exact check follows)."""
        if self.outside_key is None:
            self._outside_matching(inset)
        L, Lset, mate0, free0 = self.outside_data
        left = self._extend(L + sorted(U), dict(mate0), set(U) | set(free0), U, must_match)
        return left is not None and (not left or not must_match[left[0]])

    def _extend(
        self,
        verts: list[int],
        mate: dict[int, int],
        pending: _IntSet,
        apart: Collection[int],
        must_match: Sequence[bool],
    ) -> list[int] | None:
        """Match the ``pending`` vertices by extending ``mate`` (a matching of the other
        ``verts``) along alternating paths, no two vertices of ``apart`` together; returns the
        one vertex (or none) left over, None when more are (a search that ignores odd cycles:
        a failure proves nothing). Vertices that must not be left over go first, and are
        matched with each other first."""
        comp = self.compat
        left: list[int] = []
        for root in sorted(pending, key=lambda v: (must_match[v], v), reverse=True):
            if root not in pending:
                continue
            pending.discard(root)
            strict = must_match[root] and any(must_match[v] for v in pending)
            parent = {}
            seen = {root}
            queue = [root]
            found = None
            while queue and found is None:
                nxt = []
                for a in queue:
                    ain = a in apart
                    for x in verts:
                        if x in seen or (ain and x in apart) or not comp(a, x):
                            continue
                        if x in pending and (not strict or must_match[x]):
                            parent[x] = a
                            found = x
                            break
                        if x in pending:
                            continue
                        y = mate.get(x)
                        if y is None or y in seen:
                            continue
                        seen.add(x)
                        seen.add(y)
                        parent[x] = a
                        parent[y] = x
                        nxt.append(y)
                    if found is not None:
                        break
                queue = nxt
            if found is None:
                left.append(root)
                if len(left) > 1:
                    return None
                continue
            pending.discard(found)
            # flip the path found ... a - x = y ... root
            x = found
            a = parent[x]
            while True:
                prev = mate.get(a, -1)  # a is matched unless it is the root
                mate[a] = x
                mate[x] = a
                if a == root:
                    break
                x = prev
                a = parent[x]
        return left

    def _group_absorbable(self, U: frozenset[int], inset: _IntSet, must_match: Sequence[bool]) -> bool:
        """Certificate for ``restrict_subset(..., group)``: every vertex of U (all floaters) is
        matched with a vertex of the group, the rest of the group in pairs but for at most one,
        and that one with the other outside vertices completed (but for one vertex not in
        ``must_match``). Greedy: False proves nothing."""
        cache = self.absorb_cache
        if U in cache:
            return cache[U]
        ok = False
        if U.issubset(self.group_floaters):
            ok = self._group_certificate(U, inset, must_match)
        cache[U] = ok
        return ok

    def _group_certificate(self, U: frozenset[int], inset: _IntSet, must_match: Sequence[bool]) -> bool:
        comp = self.compat
        active = self.active
        group = [v for v in self.group or () if active[v] and v not in inset]
        if len(U) > len(group):
            return False
        # each left-over vertex with one of the group (augmenting paths; the group's last first,
        # so that its first ones stay together)
        owner: dict[int, int] = {}
        rgroup = group[::-1]

        def place(u: int, seen: _IntSet) -> bool:
            for g in rgroup:
                if g not in seen and comp(u, g):
                    seen.add(g)
                    if g not in owner or place(owner[g], seen):
                        owner[g] = u
                        return True
            return False

        for u in sorted(U):
            if not place(u, set()):
                return False
        rest = [g for g in group if g not in owner]
        left = self._extend(rest, {}, set(rest), (), must_match)
        if left is None:
            return False
        # the other outside vertices, with the one of the group left over (if any)
        key = frozenset(left)
        ok = self.below_cache.get(key)
        if ok is None:
            gset = set(group)
            below = [v for v in range(self.n) if active[v] and v not in inset and v not in gset]
            mate, free = self._base_among(below, set(below))
            rest_left = self._extend(below + left, mate, set(left) | set(free), (), must_match)
            ok = rest_left is not None and (not rest_left or not must_match[rest_left[0]])
            self.below_cache[key] = ok
        return ok

    def compute_edges(self, edges: list[tuple[int, int, int]]) -> list[int]:
        """Maximum-weight matching of an explicit edge list [(u, v, w)] over all vertices
        (weights of any width: they are compressed like every other matching's)."""
        self.calls += 1
        mate = list(range(self.n))
        if edges:
            for u, v in solve([(u, v, w, 0) for u, v, w in edges], self.n, self.n):
                mate[u] = v
                mate[v] = u
        return mate

    def compute(self, tiebreak: Tiebreak | None = None) -> list[int]:
        """Maximum-weight matching of the whole graph; ``tiebreak``: [(vertex,
        [candidates best first]), ...] breaks the remaining ties lexicographically
        (first vertex first), below every weight, as far as the integer width allows."""
        self.calls += 1
        self.covered = set()
        mate = self.mate
        active = [v for v in range(self.n) if self.active[v]]
        for v in active:
            mate[v] = v
        get = self.get
        edges = []
        for i, u in enumerate(active):
            for v in active[i + 1 :]:
                x = get(u, v)
                if x is not None:
                    edges.append((u, v, x[0], x[1]))
        if not edges:
            return list(mate)
        covered: list[int] = []
        for u, v in solve(edges, len(active), self.n, tiebreak, covered, self.b_split, hint=self.tb_hint):
            mate[u] = v
            mate[v] = u
        self.covered = set(covered)
        return list(mate)


def compress(
    edges: list[Edge], nact: int, b_split: int = 0, layout: dict[str, Any] | None = None, lazy: bool = False
) -> tuple[list[int] | tuple[dict[int, int], int], int]:
    """Return integer weights (same order of sums over matchings) and their width.

    ``layout`` caches the packing of the high parts between computations whose
    edges only lose high values (bounds can only decrease)."""
    m = nact // 2
    if layout:
        keys = layout["keys"]
        if layout["abits"] > MAX_BITS - 40 or not all(e[2] in keys for e in edges):
            layout.clear()
    if not layout:
        newval, abits = _pack_high(edges, m)
        if layout is not None:
            layout["keys"] = newval
            layout["abits"] = abits
    else:
        newval = layout["keys"]
        abits = layout["abits"]
    nzb = [e for e in edges if e[3]]
    blows = {e[0] for e in nzb}
    bhighs = {e[1] for e in nzb}
    bk = max(1, min(m, len(blows), len(bhighs), len(blows | bhighs) // 2))

    def low_width(bv: list[int]) -> int:
        bmax = max(map(abs, bv), default=0)
        return _bits(bmax * bk) + 1

    lw = low_width([e[3] for e in nzb])
    if b_split and abits + lw > MAX_BITS:
        bvals, lw = _split_low([e[3] for e in edges], b_split, m, low_width)
        weights = [(newval[e[2]] << lw) + b for e, b in zip(edges, bvals)]
        return weights, abits + lw
    if lazy:
        return (newval, lw), abits + lw
    return [(newval[e[2]] << lw) + e[3] for e in edges], abits + lw


def _pack_high(edges: list[Edge], m: int) -> tuple[dict[int, int], int]:
    groups: dict[int, list[Edge]] = {}
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
    ends: dict[int, tuple[_IntSet, _IntSet]] = {}

    def region_bound(lo: int, hi: int) -> int:
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
            lows: _IntSet = set()
            highs: _IntSet = set()
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
    regions = _drop_redundant(regions, keys)
    newval = {}
    for a in keys:
        v = 0
        p = 0
        for lo, hi, width in regions:
            v |= ((a >> lo) & ((1 << (hi - lo + 1)) - 1)) << p
            p += width
        newval[a] = v
    return newval, sum(r[2] for r in regions)


def _drop_redundant(regions: list[tuple[int, int, int]], keys: list[int]) -> list[tuple[int, int, int]]:
    """Drop every region whose values are, edge by edge, a fixed positive multiple of
    a higher-priority region's: its sum over a matching is then decided above it."""
    kept = []
    vecs: list[list[int]] = []
    for lo, hi, width in reversed(regions):
        mask = (1 << (hi - lo + 1)) - 1
        vec = [(a >> lo) & mask for a in keys]
        first = next((i for i, x in enumerate(vec) if x), None)
        redundant = False
        if first is not None:
            for other in vecs:
                o0 = other[first]
                if o0 and all(y * o0 == x * vec[first] for x, y in zip(other, vec)):
                    redundant = True
                    break
        if not redundant:
            kept.append((lo, hi, width))
            vecs.append(vec)
    kept.reverse()
    return kept


def _split_low(bvals: list[int], split: int, m: int, low_width: Callable[[list[int]], int]) -> tuple[list[int], int]:
    """Re-encode the tie-break part b = F * 2**split + r (|r| small) as F * K + r
    with K just above the largest possible |sum of r| over a matching."""
    half = 1 << (split - 1)
    fs = []
    rs = []
    for b in bvals:
        f = (b + half) >> split
        fs.append(f)
        rs.append(b - (f << split))
    rmax = max((abs(r) for r in rs), default=0)
    k = 2 * rmax * m + 1
    if k >= (1 << split):
        return bvals, low_width(bvals)
    out = [f * k + r for f, r in zip(fs, rs)]
    return out, low_width(out)


TIEBREAK_SLACK = 8
TIEBREAK_MARGIN = 4
TIEBREAK_FAR = 40
PREDICTED_SLACK = 1


def solve(
    edges: list[Edge],
    nact: int,
    nvert: int,
    tiebreak: Tiebreak | None = None,
    covered: list[int] | None = None,
    b_split: int = 0,
    layout: dict[str, Any] | None = None,
    hint: dict[str, int] | None = None,
) -> Collection[tuple[int, int]]:
    """Matched pairs of a maximum-weight matching of the (u, v, A, b) edges.

    ``tiebreak`` [(vertex, [candidates, best first]), ...]: below every weight,
    prefer for the first vertex its best candidate, then for the second, ... as
    far as the integer width allows.  ``covered`` receives the vertices whose
    partner is then known to be their best possible one.  ``hint`` carries from one
    computation to the next how to rank the candidates (a guess: it changes how many
    vertices one computation settles, never the matching)."""
    if tiebreak and layout:
        layout.clear()  # fresh, tighter bounds leave more room for the tie-break
    weights, width = compress(edges, nact, b_split, layout, lazy=True)
    # (vertex, its ranked candidates, their bits)
    chosen: list[tuple[int, list[int], int]] = []
    prio: dict[tuple[int, int], int] = {}
    used = 0
    hint = {} if hint is None else hint
    slack = hint.get("slack", TIEBREAK_SLACK)
    predict = hint.get("predict", 1)
    # a vertex whose best partner the weights themselves give: no rank, but the others'
    # predictions know that it takes its first candidate
    settled = hint.pop("settled", None)
    entries: list[tuple[int, list[int]]] = []
    if tiebreak and width < MAX_BITS:
        budget = MAX_BITS - width
        taken: set[int] = set()
        for v, all_cands in tiebreak:
            if v == settled:
                if all_cands:
                    taken.add(all_cands[0])
                continue
            i = len(entries)
            if predict:
                # each vertex predicted to take its first candidate that the vertices before
                # it were not predicted to take: rank that one and the next
                cands = []
                for q in all_cands:
                    if q not in taken:
                        cands.append(q)
                        if len(cands) > PREDICTED_SLACK:
                            break
                if cands:
                    taken.add(cands[0])
            else:
                # the i-th vertex usually gets about its i-th candidate (the earlier vertices
                # take theirs) after the candidates that nobody takes: rank a prefix that long
                cands = all_cands[: i + slack]
            need = _bits(len(cands))
            if not cands or used + need > budget:
                break
            chosen.append((v, cands, need))
            entries.append((v, all_cands))
            used += need
        shift = 0
        for v, cands, need in reversed(chosen):
            k = len(cands)
            for j, q in enumerate(cands):
                key = (v, q) if v < q else (q, v)
                prio[key] = prio.get(key, 0) + ((k - j) << shift)
            shift += need
        if prio:
            width += used
        else:
            used = 0
    if isinstance(weights, tuple):
        newval, lw = weights
        if prio:
            pget = prio.get
            triples = [(e[0], e[1], (((newval[e[2]] << lw) + e[3]) << used) + pget((e[0], e[1]), 0)) for e in edges]
        else:
            triples = [(e[0], e[1], (newval[e[2]] << lw) + e[3]) for e in edges]
    elif prio:
        pget = prio.get
        triples = [(e[0], e[1], (w << used) + pget((e[0], e[1]), 0)) for e, w in zip(edges, weights)]
    else:
        triples = [(e[0], e[1], w) for e, w in zip(edges, weights)]
    if width <= MAX_BITS:
        g = rx.PyGraph()
        g.add_nodes_from(range(nvert))
        g.add_edges_from(triples)
        result: Collection[tuple[int, int]] = rx.max_weight_matching(g, max_cardinality=False, weight_fn=int)
    else:
        from .bigmatch import max_weight_matching

        result = max_weight_matching(triples)
    if chosen and covered is not None:
        partner: dict[int, int] = {}
        for a, b in result:
            partner[a] = b
            partner[b] = a
        skipped = 0  # how far past its place the partner of a vertex lies
        before: set[int] = set() if settled is None else {settled}
        for i, (v, cands, _need) in enumerate(chosen):
            mine = partner.get(v)
            whole = entries[i][1]
            # a ranked partner, and every better candidate either ranked higher or taken by a
            # vertex before: the partner is the best one possible (given the vertices before)
            if mine not in cands:
                # the next computation ranks that far too, unless the partner lay far beyond
                # the others' (the vertex is then the next one settled on its own)
                if mine in whole and whole.index(mine) - i <= TIEBREAK_FAR:
                    skipped = max(skipped, whole.index(mine) - i)
                break
            at = whole.index(mine)
            if predict and any(q not in cands and partner.get(q) not in before for q in whole[:at]):
                break
            skipped = max(skipped, at - i)
            covered.append(v)
            before.add(v)
        # how the next computation (the following vertices of the same bracket) ranks: a
        # guess, that changes how many vertices a computation settles, never the matching
        if predict:
            hint["predict"] = int(2 * len(covered) >= len(chosen))
        else:
            hint["predict"] = int(skipped == 0 and len(covered) == len(chosen))
        hint["slack"] = max(TIEBREAK_SLACK, skipped + TIEBREAK_MARGIN)
    return result
