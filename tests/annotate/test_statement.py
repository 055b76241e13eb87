"""Exact task statements: the golden expression read from a generator, the solvability gate run in the real sandbox
on the generator's own inputs, the prose checked against the structured form, and hostile generators."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from cotbuilder.annotate.reference_expr import extract
from cotbuilder.annotate.statement import derive
from cotbuilder.annotate.statement_prose import prose, prose_matches
from cotbuilder.verify import steps

HEADER = "import os\nimport numpy as np\n"


def generator(body: str) -> str:
    return HEADER + textwrap.dedent(body)


def unit_with(gen: str, name: str = "k") -> dict:
    return {
        "name": name,
        "layout": "kernel_launch",
        "files": [{"path": "scripts/gen_data.py", "role": "generator", "text": gen}],
    }


@pytest.fixture
def ctx(tmp_path: Path) -> steps.Context:
    return steps.Context(cache_dir=tmp_path / "cache", python=sys.executable)


def test_straight_line_golden_is_read_over_the_written_inputs_with_constants_and_helpers_inlined():
    gen = generator("""
        ROWS, COLS = 4, 8
        def scale(v):
            return v * 2.0
        def main():
            x = np.random.uniform(-1, 1, (ROWS, COLS)).astype(np.float32)
            y = np.random.uniform(-1, 1, (ROWS, COLS)).astype(np.float32)
            mode = 0
            if mode == 1:
                golden = x - y
            else:
                golden = scale(x + y).astype(np.float32)
            x.tofile("./input/input_x.bin")
            y.tofile("./input/input_y.bin")
            golden.tofile("./output/golden.bin")
        if __name__ == "__main__":
            main()
    """)
    got = extract(gen)
    assert got.reason == ""
    assert got.inputs == {"input/input_x.bin": "x", "input/input_y.bin": "y"}
    assert got.goldens == {"output/golden.bin": "((x + y) * 2.0).astype(np.float32)"}


def test_an_element_wise_fill_loop_becomes_the_vector_expression_in_the_arrays_dtype():
    gen = generator("""
        import math
        src = np.random.uniform(0, 1, [64]).astype(np.float32)
        golden = np.zeros([64]).astype(np.float32)
        for i in range(len(src)):
            golden[i] = math.exp(src[i])
        src.tofile("input/x.bin")
        golden.tofile("output/golden.bin")
    """)
    assert extract(gen).goldens == {"output/golden.bin": "np.exp(src).astype(np.float32)"}


@pytest.mark.parametrize(
    "golden_line, why",
    [
        ("golden = np.random.uniform(0, 1, [8]).astype(np.float32)", "allow-list"),
        ("golden = x + noise", "rand"),
        ("golden = x\nfor i in range(n):\n    golden = golden + i", "loop"),
        ("golden = eval('x * 2')", "eval"),
    ],
)
def test_a_golden_that_is_no_expression_of_the_inputs_gets_no_statement_and_says_why(golden_line, why):
    gen = generator("x = np.ones([8], dtype=np.float32)\nnoise = np.random.rand(8)\nn = int(os.environ['N'])\n")
    gen += golden_line + "\nx.tofile('input/x.bin')\ngolden.tofile('output/golden.bin')\n"
    got = extract(gen)
    assert got.goldens == {} and why in got.reason


def test_an_honest_generator_passes_the_gate_with_shapes_and_dtypes_the_runner_recorded(tmp_path, ctx):
    gen = generator("""
        import argparse
        def main():
            p = argparse.ArgumentParser()
            p.add_argument("--seed", type=int, default=1)
            rng = np.random.default_rng(p.parse_args().seed)
            x = rng.normal(0, 1, (16, 32)).astype(np.float16)
            golden = x.astype(np.float32).max(axis=1, keepdims=True).astype(np.float16)
            os.makedirs("input", exist_ok=True)
            os.makedirs("output", exist_ok=True)
            x.tofile("input/input_x.bin")
            golden.tofile("output/golden.bin")
        if __name__ == "__main__":
            main()
    """)
    got = derive(unit_with(gen), tmp_path, ctx, seed=3)
    assert "statement" in got, got
    form = got["statement"]
    assert form["inputs"] == [{"name": "x", "file": "input/input_x.bin", "dtype": "float16", "shape": [16, 32]}]
    assert form["outputs"][0]["shape"] == [16, 1] and form["outputs"][0]["dtype"] == "float16"
    assert form["reference"] == "x.astype(np.float32).max(axis=1, keepdims=True).astype(np.float16)"
    assert form["tolerance"] == {"atol": 1e-3, "rtol": 1e-3}
    assert form["gate"]["seed"] == 3
    text = prose(form, "reduce_max_custom", "ascend910b")
    assert "`x` float16 of shape [16, 32]" in text and "`y` float16 of shape [16, 1]" in text
    assert prose_matches(text, form) == []


def test_a_generator_that_writes_another_golden_than_its_expression_fails_the_gate(tmp_path, ctx):
    """The text says golden = x + 1; what lands in output/golden.bin is x * 2 (written behind the expression's back):
    the sandbox evaluation of the stated expression does not reproduce it, so no statement."""
    gen = generator("""
        x = np.arange(1, 65, dtype=np.float32)
        golden = x + 1
        x.tofile("input/x.bin")
        golden.tofile("output/golden.bin")
        fh = open("output/golden.bin", "wb")
        fh.write((x * 2).tobytes())
        fh.close()
    """)
    assert extract(gen).goldens == {"output/golden.bin": "x + 1"}  # the claim, as the text makes it
    got = derive(unit_with(gen), tmp_path, ctx)
    assert "statement" not in got
    assert got["reason"].startswith("reference: does not reproduce the golden")


def test_a_malicious_golden_expression_is_refused_before_anything_runs(tmp_path, ctx, monkeypatch):
    """A golden 'expression' that would run code: refused by the allow-list, so neither the host nor the sandbox
    evaluates it (the marker file is never made, in the host's cwd or anywhere under the work dir)."""
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "PWNED"
    for expr in (
        f"__import__('os').system('touch {marker}')",
        "x.__class__.__mro__[1].__subclasses__()",
        "np.fromfile('/etc/passwd')",
        "x.tofile('/tmp/x')",
    ):
        gen = generator(f"x = np.ones(4, dtype=np.float32)\ngolden = {expr}\n")
        gen += "x.tofile('input/x.bin')\ngolden.tofile('output/golden.bin')\n"
        got = extract(gen)
        assert got.goldens == {} and got.reason, expr
        work = tmp_path / f"w{abs(hash(expr))}"
        work.mkdir()
        result = derive(unit_with(gen), work, ctx)
        assert "statement" not in result
        assert not any(work.iterdir()), "nothing ran: no sandbox dir was even made"
    assert not marker.exists()


def test_the_prose_gate_rejects_a_shape_dtype_or_attr_the_form_does_not_have():
    form = {
        "reference_kind": "numpy expression",
        "reference": "x * 2",
        "inputs": [{"name": "x", "file": "input/x.bin", "dtype": "float32", "shape": [8, 16]}],
        "outputs": [
            {"name": "y", "file": "output/golden.bin", "dtype": "float32", "shape": [8, 16], "reference": "x * 2"}
        ],
        "attrs": {"alpha": 0.5},
        "tolerance": {"atol": 1e-4, "rtol": 1e-4},
    }
    text = prose(form, "double_custom", "ascend910b")
    assert prose_matches(text, form) == []
    assert prose_matches(text.replace("[8, 16]", "[8, 32]", 1), form) == ["shape [8, 32] is in no case"]
    assert prose_matches(text + " Inputs may be float16.", form) == ["dtype float16 is no tensor's"]
    assert prose_matches(text.replace("alpha = 0.5", "alpha = 2.0"), form) == ["attr alpha = 2.0 is not the form's"]


def test_a_spec_unit_takes_cases_attrs_and_tolerance_from_its_spec():
    spec = textwrap.dedent("""
        op = "ScaleCustom"
        [[inputs]]
        name = "x"
        shape = [4, 5]
        dtype = "float16"
        [[outputs]]
        name = "y"
        shape = [4, 5]
        dtype = "float16"
        [attrs]
        scale = 0.5
        [reference]
        python = "def reference(x):\\n    return x * 0.5\\n"
        [tolerance]
        atol = 1e-3
        rtol = 1e-3
    """)
    unit = {"name": "ScaleCustom", "files": [{"path": "verify_spec.toml", "text": spec}]}
    form = derive(unit, Path("/nonexistent"), steps.Context(cache_dir=Path("/nonexistent")))["statement"]
    assert form["attrs"] == {"scale": 0.5} and form["inputs"][0]["shape"] == [4, 5]
    text = prose(form, "scale_custom")
    assert "scale = 0.5" in text and prose_matches(text, form) == []


def test_a_unit_with_no_generator_and_no_spec_gets_no_statement():
    unit = {"name": "k", "files": [{"path": "k.cpp", "role": "kernel", "text": "int main() {}"}]}
    got = derive(unit, Path("/nonexistent"), steps.Context(cache_dir=Path("/nonexistent")))
    assert got == {"reason": "no generator and no spec: nothing states the golden"}


def test_argparse_options_and_sys_argv_fold_with_the_command_line_the_harness_passes():
    gen = generator("""
        import argparse
        import sys
        def gen(mode, scale):
            x = np.ones([4], dtype=np.float32)
            if mode == 1:
                golden = x * scale
            else:
                golden = x - scale
            x.tofile("input/x.bin")
            golden.tofile("output/golden.bin")
        if __name__ == "__main__":
            parser = argparse.ArgumentParser()
            parser.add_argument("--mode", type=int, default=0)
            args = parser.parse_args()
            gen(args.mode, float(sys.argv[-1]) if len(sys.argv) > 3 else 2.0)
    """)
    assert extract(gen, ["gen_data.py"]).goldens == {"output/golden.bin": "x - 2.0"}
    assert extract(gen, ["gen_data.py", "--mode", "1"]).goldens == {"output/golden.bin": "x * 2.0"}
    assert "condition" in extract(gen).reason  # the command line unknown: the branch is not guessed


def test_a_kernel_ut_generator_takes_the_arguments_its_verification_recorded():
    from cotbuilder.annotate.statement import _recorded_args

    verification = {
        "cases": [{"generate": {"calls": [{"cmd": "cd ./axpby_data/ && python3 gen_data.py 64 1.500000 -0.5"}]}}]
    }
    gen = {"path": "tests/ut/op_kernel/axpby_data/gen_data.py"}
    assert _recorded_args(gen, verification) == ["64", "1.500000", "-0.5"]
    assert _recorded_args(gen, {"cases": []}) is None


def test_a_generator_whose_expression_doubles_each_line_is_refused_quickly():
    """`x = x + x` forty times would inline to 2**40 nodes: the walker gives up instead of filling the host's memory."""
    lines = "y = np.ones(4, dtype=np.float32)\ng = y\n" + "g = g + g\n" * 40
    got = extract(generator(lines + "y.tofile('input/y.bin')\ng.tofile('output/golden.bin')\n"))
    assert got.goldens == {} and "too large" in got.reason


# -- program mode: a golden made by the generator's own loop or branch ----------------------------------------------

BLOCK_FILL = """
    def block_copy():
        group = 8
        x = np.random.uniform(-4, 4, [16]).astype(np.float16)
        golden = np.zeros([16 * group]).astype(np.float16)
        for i in range(len(x)):
            golden[i * group : (i + 1) * group] = x[i]
        os.makedirs("input", exist_ok=True)
        os.makedirs("output", exist_ok=True)
        x.tofile("./input/input_x.bin")
        golden.tofile("./output/golden.bin")
    if __name__ == "__main__":
        block_copy()
"""


def test_a_golden_filled_slice_by_slice_in_a_loop_passes_the_gate_as_the_generators_own_program(tmp_path, ctx):
    gen = generator(BLOCK_FILL)
    assert "loop" in extract(gen).reason  # no single expression
    got = derive(unit_with(gen), tmp_path, ctx)
    assert "statement" in got, got
    form = got["statement"]
    assert form["reference_kind"] == "numpy program"
    assert "x = __inputs__['x']" in form["reference"] and "for i in range(len(x)):" in form["reference"]
    assert "np.random" not in form["reference"] and "tofile" not in form["reference"]  # inputs come from the files
    assert form["inputs"] == [{"name": "x", "file": "input/input_x.bin", "dtype": "float16", "shape": [16]}]
    assert form["outputs"][0]["shape"] == [128]
    text = prose(form, "brcb_custom", "ascend910b")
    assert "numpy program" in text and form["reference"] in text
    assert prose_matches(text, form) == []


def test_a_golden_chosen_by_a_data_dependent_branch_passes_as_a_program(tmp_path, ctx):
    gen = generator("""
        x = np.arange(-32, 32, dtype=np.float32) / 8
        if x.max() > 1.0:
            golden = np.maximum(x, 0).astype(np.float32)
        else:
            golden = x
        x.tofile("input/x.bin")
        golden.tofile("output/golden.bin")
    """)
    assert "condition" in extract(gen).reason
    got = derive(unit_with(gen), tmp_path, ctx)
    assert got["statement"]["reference_kind"] == "numpy program"


def test_a_loop_program_whose_file_differs_from_what_it_computes_fails_the_gate(tmp_path, ctx):
    """The loop computes one golden, the file holds another (written behind its back): the program run in the
    sandbox does not reproduce it, so no statement."""
    gen = generator(
        BLOCK_FILL.replace(
            'golden.tofile("./output/golden.bin")',
            'golden.tofile("./output/golden.bin")\n'
            '        fh = open("./output/golden.bin", "wb")\n        fh.write((golden * 3).tobytes())\n        fh.close()',
        )
    )
    got = derive(unit_with(gen), tmp_path, ctx)
    assert "statement" not in got
    assert got["reason"].startswith("reference: does not reproduce the golden") or "loop" in got["reason"]


@pytest.mark.parametrize(
    "statement",
    [
        "__import__('os').system('touch {marker}')",
        "open('{marker}', 'w').write('x')",
        "golden[i] = np.random.uniform(0, 1)",
        "golden[i] = x.__class__.__mro__[1]",
        "x.tofile('{marker}')",
        "[print][0]('escaped')",
        "golden[i] = np.fromfile('/etc/passwd', dtype=np.uint8)[0]",
    ],
)
def test_a_hostile_or_random_loop_body_is_refused_before_anything_runs(tmp_path, ctx, monkeypatch, statement):
    monkeypatch.chdir(tmp_path)
    marker = tmp_path / "PWNED"
    gen = generator(f"""
        x = np.ones(8, dtype=np.float32)
        golden = np.zeros(8, dtype=np.float32)
        for i in range(8):
            golden[i] = x[i] * 2
            {statement.format(marker=marker)}
        x.tofile('input/x.bin')
        golden.tofile('output/golden.bin')
    """)
    work = tmp_path / "w"
    work.mkdir()
    got = derive(unit_with(gen), work, ctx)
    assert "statement" not in got and got["reason"]
    assert not any(work.iterdir()), "nothing ran: no sandbox dir was even made"
    assert not marker.exists()


def test_a_program_follows_the_scenario_the_command_line_picks_and_each_of_several_goldens(tmp_path, ctx):
    """Scenario 2 (from argv) fills by a loop into a function of its own; two goldens, one written reshaped; the input
    reassigned after its write is kept in the program."""
    gen = generator("""
        import sys
        def fill(x, out, n):
            for i in range(n):
                out[i] = x[i] * x[i] if x[i] > 0 else -x[i]
            out.reshape(-1).tofile("./output/golden_sq.bin")
        def main(scenario):
            x = np.random.uniform(-2, 2, [32]).astype(np.float32)
            x.tofile("./input/input_x.bin")
            x = x.astype(np.float64)
            sq = np.zeros([32], dtype=np.float32)
            if scenario == 1:
                sq.tofile("./output/golden_sq.bin")
            else:
                fill(x, sq, 32)
            total = np.zeros([1], dtype=np.float32)
            for i in range(4):
                total += sq[i * 8 : (i + 1) * 8].sum()
            total.tofile("./output/golden_total.bin")
        if __name__ == "__main__":
            main(int(sys.argv[1]))
    """)
    unit = unit_with(gen)
    unit["files"].append({"path": "run.sh", "role": "build", "text": "python3 scripts/gen_data.py 2\n"})
    from cotbuilder.annotate.reference_expr import extract_program

    program = extract_program(gen, ["scripts/gen_data.py", "2"])
    assert program.reason == "" and set(program.goldens) == {"output/golden_sq.bin", "output/golden_total.bin"}
    assert "x = x.astype(np.float64)" in program.goldens["output/golden_sq.bin"]
    assert "scenario == 1" not in program.goldens["output/golden_sq.bin"]  # folded from the command line
    scenario_1 = extract_program(gen, ["scripts/gen_data.py", "1"]).goldens["output/golden_sq.bin"]
    assert "for i in range" not in scenario_1 and "scenario" not in scenario_1
    got = derive(
        unit, tmp_path, ctx, verification={"cases": [{"generate": {"calls": [{"cmd": "python3 gen_data.py 2"}]}}]}
    )
    assert "statement" in got, got
    assert [o["name"] for o in got["statement"]["outputs"]] == ["sq", "total"]


def test_an_input_written_through_a_cast_is_the_programs_input_and_the_gate_checks_the_cast(tmp_path, ctx):
    gen = generator("""
        x = np.random.uniform(-5, 5, [64]).astype(np.float16)
        golden = np.abs(x).astype(np.float16)
        x.astype(np.float16).tofile("./input/input_x.bin")
        golden.tofile("./output/golden.bin")
    """)
    assert extract(gen).goldens == {}  # x itself is not what was written
    got = derive(unit_with(gen), tmp_path, ctx)
    assert got["statement"]["reference_kind"] == "numpy program"
    assert got["statement"]["inputs"][0]["name"] == "x"
    # a cast that changes the values the golden was computed from: the program cannot reproduce it
    lossy = gen.replace(
        'x.astype(np.float16).tofile("./input/input_x.bin")', 'x.astype(np.int8).tofile("./input/input_x.bin")'
    )
    (tmp_path / "l").mkdir()
    assert "statement" not in derive(unit_with(lossy), tmp_path / "l", ctx)
