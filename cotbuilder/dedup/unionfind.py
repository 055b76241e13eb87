"""Union-find over integer ids (path halving, union by size): turns duplicate pairs into clusters."""

from __future__ import annotations

import numpy as np


class UnionFind:
    def __init__(self, n: int):
        self.parent = list(range(n))
        self.size = [1] * n

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if self.size[ra] < self.size[rb]:
            ra, rb = rb, ra
        self.parent[rb] = ra
        self.size[ra] += self.size[rb]

    def labels(self) -> np.ndarray:
        """The smallest id of each id's set, for every id at once (numpy: a `find` per id was a Python loop over
        every document)."""
        parent = np.asarray(self.parent, dtype=np.int64)
        while True:  # pointer jumping: every id ends on its root
            up = parent[parent]
            if np.array_equal(up, parent):
                break
            parent = up
        smallest = np.full(len(parent), len(parent), dtype=np.int64)
        np.minimum.at(smallest, parent, np.arange(len(parent)))
        return smallest[parent]

    def groups(self) -> list[list[int]]:
        out: dict[int, list[int]] = {}
        for i, label in enumerate(self.labels().tolist()):
            out.setdefault(label, []).append(i)
        return list(out.values())
