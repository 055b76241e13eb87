"""`cotbuilder eval --benchmark multikernelbench=PATH` on a tiny tree in MultiKernelBench's layout (written here):
the benchmark has no reference answers, so `--teacher reference` runs nothing; a model's answers (a real
OpenAI-protocol server on 127.0.0.1) are parsed by the benchmark's pybind layout, stored, and scored `unsupported`
naming the missing harness (no reward: a harness gap never punishes an answer), never passed or failed."""

from __future__ import annotations

import json
from pathlib import Path

from .scripted_server import ScriptedTeacher

REFERENCE = '''import torch

class Model(torch.nn.Module):
    """Computes `mkb_relu(x)`."""
    def forward(self, x):
        return torch.relu(x)

def get_inputs():
    return [torch.rand(8, 64)]

def get_init_inputs():
    return []
'''
PYBIND_ANSWER = '''```python
host_operator_src = """namespace ops { class MkbReluCustom : public OpDef {}; }"""
kernel_src = """extern "C" __global__ __aicore__ void mkb_relu_custom(GM_ADDR x, GM_ADDR y) {}"""
python_bind_src = """EXEC_NPU_CMD(aclnnMkbReluCustom, x, y);"""
model_src = """class ModelNew: pass"""
```
'''


def test_multikernelbench_tasks_are_sampled_parsed_and_scored_unsupported_naming_the_harness_gap(cli, workspace,
                                                                                                  tmp_path):  # fmt: skip
    root = tmp_path / "mkb"
    (root / "reference" / "activation").mkdir(parents=True)
    (root / "prompts").mkdir()
    (root / "reference" / "activation" / "mkb_relu.py").write_text(REFERENCE, encoding="utf-8")
    bench = f"multikernelbench={root}"

    reference = cli("eval", "--benchmark", bench, workspace=workspace)  # the default teacher: reference answers
    assert "no reference answer" in reference.stdout + reference.stderr
    with ScriptedTeacher({"mkb_relu": [PYBIND_ANSWER, "Use torch.relu."]}) as server:
        result = cli("eval", "--benchmark", bench, "--teacher", "m", "--base-url", server.base_url, "-n", "2",
                     workspace=workspace)  # fmt: skip
    assert result.returncode in (0, 1), result.stdout + result.stderr
    out = cli("query", "SELECT task_name, sample_index, status, parse_ok, reward, reason, code FROM samples "
              "WHERE teacher_key != '' ORDER BY sample_index", "--json", workspace=workspace)  # fmt: skip
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [(r["task_name"], r["status"], r["parse_ok"], r["reward"]) for r in rows] == [
        ("mkb.activation.mkb_relu", "unsupported", True, None),
        ("mkb.activation.mkb_relu", "unparseable", False, 0.0),
    ]
    assert "no harness for MultiKernelBench's answer layout" in rows[0]["reason"]
    assert sorted(rows[0]["code"]) == ["model_new.py", "op_host/mkb_relu_custom.cpp", "op_kernel/mkb_relu_custom.cpp",
                                       "pybind/mkb_relu_custom_pybind.cpp"]  # fmt: skip
    report = json.loads(next(Path(workspace / "reports").glob("eval-m.json")).read_text())
    assert [t["task"] for t in report["by_task"]] == ["mkb.activation.mkb_relu"]
