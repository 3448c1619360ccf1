"""Maximum-weight matching on exact (arbitrarily large) integer weights.

A pure-Python implementation of Edmonds' blossom algorithm with Galil's
O(n^3) primal-dual bookkeeping.  Used only when the compressed weights do not
fit the 127-bit integers of rustworkx.
"""

from __future__ import annotations

from collections.abc import Iterator


def max_weight_matching(edges: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """edges: list of (u, v, w) with vertex numbers u, v and integer w > 0.

    Returns a list of matched pairs (u, v) of a maximum-weight matching
    (not necessarily of maximum cardinality).
    """
    if not edges:
        return []
    labels: dict[int, int] = {}
    for u, v, _ in edges:
        if u not in labels:
            labels[u] = len(labels)
        if v not in labels:
            labels[v] = len(labels)
    names = [0] * len(labels)
    for k, i in labels.items():
        names[i] = k
    E = [(labels[u], labels[v], 2 * w) for u, v, w in edges]  # doubled: integer duals
    mate = _solve(len(names), E)
    out = []
    for v, m in enumerate(mate):
        if m != -1 and v < m:
            out.append((names[v], names[m]))
    return out


def _solve(nvertex: int, edges: list[tuple[int, int, int]]) -> list[int]:
    """mate[v]: the vertex matched with ``v``, or -1."""
    return _Matcher(nvertex, edges).solve()


class _Matcher:
    """The state of the primal-dual method (the names of the classic implementation: vertices ``0..n-1``, blossoms
    ``n..2n-1``; an edge ``k`` has the endpoints ``2k`` and ``2k+1``; labels 1 = S, 2 = T; dual variables doubled)."""

    def __init__(self, nvertex: int, edges: list[tuple[int, int, int]]) -> None:
        self.nvertex = nvertex
        self.edges = edges
        self.nedge = nedge = len(edges)
        maxweight = max(0, max(w for _, _, w in edges))
        self.endpoint = [edges[p // 2][p % 2] for p in range(2 * nedge)]
        self.neighbend: list[list[int]] = [[] for _ in range(nvertex)]
        for k, (i, j, _w) in enumerate(edges):
            self.neighbend[i].append(2 * k + 1)
            self.neighbend[j].append(2 * k)
        self.mate = nvertex * [-1]
        self.label = (2 * nvertex) * [0]
        self.labelend = (2 * nvertex) * [-1]
        self.inblossom = list(range(nvertex))
        self.blossomparent = (2 * nvertex) * [-1]
        self.blossomchilds: list[list[int]] = [[] for _ in range(2 * nvertex)]
        self.blossombase = list(range(nvertex)) + nvertex * [-1]
        self.blossomendps: list[list[int]] = [[] for _ in range(2 * nvertex)]
        self.bestedge = (2 * nvertex) * [-1]
        self.blossombestedges: list[list[int] | None] = [None] * (2 * nvertex)
        self.unusedblossoms = list(range(nvertex, 2 * nvertex))
        self.dualvar = nvertex * [maxweight] + nvertex * [0]
        self.allowedge = nedge * [False]
        self.queue: list[int] = []

    # ------------------------------------------------------------------ the stages
    def solve(self) -> list[int]:
        """One stage per augmenting path, until none is left."""
        nvertex = self.nvertex
        for _ in range(nvertex):
            self.start_stage()
            if not self.stage():
                break
            # end of the stage: expand the S-blossoms with a zero dual
            for b in range(nvertex, 2 * nvertex):
                if (
                    self.blossomparent[b] == -1
                    and self.blossombase[b] >= 0
                    and self.label[b] == 1
                    and self.dualvar[b] == 0
                ):
                    self.expand_blossom(b, True)
        mate, endpoint = self.mate, self.endpoint
        return [endpoint[mate[v]] if mate[v] >= 0 else -1 for v in range(nvertex)]

    def start_stage(self) -> None:
        """Labels and best edges forgotten; every single top vertex an S-vertex."""
        nvertex = self.nvertex
        self.label[:] = (2 * nvertex) * [0]
        self.bestedge[:] = (2 * nvertex) * [-1]
        self.blossombestedges[nvertex:] = nvertex * [None]
        self.allowedge[:] = self.nedge * [False]
        self.queue[:] = []
        for v in range(nvertex):
            if self.mate[v] == -1 and self.label[self.inblossom[v]] == 0:
                self.assign_label(v, 1, -1)

    def stage(self) -> bool:
        """Grow the alternating trees, changing the duals when stuck; True when the matching was augmented,
        False when the duals show it is the best (no augmenting path left)."""
        while True:
            if self.scan_queue():
                return True
            deltatype, delta, deltaedge, deltablossom = self.delta()
            self.update_duals(delta)
            if deltatype == 1:
                return False
            self.apply_delta(deltatype, deltaedge, deltablossom)

    def scan_queue(self) -> bool:
        """Scan the edges of the S-vertices of the queue to vertices in other blossoms: grow the trees, make
        blossoms; True when an augmenting path was found (and used)."""
        queue, neighbend, endpoint, inblossom = self.queue, self.neighbend, self.endpoint, self.inblossom
        edges, dualvar, allowedge = self.edges, self.dualvar, self.allowedge
        while queue:
            v = queue.pop()
            for p in neighbend[v]:
                w = endpoint[p]
                if inblossom[v] == inblossom[w]:
                    continue
                k = p // 2
                kslack = 0
                if not allowedge[k]:
                    i, j, wt = edges[k]
                    kslack = dualvar[i] + dualvar[j] - 2 * wt  # slack(k), inline: the hot loop
                    if kslack <= 0:
                        allowedge[k] = True
                if not allowedge[k]:
                    self.loose_edge(v, w, k, kslack)
                elif self.tight_edge(v, w, p):
                    return True
        return False

    def loose_edge(self, v: int, w: int, k: int, kslack: int) -> None:
        """An edge with slack: remembered as the best edge of ``v``'s blossom (to an S-blossom) or of ``w``."""
        label, inblossom, bestedge = self.label, self.inblossom, self.bestedge
        if label[inblossom[w]] == 1:
            b = inblossom[v]
            if bestedge[b] == -1 or kslack < self.slack(bestedge[b]):
                bestedge[b] = k
        elif label[w] == 0 and (bestedge[w] == -1 or kslack < self.slack(bestedge[w])):
            bestedge[w] = k

    def tight_edge(self, v: int, w: int, p: int) -> bool:
        """A zero-slack edge: label ``w`` T, or make a blossom, or augment (then True)."""
        label, inblossom = self.label, self.inblossom
        if label[inblossom[w]] == 0:
            self.assign_label(w, 2, p ^ 1)
        elif label[inblossom[w]] == 1:
            base = self.scan_blossom(v, w)
            if base < 0:
                self.augment_matching(p // 2)
                return True
            self.add_blossom(base, p // 2)
        elif label[w] == 0:
            label[w] = 2
            self.labelend[w] = p ^ 1
        return False

    def delta(self) -> tuple[int, int, int, int]:
        """The smallest change of the duals that allows a new edge, or expands a blossom, or ends the stage:
        (its type 1 to 4, the change, the edge, the blossom)."""
        nvertex, label, inblossom, bestedge = self.nvertex, self.label, self.inblossom, self.bestedge
        deltaedge = deltablossom = -1
        # type 1: minimum dual of a vertex (no max-cardinality)
        deltatype = 1
        delta = min(self.dualvar[:nvertex])
        for v in range(nvertex):
            if label[inblossom[v]] == 0 and bestedge[v] != -1:
                d = self.slack(bestedge[v])
                if d < delta:
                    delta = d
                    deltatype = 2
                    deltaedge = bestedge[v]
        for b in range(2 * nvertex):
            if self.blossomparent[b] == -1 and label[b] == 1 and bestedge[b] != -1:
                d = self.slack(bestedge[b]) // 2
                if d < delta:
                    delta = d
                    deltatype = 3
                    deltaedge = bestedge[b]
        for b in range(nvertex, 2 * nvertex):
            if self.blossombase[b] >= 0 and self.blossomparent[b] == -1 and label[b] == 2 and self.dualvar[b] < delta:
                delta = self.dualvar[b]
                deltatype = 4
                deltablossom = b
        return deltatype, delta, deltaedge, deltablossom

    def update_duals(self, delta: int) -> None:
        nvertex, label, inblossom, dualvar = self.nvertex, self.label, self.inblossom, self.dualvar
        for v in range(nvertex):
            if label[inblossom[v]] == 1:
                dualvar[v] -= delta
            elif label[inblossom[v]] == 2:
                dualvar[v] += delta
        for b in range(nvertex, 2 * nvertex):
            if self.blossombase[b] >= 0 and self.blossomparent[b] == -1:
                if label[b] == 1:
                    dualvar[b] += delta
                elif label[b] == 2:
                    dualvar[b] -= delta

    def apply_delta(self, deltatype: int, deltaedge: int, deltablossom: int) -> None:
        if deltatype == 2:
            self.allowedge[deltaedge] = True
            i, j, _wt = self.edges[deltaedge]
            if self.label[self.inblossom[i]] == 0:
                i, j = j, i
            self.queue.append(i)
        elif deltatype == 3:
            self.allowedge[deltaedge] = True
            i, j, _wt = self.edges[deltaedge]
            self.queue.append(i)
        elif deltatype == 4:
            self.expand_blossom(deltablossom, False)

    # ------------------------------------------------------------------ the steps
    def slack(self, k: int) -> int:
        i, j, wt = self.edges[k]
        return self.dualvar[i] + self.dualvar[j] - 2 * wt

    def blossom_leaves(self, b: int) -> Iterator[int]:
        if b < self.nvertex:
            yield b
        else:
            for t in self.blossomchilds[b]:
                if t < self.nvertex:
                    yield t
                else:
                    yield from self.blossom_leaves(t)

    def assign_label(self, w: int, t: int, p: int) -> None:
        b = self.inblossom[w]
        self.label[w] = self.label[b] = t
        self.labelend[w] = self.labelend[b] = p
        self.bestedge[w] = self.bestedge[b] = -1
        if t == 1:
            self.queue.extend(self.blossom_leaves(b))
        elif t == 2:
            base = self.blossombase[b]
            mate = self.mate
            self.assign_label(self.endpoint[mate[base]], 1, mate[base] ^ 1)

    def scan_blossom(self, v: int, w: int) -> int:
        """Trace back from ``v`` and ``w``: the base of the new blossom, or -1 (an augmenting path)."""
        label, labelend, inblossom, endpoint = self.label, self.labelend, self.inblossom, self.endpoint
        path = []
        base = -1
        while v != -1 or w != -1:
            b = inblossom[v]
            if label[b] & 4:
                base = self.blossombase[b]
                break
            path.append(b)
            label[b] = 5
            if labelend[b] == -1:
                v = -1
            else:
                v = endpoint[labelend[b]]
                b = inblossom[v]
                v = endpoint[labelend[b]]
            if w != -1:
                v, w = w, v
        for b in path:
            label[b] = 1
        return base

    def add_blossom(self, base: int, k: int) -> None:
        """A new S-blossom from edge ``k`` and the two paths down to ``base``."""
        b = self.unusedblossoms.pop()
        path = self.blossom_cycle(b, base, k)
        label, inblossom = self.label, self.inblossom
        label[b] = 1
        self.labelend[b] = self.labelend[inblossom[base]]
        self.dualvar[b] = 0
        for v in self.blossom_leaves(b):
            if label[inblossom[v]] == 2:
                self.queue.append(v)
            inblossom[v] = b
        self.blossom_best_edges(b, path)

    def blossom_cycle(self, b: int, base: int, k: int) -> list[int]:
        """Blossom ``b``'s children (the sub-blossoms around the cycle, from the base) and their endpoints."""
        blossomparent, labelend, endpoint, inblossom = self.blossomparent, self.labelend, self.endpoint, self.inblossom
        v, w, _wt = self.edges[k]
        bb = inblossom[base]
        bv = inblossom[v]
        bw = inblossom[w]
        self.blossombase[b] = base
        blossomparent[b] = -1
        blossomparent[bb] = b
        self.blossomchilds[b] = path = []
        self.blossomendps[b] = endps = []
        while bv != bb:
            blossomparent[bv] = b
            path.append(bv)
            endps.append(labelend[bv])
            v = endpoint[labelend[bv]]
            bv = inblossom[v]
        path.append(bb)
        path.reverse()
        endps.reverse()
        endps.append(2 * k)
        while bw != bb:
            blossomparent[bw] = b
            path.append(bw)
            endps.append(labelend[bw] ^ 1)
            w = endpoint[labelend[bw]]
            bw = inblossom[w]
        return path

    def blossom_best_edges(self, b: int, path: list[int]) -> None:
        """The least-slack edges from new blossom ``b`` to each neighbouring S-blossom."""
        edges, label, inblossom = self.edges, self.label, self.inblossom
        bestedgeto = (2 * self.nvertex) * [-1]
        for bv in path:
            best_of_bv = self.blossombestedges[bv]
            if best_of_bv is None:
                nblists = [[p // 2 for p in self.neighbend[v]] for v in self.blossom_leaves(bv)]
            else:
                nblists = [best_of_bv]
            for nblist in nblists:
                for k2 in nblist:
                    i, j, _wt = edges[k2]
                    if inblossom[j] == b:
                        i, j = j, i
                    bj = inblossom[j]
                    if (
                        bj != b
                        and label[bj] == 1
                        and (bestedgeto[bj] == -1 or self.slack(k2) < self.slack(bestedgeto[bj]))
                    ):
                        bestedgeto[bj] = k2
            self.blossombestedges[bv] = None
            self.bestedge[bv] = -1
        best_of_b = [k2 for k2 in bestedgeto if k2 != -1]
        self.blossombestedges[b] = best_of_b
        self.bestedge[b] = -1
        for k2 in best_of_b:
            if self.bestedge[b] == -1 or self.slack(k2) < self.slack(self.bestedge[b]):
                self.bestedge[b] = k2

    def expand_blossom(self, b: int, endstage: bool) -> None:
        """Blossom ``b`` undone: its children become top blossoms (relabelled when it was a T-blossom in the
        middle of a stage)."""
        for s in self.blossomchilds[b]:
            self.blossomparent[s] = -1
            if s < self.nvertex:
                self.inblossom[s] = s
            elif endstage and self.dualvar[s] == 0:
                self.expand_blossom(s, endstage)
            else:
                for v in self.blossom_leaves(s):
                    self.inblossom[v] = s
        if (not endstage) and self.label[b] == 2:
            self.relabel_expanded(b)
        self.label[b] = self.labelend[b] = -1
        self.blossomchilds[b] = []
        self.blossomendps[b] = []
        self.blossombase[b] = -1
        self.blossombestedges[b] = None
        self.bestedge[b] = -1
        self.unusedblossoms.append(b)

    def relabel_expanded(self, b: int) -> None:
        """The children of expanded T-blossom ``b``: T and S along the even path from the entry child to the
        base; the others reachable from the tree are labelled T through their vertices."""
        label, labelend, endpoint, inblossom = self.label, self.labelend, self.endpoint, self.inblossom
        childs, endps = self.blossomchilds[b], self.blossomendps[b]
        entrychild = inblossom[endpoint[labelend[b] ^ 1]]
        j = childs.index(entrychild)
        if j & 1:
            j -= len(childs)
            jstep = 1
            endptrick = 0
        else:
            jstep = -1
            endptrick = 1
        p = labelend[b]
        while j != 0:
            label[endpoint[p ^ 1]] = 0
            label[endpoint[endps[j - endptrick] ^ endptrick ^ 1]] = 0
            self.assign_label(endpoint[p ^ 1], 2, p)
            self.allowedge[endps[j - endptrick] // 2] = True
            j += jstep
            p = endps[j - endptrick] ^ endptrick
            self.allowedge[p // 2] = True
            j += jstep
        bv = childs[j]
        label[endpoint[p ^ 1]] = label[bv] = 2
        labelend[endpoint[p ^ 1]] = labelend[bv] = p
        self.bestedge[bv] = -1
        j += jstep
        while childs[j] != entrychild:
            bv = childs[j]
            if label[bv] != 1:
                self.label_reachable_child(bv)
            j += jstep

    def label_reachable_child(self, bv: int) -> None:
        """A child of an expanded T-blossom off the path: T when one of its vertices was reached."""
        label = self.label
        v = -1
        for v in self.blossom_leaves(bv):
            if label[v] != 0:
                break
        if label[v] != 0:
            label[v] = 0
            label[self.endpoint[self.mate[self.blossombase[bv]]]] = 0
            self.assign_label(v, 2, self.labelend[v])

    def augment_blossom(self, b: int, v: int) -> None:
        """Swap matched and unmatched edges along the even path in blossom ``b`` from ``v`` to the base."""
        blossomchilds, blossomendps, endpoint, mate = self.blossomchilds, self.blossomendps, self.endpoint, self.mate
        nvertex = self.nvertex
        t = v
        while self.blossomparent[t] != b:
            t = self.blossomparent[t]
        if t >= nvertex:
            self.augment_blossom(t, v)
        i = j = blossomchilds[b].index(t)
        if i & 1:
            j -= len(blossomchilds[b])
            jstep = 1
            endptrick = 0
        else:
            jstep = -1
            endptrick = 1
        while j != 0:
            j += jstep
            t = blossomchilds[b][j]
            p = blossomendps[b][j - endptrick] ^ endptrick
            if t >= nvertex:
                self.augment_blossom(t, endpoint[p])
            j += jstep
            t = blossomchilds[b][j]
            if t >= nvertex:
                self.augment_blossom(t, endpoint[p ^ 1])
            mate[endpoint[p]] = p ^ 1
            mate[endpoint[p ^ 1]] = p
        blossomchilds[b] = blossomchilds[b][i:] + blossomchilds[b][:i]
        blossomendps[b] = blossomendps[b][i:] + blossomendps[b][:i]
        self.blossombase[b] = self.blossombase[blossomchilds[b][0]]

    def augment_matching(self, k: int) -> None:
        """Swap matched and unmatched edges along the augmenting path through edge ``k``."""
        inblossom, labelend, endpoint, mate = self.inblossom, self.labelend, self.endpoint, self.mate
        nvertex = self.nvertex
        v, w, _wt = self.edges[k]
        for s, p in ((v, 2 * k + 1), (w, 2 * k)):
            while True:
                bs = inblossom[s]
                if bs >= nvertex:
                    self.augment_blossom(bs, s)
                mate[s] = p
                if labelend[bs] == -1:
                    break
                t = endpoint[labelend[bs]]
                bt = inblossom[t]
                s = endpoint[labelend[bt]]
                j = endpoint[labelend[bt] ^ 1]
                if bt >= nvertex:
                    self.augment_blossom(bt, j)
                mate[j] = labelend[bt]
                p = labelend[bt] ^ 1
