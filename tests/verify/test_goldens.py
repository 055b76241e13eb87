"""cotbuilder's own comparison: which output pairs with which golden, and when a case is right, wrong or open."""

from __future__ import annotations

import numpy as np

from cotbuilder.verify import goldens


def _sealed(**files: tuple[np.ndarray, str | None]) -> goldens.Sealed:
    """_sealed(golden=(array, dtype)) -> a golden at output/golden.bin."""
    return goldens.Sealed({f"output/{k}.bin": goldens.Golden(a.tobytes(), dt) for k, (a, dt) in files.items()})


def test_a_checker_line_with_two_outputs_and_two_goldens_pairs_them_by_name_not_by_position():
    """interleave_pair's README runs `verify_result.py out_dst0 out_dst1 golden_dst0 golden_dst1`: taking the first
    two arguments as (output, golden) compared one output with the other (stored wrong_answer although right)."""
    bins = ["output/output_dst0.bin", "output/output_dst1.bin", "output/golden_dst0.bin", "output/golden_dst1.bin"]
    pairs, unpaired = goldens.pair(bins[2:], bins[:2], bins)
    assert sorted(pairs) == [
        ("output/output_dst0.bin", "output/golden_dst0.bin"),
        ("output/output_dst1.bin", "output/golden_dst1.bin"),
    ]
    assert unpaired == []


def test_one_golden_and_one_output_pair_whatever_their_names():
    pairs, unpaired = goldens.pair(["output/golden.bin"], ["output/output_z.bin"], [])
    assert pairs == [("output/output_z.bin", "output/golden.bin")] and unpaired == []


def test_a_file_the_kernel_wrote_under_a_goldens_name_is_never_an_output_or_a_golden():
    x = np.arange(8, dtype=np.float32)
    sealed = _sealed(golden=(x, "float32"))
    outputs = {"output/golden.bin": (x * 0).tobytes(), "output/output.bin": (x + 1).tobytes()}
    case = goldens.judge_case(sealed, outputs, ["output/output.bin", "output/golden.bin"])
    assert case["ok"] is False and case["outputs"][0]["name"] == "output/output.bin"
    assert case["wrote_golden_names"] == ["output/golden.bin"]


def test_nan_where_the_golden_is_finite_fails_the_case():
    golden = np.linspace(-1, 1, 64, dtype=np.float16)
    out = golden.copy()
    out[5] = np.nan
    case = goldens.judge_case(_sealed(golden=(golden, "float16")), {"output/out.bin": out.tobytes()})
    assert case["check"] == "golden" and case["ok"] is False and case["outputs"][0]["mismatches"] == 1


def test_cases_that_cannot_be_compared_stay_open_never_passed_or_wrong():
    x = np.arange(16, dtype=np.float32)
    no_golden = goldens.judge_case(goldens.Sealed(), {"output/out.bin": x.tobytes()})
    unknown_dtype = goldens.judge_case(_sealed(golden=(x, None)), {"output/out.bin": x.tobytes()})
    wrong_size = goldens.judge_case(_sealed(golden=(x, "float32")), {"output/out.bin": x[:8].tobytes()})
    unpaired = goldens.judge_case(
        _sealed(golden_a=(x, "float32"), golden_b=(x, "float32")),
        {"output/out.bin": x.tobytes()},
    )
    for case in (no_golden, unknown_dtype, wrong_size, unpaired):
        assert case["ok"] is None and case["why"], case
    assert no_golden["check"] == "none" and "no golden" in no_golden["why"]
    assert "dtype is unknown" in unknown_dtype["why"] and "cannot line them up" in wrong_size["why"]


def test_a_golden_changed_after_sealing_is_not_used():
    x = np.arange(4, dtype=np.int32)
    sealed = _sealed(golden=(x, "int32"))
    sealed.goldens["output/golden.bin"].data = (x + 1).tobytes()
    case = goldens.judge_case(sealed, {"output/output.bin": (x + 1).tobytes()})
    assert case["ok"] is None and "changed after sealing" in case["why"]


def test_every_kind_of_case_is_a_valid_verification_record():
    from cotbuilder.records import validate
    from cotbuilder.store import json_safe_row, utcnow
    from cotbuilder.verify.verdict import Verdict

    x = np.arange(16, dtype=np.float32)
    cases = [
        goldens.judge_case(_sealed(golden=(x, "float32")), {"output/out.bin": x.tobytes()}),
        goldens.judge_case(_sealed(golden=(x, "float32")), {"output/out.bin": (x + 1).tobytes()}),
        goldens.judge_case(_sealed(golden=(x, None)), {"output/out.bin": x.tobytes()}),
        goldens.judge_case(_sealed(golden=(x, "float8_e4m3")), {"output/out.bin": x.tobytes()}),
        goldens.judge_case(_sealed(a=(x, "float32"), b=(x, "float32")), {"output/out.bin": x.tobytes()}),
        goldens.judge_case(goldens.Sealed(), {}),
    ]
    row = {
        "verification_id": "0" * 64,
        "unit_id": "1" * 64,
        "backend": "cpu-emulator",
        "backend_version": "1",
        "soc": "ascend910b",
        "source_hash": "2" * 64,
        "created_at": utcnow(),
        **Verdict("unchecked", "x", "own", cases=cases).as_columns(),
    }
    validate("verification", json_safe_row(row))


def test_a_self_checking_main_says_which_output_it_compares_with_which_golden():
    """softmax writes output_y/max/sum and compares y with golden.bin; deepnorm compares param5Host (written to
    output_result.bin) with the golden it builds from the name "result"."""
    from cotbuilder.verify.harness_own import host_pairs

    main = (
        'WriteFile("./output/output_y.bin", yHost, outputSize);\nWriteFile("./output/output_max.bin", maxHost, n);\n'
        'WriteFile("./output/output_result.bin", param5Host, param5FileSize);\n'
        'bool pass = CompareResult(yHost, outputSize, "./output/golden.bin");\n'
        'goldenResult &= CompareResult(param5Host, param5FileSize, "result");\nint main() {}\n'
    )
    unit = {"files": [{"path": "main.asc", "role": "kernel", "text": main}]}
    hints = host_pairs(unit)
    goldens_ = ["output/golden.bin", "output/golden_output_result.bin"]
    outputs = ["output/output_y.bin", "output/output_max.bin", "output/output_result.bin"]
    pairs, unpaired = goldens.pair(goldens_, outputs, [], hints)
    assert sorted(pairs) == [
        ("output/output_result.bin", "output/golden_output_result.bin"),
        ("output/output_y.bin", "output/golden.bin"),
    ]
    assert unpaired == []


def test_a_difference_only_past_a_matching_prefix_is_left_open_when_the_samples_checker_passed():
    golden = np.concatenate([np.arange(2, 257, 2), np.zeros(128)]).astype(np.uint32)
    out = golden.copy()
    out[128:] = 7  # the sample's gather leaves the second half unwritten; its checker compares [0:128]
    sealed = _sealed(golden=(golden, "uint32"))
    lax = goldens.judge_case(sealed, {"output/output.bin": out.tobytes()}, checker_passed=True)
    strict = goldens.judge_case(sealed, {"output/output.bin": out.tobytes()}, checker_passed=False)
    assert lax["ok"] is None and "first 128 of 256" in lax["why"]
    assert strict["ok"] is False
    wrong_from_the_start = golden + 1
    assert (
        goldens.judge_case(sealed, {"output/o.bin": wrong_from_the_start.tobytes()}, checker_passed=True)["ok"] is False
    )
    nan = np.linspace(-1, 1, 16).astype(np.float16)
    nan_out = nan.copy()
    nan_out[2:] = np.nan  # NaN where the golden is finite fails, whatever the checker said
    case = goldens.judge_case(
        _sealed(golden=(nan, "float16")), {"output/o.bin": nan_out.tobytes()}, checker_passed=True
    )
    assert case["ok"] is False and "NaN/Inf where the golden is finite" in case["why"]


def test_elements_left_unwritten_where_the_golden_counts_on_zeroed_memory_leave_the_case_open():
    """data_sync_barrier writes dst[0] only and its golden holds 0 in the other 7 elements: on the device aclrtMalloc
    memory is not initialised, so those 7 say nothing about the kernel. Unwritten memory holds the poison byte."""
    golden = np.array([14, 0, 0, 0, 0, 0, 0, 0], dtype=np.int32)
    poison = np.frombuffer(b"\xff" * 4, dtype=np.int32)[0]
    out = np.full(8, poison, dtype=np.int32)
    out[0] = 14
    sealed = _sealed(golden=(golden, "int32"))
    case = goldens.judge_case(sealed, {"output/output.bin": out.tobytes()})
    assert case["ok"] is None and "7 of 8 elements were never written" in case["why"]
    out[0] = 15  # what it did write is wrong: wrong, whatever the rest
    assert goldens.judge_case(sealed, {"output/output.bin": out.tobytes()})["ok"] is False
    fp = np.linspace(1, 2, 16, dtype=np.float32)  # poison (NaN) where the golden is a real number: nothing computed it
    fp_out = np.frombuffer(b"\xff" * 64, dtype=np.float32).copy()
    fp_out[0] = fp[0]
    assert goldens.judge_case(_sealed(golden=(fp, "float32")), {"output/o.bin": fp_out.tobytes()})["ok"] is False


def _nz(nd: np.ndarray, c0: int) -> np.ndarray:
    """ND (rows x cols) -> fractal Nz: column fractals of 16 x c0, each fractal row-major."""
    rows, cols = nd.shape
    return nd.reshape(rows // 16, 16, cols // c0, c0).transpose(2, 0, 1, 3).reshape(-1)


def test_an_nz_output_of_the_nd_golden_passes_only_when_the_samples_checker_passed():
    """asc-devkit fixpipe_l0c2l1 writes C in Nz and its checker converts it to ND before comparing."""
    rng = np.random.default_rng(7)
    golden = rng.uniform(-4, 4, (48, 64)).astype(np.float16)
    sealed = _sealed(golden=(golden.reshape(-1), "float16"))
    nz = _nz(golden, 16)
    case = goldens.judge_case(sealed, {"output/output.bin": nz.tobytes()}, checker_passed=True)
    assert case["ok"] is True and "48 x 64" in case["outputs"][0]["layout"], case
    assert goldens.judge_case(sealed, {"output/output.bin": nz.tobytes()}, checker_passed=False)["ok"] is False
    one_off = nz.copy()
    one_off[1000] += np.float16(1)  # a kernel that got one element wrong is not rescued by the layout
    assert goldens.judge_case(sealed, {"output/output.bin": one_off.tobytes()}, checker_passed=True)["ok"] is not True
    shuffled = golden.reshape(-1)[rng.permutation(golden.size)]  # the golden's values, in no cube layout
    assert goldens.judge_case(sealed, {"output/output.bin": shuffled.tobytes()}, checker_passed=True)["ok"] is False
    i8 = rng.integers(-128, 128, (32, 64)).astype(np.int8)  # int8 fractals are 16 x 32
    case = goldens.judge_case(
        _sealed(golden=(i8.reshape(-1), "int8")), {"output/o.bin": _nz(i8, 32).tobytes()}, checker_passed=True
    )
    assert case["ok"] is True, case


def test_a_half_output_is_judged_against_a_float32_golden_widened_and_the_golden_stays_sealed():
    """A benchmark reference computing in float32 while the op returns half (NPUKernelBench's matmul family): the
    output is widened exactly and compared with the golden as sealed; a wrong half output still fails."""
    exact = np.array([0.1, 1.0 / 3.0, 31.99, -2.5e-3], dtype=np.float32)
    sealed = goldens.Sealed({"golden_0.bin": goldens.Golden(exact.tobytes(), "float32")})
    pairs = [("output_0.bin", "golden_0.bin")]
    right = {"output_0.bin": exact.astype(np.float16).tobytes()}
    widened = goldens.widened_outputs(sealed, right, pairs, {"output_0.bin": "float16"})
    assert len(widened["output_0.bin"]) == exact.nbytes and not sealed.intact()
    assert goldens.judge_case(sealed, widened, atol=1e-3, rtol=1e-3, pairs=pairs)["ok"] is True
    wrong = {"output_0.bin": (exact * 1.01).astype(np.float16).tobytes()}
    widened = goldens.widened_outputs(sealed, wrong, pairs, {"output_0.bin": "float16"})
    assert goldens.judge_case(sealed, widened, atol=1e-3, rtol=1e-3, pairs=pairs)["ok"] is False
    # an output already at the golden's dtype, or of another kind, is compared as written
    same = {"output_0.bin": exact.tobytes()}
    assert goldens.widened_outputs(sealed, same, pairs, {"output_0.bin": "float32"}) == same
    ints = {"output_0.bin": b"\0" * 8}
    assert goldens.widened_outputs(sealed, ints, pairs, {"output_0.bin": "int16"}) == ints


def test_a_float32_output_is_judged_against_a_half_golden_widened_in_a_copy_and_the_seal_is_kept():
    """The other direction of the benchmark's promotion: a float16 reference, the op returning float32 (DeepNorm's
    mean and rstd). The golden is widened exactly in a copy; the sealed one keeps its bytes, and a float32 output
    off by more than the tolerance still fails."""
    half = np.array([0.1, 1.0 / 3.0, 31.99, -2.5e-3], dtype=np.float16)
    sealed = goldens.Sealed({"golden_0.bin": goldens.Golden(half.tobytes(), "float16")})
    before = sealed.goldens["golden_0.bin"].sha256
    pairs = [("output_0.bin", "golden_0.bin")]
    exact = np.array([0.1, 1.0 / 3.0, 31.99, -2.5e-3], dtype=np.float32)
    as_compared, outs = goldens.promoted(sealed, {"output_0.bin": exact.tobytes()}, pairs, {"output_0.bin": "float32"})
    assert as_compared.goldens["golden_0.bin"].dtype == "float32" and not as_compared.intact()
    assert sealed.goldens["golden_0.bin"].sha256 == before and sealed.goldens["golden_0.bin"].dtype == "float16"
    assert goldens.judge_case(as_compared, outs, atol=1e-3, rtol=1e-3, pairs=pairs)["ok"] is True
    assert goldens.judge_case(sealed, outs, atol=1e-3, rtol=1e-3, pairs=pairs)["ok"] is None  # cannot line up
    off = {"output_0.bin": (exact * 1.01).tobytes()}
    as_compared, outs = goldens.promoted(sealed, off, pairs, {"output_0.bin": "float32"})
    assert goldens.judge_case(as_compared, outs, atol=1e-3, rtol=1e-3, pairs=pairs)["ok"] is False
