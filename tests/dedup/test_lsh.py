"""LSH buckets, union-find labels and the choice of representatives, against plain one-at-a-time versions of the same
rules (the columnar versions replaced these loops in the driver; the decisions must not move)."""

from __future__ import annotations

import random

import numpy as np
import polars as pl

from cotbuilder.dedup import minhash
from cotbuilder.dedup.facts import UnitFacts
from cotbuilder.dedup.stage import rank_key, representatives
from cotbuilder.dedup.unionfind import UnionFind


def _reference_pairs(sig: np.ndarray, bands: int, rows: int, max_bucket_pairs: int) -> set[tuple[int, int]]:
    """Buckets as dicts: every pair of a small bucket, a star from the smallest index of a large one."""
    pairs: set[tuple[int, int]] = set()
    for b in range(bands):
        buckets: dict[bytes, list[int]] = {}
        for i in range(len(sig)):
            buckets.setdefault(sig[i, b * rows : (b + 1) * rows].tobytes(), []).append(i)
        for members in buckets.values():
            if len(members) <= max_bucket_pairs:
                pairs |= {(a, c) for k, a in enumerate(members) for c in members[k + 1 :]}
            else:
                pairs |= {(members[0], c) for c in members[1:]}
    return pairs


def test_candidate_pairs_are_the_bucket_pairs_with_large_buckets_as_stars_from_their_smallest_index():
    rng = np.random.default_rng(5)
    bands, rows = 6, 3
    sig = rng.integers(0, 4, size=(400, bands * rows), dtype=np.uint32)  # few values: many and large buckets
    sig[rng.choice(400, 120, replace=False), :rows] = 7  # one bucket of 120 in band 0, its members scattered
    got = minhash.candidate_pair_array(sig, bands, rows, max_bucket_pairs=20)
    assert {tuple(p) for p in got.tolist()} == _reference_pairs(sig, bands, rows, 20)
    assert got.tolist() == sorted(got.tolist())  # sorted, i < j
    keys = minhash.band_key_matrix(sig, bands, rows)  # keys made elsewhere (dedup's workers) give the same pairs
    assert np.array_equal(minhash.candidate_pair_array(sig, bands, rows, max_bucket_pairs=20, keys=keys), got)


def test_union_find_labels_are_the_smallest_member_of_each_set():
    rng = random.Random(2)
    uf = UnionFind(500)
    for _ in range(300):
        uf.union(rng.randrange(500), rng.randrange(500))
    labels = uf.labels()
    for group in uf.groups():
        assert set(labels[group].tolist()) == {min(group)}
    assert len(uf.groups()) == len(set(labels.tolist()))


def test_representatives_are_the_smallest_rank_key_of_each_cluster():
    rng = random.Random(11)
    n = 3000
    ids = sorted(f"{rng.getrandbits(64):016x}" for _ in range(n))
    facts = []
    for unit_id in ids:
        said = rng.random() < 0.5
        facts.append(
            {
                "unit_id": unit_id,
                "license_allowed": rng.random() < 0.7,
                "verified": (rng.random() < 0.5) if said else None,
                "annotation_id": (f"a{rng.randrange(9)}" if rng.random() < 0.5 else None) if said else None,
                "rationale_chars": rng.choice([0, 10, 10, 250]) if said else None,
                "has_harness": rng.random() < 0.4,
            }
        )
    uf = UnionFind(n)
    for _ in range(2500):  # clusters of all sizes, many ties on every field but the unit_id
        a = rng.randrange(n)
        uf.union(a, min(n - 1, a + rng.randrange(1, 40)))
    frame = pl.DataFrame(facts)
    harness = frame.select("unit_id", "has_harness")
    rep_of = representatives(frame.drop("has_harness"), uf.labels(), lambda: harness)

    def key(i: int) -> tuple:
        f = facts[i]
        unit = UnitFacts(
            f["unit_id"],
            "MIT",
            f["has_harness"],
            verified=bool(f["verified"]),
            annotation={"annotation_id": f["annotation_id"]} if f["annotation_id"] else None,
            rationale_chars=f["rationale_chars"] or 0,
        )
        return rank_key(unit, f["license_allowed"])

    shared = 0
    for group in uf.groups():
        best = min(group, key=key) if len(group) > 1 else group[0]
        assert set(rep_of[group].tolist()) == {best}
        shared += len(group) > 1
    assert shared > 100
