"""Dedup: exact + MinHash LSH clusters over code tokens, representative choice, idempotent re-runs."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

from cotbuilder.dedup import clusters, minhash, synthetic, tokens
from cotbuilder.dedup.stage import DedupConfig, run
from cotbuilder.store import Store


def _pairs(labels: list[int]) -> set[tuple[int, int]]:
    by: dict[int, list[int]] = {}
    for i, g in enumerate(labels):
        by.setdefault(g, []).append(i)
    return {p for members in by.values() for p in itertools.combinations(sorted(members), 2)}


def test_precision_and_recall_on_generated_duplicate_groups():
    rng = random.Random(7)
    codes, truth, kinds = [], [], []
    for g in range(150):
        base = synthetic.base_kernel(rng)
        codes.append(base)
        truth.append(g)
        kinds.append("base")
        for kind in synthetic.VARIANTS:  # every group has all four kinds of duplicate
            codes.append(synthetic.variant(base, kind, rng))
            truth.append(g)
            kinds.append(kind)
    for g in range(150, 300):  # and as many kernels without any duplicate
        codes.append(synthetic.base_kernel(rng))
        truth.append(g)
        kinds.append("base")
    result = clusters.cluster_codes(codes, clusters.ClusterParams(threshold=0.7, num_perm=256, ngram=5))
    predicted = [0] * len(codes)
    for k, group in enumerate(result.groups):
        for i in group:
            predicted[i] = k
    true_pairs, found_pairs = _pairs(truth), _pairs(predicted)
    precision = len(true_pairs & found_pairs) / len(found_pairs)
    recall = len(true_pairs & found_pairs) / len(true_pairs)
    assert precision >= 0.98, precision
    assert recall >= 0.85, recall
    # recall per kind of duplicate: is the variant in its base's cluster?
    base_of = {truth[i]: i for i in range(len(codes)) if kinds[i] == "base"}
    caught = Counter(
        kinds[i] for i in range(len(codes)) if kinds[i] != "base" and predicted[i] == predicted[base_of[truth[i]]]
    )
    assert caught["exact"] == caught["reformatted"] == 150
    assert caught["renamed"] >= 145
    # true Jaccard ~0.74 against a 0.7 threshold: LSH (25 bands x 10 rows) makes such a pair a candidate with
    # p = 1 - (1 - 0.74**10)**25 = 0.72, and its 256-permutation estimate clears 0.7 with p ~ 0.93: ~100 of 150 expected
    # (95-110 over token-hash seeds); below 85 would mean the shingles or signatures lost similarity
    assert caught["shared80"] >= 85


def test_reformatting_and_comments_do_not_change_the_exact_hash_but_operators_do():
    a = "int f(int x) {\n  return x * 2; // double\n}"
    b = "/* doc */ int f ( int x )\n{ return x*2; }"
    assert tokens.code_hash(a) == tokens.code_hash(b)
    assert tokens.code_hash(a) != tokens.code_hash(a.replace("*", "+"))
    assert tokens.tokens("a[i] = b->c >> 2;") == ["a", "[", "i", "]", "=", "b", "->", "c", ">>", "2", ";"]


def test_bands_and_rows_minimise_the_same_error_as_datasketch():
    from datasketch.lsh import _optimal_param

    for threshold, num_perm in ((0.7, 256), (0.8, 128), (0.5, 64)):
        assert minhash.optimal_bands(threshold, num_perm) == _optimal_param(threshold, num_perm, 0.5, 0.5)


def test_rensa_and_datasketch_signatures_estimate_the_same_jaccard():
    rng = random.Random(3)
    base = synthetic.base_kernel(rng)
    docs = [base] + [synthetic.variant(base, k, rng) for k in ("renamed", "shared80")] + [synthetic.base_kernel(rng)]
    sh = [minhash.shingle_hashes(tokens.tokens(d), 5) for d in docs]
    for backend in ("rensa", "datasketch"):
        sig = minhash.signatures(sh, 256, backend=backend)
        for j in range(1, len(docs)):
            assert abs(minhash.estimated_jaccard(sig[0], sig[j]) - minhash.exact_jaccard(sh[0], sh[j])) < 0.1


def _factory():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "cb_records_factory", Path(__file__).resolve().parents[1] / "publish" / "records_factory.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_representative_is_the_verified_allowed_licence_copy_and_rerun_does_nothing(tmp_path):
    f = _factory()
    rng = random.Random(11)
    base = synthetic.base_kernel(rng)
    with Store(tmp_path / "ws") as store:
        f.source(store)
        cann = f.unit(store, "a_cann", base, license="LicenseRef-CANN-Open-Software-License-1.0")
        plain = f.unit(store, "b_plain", synthetic.reformat(base, rng))
        verified = f.unit(store, "c_verified", synthetic.rename(base, rng), harness=False)
        lonely = f.unit(store, "d_other", synthetic.base_kernel(rng))
        f.verification(store, verified, "passed")
        f.verification(store, cann, "passed")
        f.verification(store, plain, "wrong_answer")
        stats = run(store, DedupConfig())
        rows = {r["unit_id"]: r for r in store.rows("SELECT * FROM dedup")}
        assert rows[verified]["is_representative"]  # verified + allowed licence beats verified + CANN licence
        assert not rows[cann]["is_representative"] and not rows[plain]["is_representative"]
        assert rows[cann]["cluster_id"] == rows[plain]["cluster_id"] == rows[verified]["cluster_id"]
        # method says how each joined its representative (the renamed copy): near-, not exact duplicates
        assert rows[plain]["method"] == rows[cann]["method"] == "minhash"
        assert rows[plain]["code_hash"] == rows[cann]["code_hash"]  # the reformatted copy is an exact duplicate
        assert 0.7 <= rows[plain]["similarity"] < 1.0
        assert rows[verified]["cluster_size"] == 3
        assert rows[lonely]["method"] == "unique" and rows[lonely]["is_representative"]
        assert stats.counts["clusters"] == 2
        before = store.rows("SELECT unit_id, created_at FROM dedup ORDER BY unit_id")

        again = run(store, DedupConfig())
        assert again.counts["skipped"] == 4 and again.counts["kept"] == 0
        assert store.rows("SELECT unit_id, created_at FROM dedup ORDER BY unit_id") == before

        # a new verification changes the ranking facts: the next run redoes the clusters
        f.verification(store, plain, "passed")
        assert run(store, DedupConfig()).counts["kept"] == 2


def test_dedup_cli_writes_the_table(cli, tmp_path):
    f = _factory()
    rng = random.Random(5)
    base = synthetic.base_kernel(rng)
    with Store(tmp_path / "ws") as store:
        f.source(store)
        f.unit(store, "one", base)
        f.unit(store, "two", base + "\n// same code, another comment\n")
    proc = cli("dedup", "--threshold", "0.7", "--verify-jaccard", workspace=tmp_path / "ws")
    assert proc.returncode == 0, proc.stderr
    q = cli("query", "--json", "SELECT method, is_representative FROM dedup ORDER BY method", workspace=tmp_path / "ws")
    assert q.stdout.count('"method": "exact"') == 2
    assert q.stdout.count('"is_representative": true') == 1


def test_verified_means_the_latest_row_per_backend_passed_and_none_failed(tmp_path):
    from cotbuilder.dedup.facts import load_unit_facts

    f = _factory()
    rng = random.Random(13)
    with Store(tmp_path / "ws") as store:
        f.source(store)
        regressed = f.unit(store, "regressed", synthetic.base_kernel(rng))
        unsupported_elsewhere = f.unit(store, "unsupported_elsewhere", synthetic.base_kernel(rng))
        failed_on_npu = f.unit(store, "failed_on_npu", synthetic.base_kernel(rng))
        fixed = f.unit(store, "fixed", synthetic.base_kernel(rng))
        f.verification(store, regressed, "passed")
        f.verification(store, regressed, "failed_run")  # a newer emulator now fails it
        f.verification(store, fixed, "wrong_answer")
        f.verification(store, fixed, "passed")  # and this one was fixed
        for uid in (unsupported_elsewhere, failed_on_npu):
            f.verification(store, uid, "passed")
        store.execute(
            "UPDATE verifications SET created_at = created_at - INTERVAL 1 HOUR "
            "WHERE (unit_id = ? AND status = 'passed') OR (unit_id = ? AND status = 'wrong_answer')",
            [regressed, fixed],
        )
        # the same unit run on a second backend
        store.insert(
            "verifications",
            [
                {
                    **store.rows("SELECT * FROM verifications WHERE unit_id = ?", [uid])[0],
                    "verification_id": uid[::-1],
                    "backend": "npu",
                    "status": status,
                }
                for uid, status in ((unsupported_elsewhere, "unsupported"), (failed_on_npu, "wrong_answer"))
            ],
        )
        facts = load_unit_facts(store)
    assert not facts[regressed].verified and facts[regressed].verification["status"] == "failed_run"
    assert facts[fixed].verified and facts[fixed].verification["status"] == "passed"
    assert facts[unsupported_elsewhere].verified  # `unsupported` on the NPU says nothing against the emulator's pass
    assert facts[unsupported_elsewhere].verification["backend"] == "cpu-emulator"
    assert not facts[failed_on_npu].verified and facts[failed_on_npu].verification["backend"] == "npu"
