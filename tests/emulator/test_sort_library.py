"""The high-level sort helpers cann-ops MoeInitRoutingV2 calls: GetSortLen / GetSortOffset count elements of T (8-byte
records), and MrgSort with the queue lengths as arguments merges sorted queues (stopping at the first exhausted one
with isExhaustedSuspension) and reports how many records of each queue it took, against a numpy model. One C++
program (emulator/tests/sort_library.cpp)."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest


@pytest.fixture(scope="module")
def sorted_out(toolchain, tmp_path_factory):
    d = tmp_path_factory.mktemp("sort_library")
    scores = np.random.default_rng(11).permutation(64).astype(np.float32)  # distinct: one right order
    scores.tofile(d / "scores.bin")
    exe = toolchain.build(toolchain.cpp / "sort_library.cpp", d / "sort_library")
    proc = subprocess.run([str(exe), str(d)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "COTBUILDER_DIAG" not in proc.stderr, proc.stderr
    return d, scores


def _queues(scores):
    q1 = np.argsort(-scores[:32], kind="stable")[:16]  # the first 16 records of the first sorted queue
    q2 = 32 + np.argsort(-scores[32:], kind="stable")
    return q1, q2


def test_sort_len_and_offset_count_elements_of_t(sorted_out):
    d, _ = sorted_out
    sizes = np.fromfile(d / "out_sizes.bin", np.uint32)
    assert list(sizes[:4]) == [96, 10, 192, 20]  # 48 records of float: 96 floats; of half: 192 halves


def test_mrgsort_merges_queues_of_different_lengths_and_reports_what_it_took(sorted_out):
    d, scores = sorted_out
    q1, q2 = _queues(scores)
    want = np.concatenate([q1, q2])[np.argsort(-scores[np.concatenate([q1, q2])], kind="stable")]
    got = np.fromfile(d / "out_merged.bin", np.float32).reshape(48, 2)
    assert np.array_equal(got[:, 0], scores[want])
    assert np.array_equal(got[:, 1].view(np.uint32), want.astype(np.uint32))
    assert list(np.fromfile(d / "out_sizes.bin", np.uint32)[4:8]) == [16, 32, 0, 0]


def test_mrgsort_with_exhausted_suspension_stops_when_one_queue_runs_out(sorted_out):
    d, scores = sorted_out
    q1, q2 = _queues(scores)
    taken2 = int(np.sum(scores[q2] > scores[q1[-1]]))  # second-queue records ahead of the first queue's last
    got = np.fromfile(d / "out_merged_s.bin", np.float32).reshape(48, 2)
    n = 16 + taken2
    want = np.sort(np.concatenate([scores[q1], scores[q2[:taken2]]]))[::-1]
    assert np.array_equal(got[:n, 0], want)
    assert np.all(got[n:] == 0)  # nothing written past the stop
    assert list(np.fromfile(d / "out_sizes.bin", np.uint32)[8:12]) == [16, taken2, 0, 0]
