"""An OpDef's per-SoC prototype (`AICore().AddConfig(soc, config)` whose config declares its own dtype lists): on that
SoC its lists replace the OpDef's - NPUKernelBench GroupNormSwish declares bf16 only in its ascend910b config, and its
bf16 cases found no kernel. The config is a local of the op's constructor, so the shim copies it at AddConfig. The
describe run is the real one (g++, sandbox); the choice of SoC is checked on its JSON."""

from __future__ import annotations

from cotbuilder.verify import steps
from cotbuilder.verify.opproject import run as oprun
from cotbuilder.verify.opproject import soc_config

from .test_op_project_harnesses import OPS, unit_of

HOST = "op_host/swish_custom.cpp"
PLAIN = '        this->AICore().AddConfig("ascend910b");\n'
WITH_CONFIG = """        OpAICoreConfig cfg;
        cfg.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        cfg.Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b", cfg);
        this->AICore().AddConfig("ascend310p");
"""


def test_a_socs_config_replaces_the_opdef_dtypes_on_that_soc(ctx):
    assert PLAIN in (OPS / "SwishCustom" / HOST).read_text(encoding="utf-8")
    unit = unit_of("SwishCustom", {HOST: (PLAIN, WITH_CONFIG)})
    build_dir = steps.fresh_dir(ctx.sandbox_session().new_dir("soc-config-"), "build")
    builder = oprun._builder(unit, build_dir, ctx)
    (op,) = builder.describe()
    assert ctx.soc == "ascend910b"
    assert [p["dtypes"] for p in op["inputs"] + op["outputs"]] == [[1, 0], [1, 0]]  # DT_FLOAT16, DT_FLOAT
    assert op["configs"] == {"ascend910b": {"inputs": {"x": [1, 0]}, "outputs": {"y": [1, 0]}}}


def _op(configs: dict) -> dict:
    return {
        "inputs": [{"name": "x", "dtypes": [1]}],
        "outputs": [{"name": "y", "dtypes": [1]}],
        "configs": configs,
    }


def test_another_soc_or_an_incomplete_config_keeps_the_opdef_dtypes():
    full = {"ascend910b": {"inputs": {"x": [27]}, "outputs": {"y": [27]}}}
    assert soc_config.for_soc(_op(full), "ascend910b1")["inputs"][0]["dtypes"] == [27]  # a prefix names the SoC
    assert soc_config.for_soc(_op(full), "ascend310p")["inputs"][0]["dtypes"] == [1]
    partial = {"ascend910b": {"inputs": {"x": [27]}, "outputs": {}}}
    assert soc_config.for_soc(_op(partial), "ascend910b")["inputs"][0]["dtypes"] == [1]
