"""MultiKernelBench tasks from a tiny tree in its layout (written here: reference/<category>/<op>.py models with
get_inputs / get_init_inputs, a prompts/ one-shot folder), read by the one reader decontamination uses too; and its
pybind answer layout parsed with ast, never run."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from cotbuilder.decontam.benchmarks import detect_layout
from cotbuilder.decontam.benchmarks import load_multikernelbench as decontam_load
from cotbuilder.eval.answers import parse_answer
from cotbuilder.tasks.multikernelbench import input_bytes, load_multikernelbench

SCALE = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    """Computes `scaled_tanh(x)`: tanh(x) times a factor fixed at construction."""
    def __init__(self, factor: float):
        super().__init__()
        self.factor = factor

    def forward(self, x, y):
        return torch.tanh(x) * self.factor + y

rows = 16
cols = 8 * 4

def get_inputs():
    x = torch.randn(rows, cols)
    y = torch.rand(rows, cols, dtype=torch.float16)
    return [x, y]

def get_init_inputs():
    return [0.5]
'''
LOOPED = """
import torch

class Model(torch.nn.Module):
    def forward(self, *xs):
        return sum(xs)

def get_inputs():
    return [torch.rand(4, 4) for _ in range(3)]

def get_init_inputs():
    return []
"""


def write_tree(root: Path) -> Path:
    for rel, text in {
        "reference/activation/scaled_tanh.py": SCALE,
        "reference/math/sum_many.py": LOOPED,
        "reference/math/_shared.py": "HELPER = 1\n",  # not a task (MultiKernelBench's own rule: names with _)
        "reference/broken/not_python.py": "def f(:\n",
        "prompts/ascendc_new_model_add.py": 'kernel_src = """// the one-shot example"""\n',
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


def test_tasks_load_with_shapes_read_from_the_text_and_the_same_ids_decontamination_reads(tmp_path):
    root = write_tree(tmp_path / "mkb")
    assert detect_layout(root) == "multikernelbench"
    tasks, errors = load_multikernelbench(root)
    assert [t.name for t in tasks] == ["mkb.activation.scaled_tanh", "mkb.math.sum_many"]
    assert [e.message.split(":")[0] for e in errors] == ["reference/broken/not_python.py"]
    scaled, looped = tasks
    assert (scaled.source, scaled.category, scaled.layout, scaled.reference) == (
        "multikernelbench", "activation", "op_project", {"kind": "multikernelbench",
                                                         "code": "reference/activation/scaled_tanh.py"})  # fmt: skip
    assert scaled.cases[0]["inputs"] == [{"name": "x", "shape": [16, 32], "dtype": "float32"},
                                         {"name": "y", "shape": [16, 32], "dtype": "float16"}]  # fmt: skip
    assert scaled.cases[0]["attrs"] == {"init_inputs": [0.5]} and input_bytes(scaled) == 16 * 32 * 6
    assert "`scaled_tanh(x)`" in scaled.statement_en and scaled.answer_files is None
    # a list comprehension is not read (nothing is run): the case says where the inputs come from
    assert looped.cases[0]["inputs"] == [] and "get_inputs()" in looped.cases[0]["row"]["inputs"]
    assert input_bytes(looped) is None
    # decontamination's loader reads the same tasks from the same reader (its not-Python file is text to it)
    bench_ids, shared = decontam_load(root)
    assert [t.task_id for t in bench_ids] == ["activation/scaled_tanh", "broken/not_python", "math/sum_many"]
    assert [p for p, _ in shared] == ["prompts/ascendc_new_model_add.py"]


ANSWER = '''Here is the op.

```python
import os
os._exit(7)  # an answer is parsed, never run: this line must not end the test

project_json_src = """[{"op": "ScaledTanhCustom"}]"""
host_tiling_src = """#include "register/tilingdata_base.h"
"""
host_operator_src = """namespace ops {
class ScaledTanhCustom : public OpDef {};
}
"""
kernel_src = """extern "C" __global__ __aicore__ void scaled_tanh_custom(GM_ADDR x) {}
"""
python_bind_src = """EXEC_NPU_CMD(aclnnScaledTanhCustom, x, y, out);"""
model_src = """class ModelNew: pass"""
```
'''


def test_a_pybind_layout_answer_is_parsed_into_files_under_the_ops_names_without_running_it():
    files = parse_answer(ANSWER)
    assert sorted(files) == ["model_new.py", "op_host/scaled_tanh_custom.cpp", "op_host/scaled_tanh_custom_tiling.h",
                             "op_kernel/scaled_tanh_custom.cpp", "pybind/scaled_tanh_custom_pybind.cpp",
                             "scaled_tanh_custom.json"]  # fmt: skip
    assert "aclnnScaledTanhCustom" in files["pybind/scaled_tanh_custom_pybind.cpp"]
    # a python block without kernel_src is not this layout: the usual rules apply (no C++ block: unparseable)
    assert parse_answer("```python\nx = 1\n```") is None


@pytest.mark.parametrize("reply", ["```python\nkernel_src = f'{x}'\n```", "```python\nkernel_src = (\n```"])
def test_a_pybind_answer_whose_kernel_is_not_a_plain_string_is_not_parsed(reply):
    assert parse_answer(reply) is None
