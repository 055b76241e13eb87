"""The exact task statement as prose, in English or Chinese, from statement.derive's structured form, and its gate.

Both languages say the same thing and nothing else: the reference (formula, program or function, kept as code), every
tensor's name, dtype and shape, the attributes, the SoC limits and the tolerance. One builder fills each language's
phrase table (`_PHRASES`), so the two cannot drift apart. `prose_matches` is the gate: what the prose states that the
form does not (shapes, dtypes, attributes); the Chinese text is checked by the same rules after mapping its
punctuation. Kept apart from statement.py: that file's code keys the cached derivations, and the prose is not part
of them (the static teacher's prompt version names this file instead).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..verify.npu import soc_table

_SHAPE_RE = re.compile(r"\[(\d+(?:, \d+)*)\]")
_DTYPE_WORDS = ("float16", "float32", "float64", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "uint16")
_DTYPE_WORDS += ("uint32", "uint64", "bool")


@dataclass(frozen=True)
class _Phrases:
    sentence_join: str
    name_join: str  # between the SoC limits and between the attributes
    program_names_join: str  # between the input names of a numpy program
    item_join: str  # between tensors
    write: str
    expression: str
    program: str
    function: str
    tensor: str
    case: str
    io: str
    no_inputs: str
    attrs: str
    vector_cores: str
    ub_bytes: str
    target: str
    limits: str
    exact: str
    within: str
    one_input: str = ""
    many_inputs: str = ""


_PHRASES = {
    "en": _Phrases(
        sentence_join=" ",
        name_join=", ",
        program_names_join=", ",
        item_join="; ",
        write="Write the AscendC kernel `{entry}`.",
        expression="It computes `{name} = {reference}` (numpy semantics).",
        program="It computes `{name}` as `__golden__` of this numpy program (from `{source}`; {names} {are}):\n"
        "{reference}\n",
        function="It computes what this reference returns (from `{source}`):\n{reference}\n",
        tensor="`{name}` {dtype} of shape {shape}{case}",
        case=" (case {case})",
        io="Inputs: {ins}. Outputs: {outs}. All tensors are contiguous, row-major in global memory.",
        no_inputs="none",
        attrs="Attributes: {attrs}.",
        vector_cores="{n} vector cores",
        ub_bytes="{n} bytes of Unified Buffer per core",
        target="Target: {soc}{limits}.",
        limits=" ({limits})",
        exact="Correct means every output element equals the reference exactly.",
        within="Correct means every output element is within atol = {atol:g} or rtol = {rtol:g} of the reference.",
        one_input="is the input",
        many_inputs="are the inputs",
    ),
    "zh": _Phrases(
        sentence_join="",
        name_join="，",
        program_names_join="、",
        item_join="；",
        write="请编写 AscendC 核函数 `{entry}`。",
        expression="它计算 `{name} = {reference}`（numpy 语义）。",
        program="它计算 `{name}`，即下面这段 numpy 程序中的 `__golden__`（取自 `{source}`；{names} 是输入）：\n{reference}\n",
        function="它计算下面这个参考实现的返回值（取自 `{source}`）：\n{reference}\n",
        tensor="`{name}`，{dtype}，形状 {shape}{case}",
        case="（用例 {case}）",
        io="输入：{ins}。输出：{outs}。所有张量在全局内存中连续存放，按行优先排列。",
        no_inputs="无",
        attrs="属性：{attrs}。",
        vector_cores="{n} 个向量核",
        ub_bytes="每个核 {n} 字节统一缓冲区",
        target="目标芯片：{soc}{limits}。",
        limits="（{limits}）",
        exact="正确的标准是每个输出元素与参考结果完全相等。",
        within="正确的标准是每个输出元素与参考结果的差在 atol = {atol:g} 或 rtol = {rtol:g} 之内。",
    ),
}


def prose(form: dict[str, Any], entry: str, soc: str | None = None, lang: str = "en") -> str:
    """The statement of `form` for the kernel `entry` (and the SoC's limits when `soc` is given) in `lang`."""
    p = _PHRASES[lang]
    out = [p.write.format(entry=entry)]
    if form["reference_kind"] == "numpy expression":
        out += [p.expression.format(name=o["name"], reference=o["reference"]) for o in form["outputs"]]
    elif form["reference_kind"] == "numpy program":
        names = p.program_names_join.join(f"`__inputs__['{t['name']}']`" for t in form["inputs"])
        are = p.one_input if len(form["inputs"]) == 1 else p.many_inputs
        out += [
            p.program.format(name=o["name"], source=form["source"], names=names, are=are, reference=o["reference"])
            for o in form["outputs"]
        ]
    else:
        out.append(p.function.format(source=form["source"], reference=form["reference"]))

    def tensor(t: dict[str, Any]) -> str:
        shape = list(t["shape"]) if isinstance(t["shape"], list) else t["shape"]
        case = p.case.format(case=t["case"]) if t.get("case") is not None else ""
        return p.tensor.format(name=t["name"], dtype=t["dtype"], shape=shape, case=case)

    ins = p.item_join.join(tensor(t) for t in form["inputs"]) or p.no_inputs
    out.append(p.io.format(ins=ins, outs=p.item_join.join(tensor(t) for t in form["outputs"])))
    if form["attrs"]:
        out.append(p.attrs.format(attrs=p.name_join.join(f"{k} = {v}" for k, v in form["attrs"].items())))
    if soc:
        table = soc_table().get(soc.lower(), {})
        limits = [p.vector_cores.format(n=table["aiv_cores"])] if table.get("aiv_cores") else []
        limits += [p.ub_bytes.format(n=table["ub_bytes"])] if table.get("ub_bytes") else []
        out.append(p.target.format(soc=soc, limits=p.limits.format(limits=p.name_join.join(limits)) if limits else ""))
    tol = form["tolerance"]
    exact = tol.get("atol") == 0 and tol.get("rtol") == 0
    out.append(p.exact if exact else p.within.format(atol=tol["atol"], rtol=tol["rtol"]))
    return p.sentence_join.join(out)


# The Chinese prose's punctuation and attribute label, mapped so the English rules read it.
_ZH_TO_EN = (("属性：", "Attributes: "), ("，", ", "), ("。", ". "), ("；", "; "), ("：", ": "))


def prose_matches(text: str, form: dict[str, Any], lang: str = "en") -> list[str]:
    """What the prose states that the form does not (shapes, dtypes, attrs): [] when it says only the form."""
    if lang == "zh":
        for zh, en in _ZH_TO_EN:
            text = text.replace(zh, en)
    tensors = form["inputs"] + form["outputs"]
    shapes = {tuple(t["shape"]) for t in tensors if isinstance(t["shape"], list)}
    dtypes = {t["dtype"] for t in tensors}
    # the reference itself may cast (`.astype(np.float32)`): only the prose around it is checked
    body = text
    for ref in sorted({form.get("reference", "")} | {o.get("reference", "") for o in form["outputs"]}, key=len)[::-1]:
        body = body.replace(ref, "") if ref else body
    wrong = []
    for m in _SHAPE_RE.finditer(body):
        if tuple(int(n) for n in m.group(1).split(", ")) not in shapes:
            wrong.append(f"shape [{m.group(1)}] is in no case")
    for word in _DTYPE_WORDS:
        if re.search(rf"\b{word}\b", body) and word not in dtypes:
            wrong.append(f"dtype {word} is no tensor's")
    attrs = body.split("Attributes: ", 1)[1].split(". ", 1)[0] + ". " if "Attributes: " in body else ""
    for m in re.finditer(r"\b(\w+) = ([-+\w.]+?)[,.]\s", attrs):
        if str(form["attrs"].get(m.group(1))) != m.group(2):
            wrong.append(f"attr {m.group(1)} = {m.group(2)} is not the form's")
    return wrong
