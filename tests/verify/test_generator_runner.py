"""The generator runner (cotbuilder/verify/data/generator_runner.py) runs a unit's gen_data.py the way its authors do.
cann-ops generators import TensorFlow only for its numpy bfloat16 (`tf.bfloat16.as_numpy_dtype`, ml_dtypes'
bfloat16): without TensorFlow installed the runner stands in for that dtype alone, and a generator that takes
anything else from TensorFlow still meets the missing module (unsupported, naming it), never a made-up result. A
generator that asks the NPU's host tool (npu-smi) for the SoC is cotbuilder's gap too, not a crash of the unit.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from cotbuilder.verify import sandbox, steps
from cotbuilder.verify.opproject import run as oprun

no_tensorflow = pytest.mark.skipif(
    importlib.util.find_spec("tensorflow") is not None, reason="TensorFlow is installed: no stand-in"
)

BF16_ONLY = """\
import numpy as np
import tensorflow as tf
bf16 = tf.bfloat16.as_numpy_dtype
np.arange(4, dtype=np.float32).astype(bf16).tofile("golden.bin")
"""
TF_COMPUTES = """\
import tensorflow as tf
print(tf.gather([1, 2], [0]))
"""


def _run(tmp_path, script: str) -> tuple[subprocess.CompletedProcess, dict]:
    (tmp_path / "runner.py").write_bytes(oprun.script("generator_runner.py"))
    (tmp_path / "gen_data.py").write_text(script)
    done = subprocess.run(
        [sys.executable, "runner.py", "written.json", "gen_data.py"], cwd=tmp_path, capture_output=True, text=True
    )
    return done, json.loads((tmp_path / "written.json").read_text())


@no_tensorflow
def test_a_generator_importing_tensorflow_for_bfloat16_only_runs_and_its_golden_is_bfloat16(tmp_path):
    done, written = _run(tmp_path, BF16_ONLY)
    assert done.returncode == 0, done.stderr
    assert written == {"golden.bin": {"dtype": "bfloat16", "shape": [4], "nbytes": 8}}
    assert (tmp_path / "golden.bin").read_bytes() == bytes.fromhex("0000803f00404040")  # 0, 1, 2, 3 as bfloat16


@no_tensorflow
def test_a_generator_computing_with_tensorflow_meets_the_missing_module(tmp_path):
    done, _ = _run(tmp_path, TF_COMPUTES)
    assert done.returncode != 0
    assert steps._PY_MISSING.search(done.stderr).group(1) == "tensorflow", done.stderr


def test_a_generator_asking_npu_smi_for_the_soc_is_unsupported_not_a_crash(tmp_path):
    # cann-ops add_rms_norm's gen_data.py runs `npu-smi info -m`: no NPU host tool here, cotbuilder's gap
    ask = "import subprocess\nsubprocess.check_output(['npu-smi', 'info', '-m'], text=True)\n"
    done, _ = _run(tmp_path, ask)
    result = sandbox.SandboxResult(done.returncode, done.stdout, done.stderr, 0.1, "exit", "exit status 1")
    assert steps.stopped(result, "generator") == (
        "unsupported",
        "generator needs the NPU host tool npu-smi (no NPU here)",
    )
