"""The exact task statement in Chinese: the same structured form as statement.prose, the same facts, in Chinese words.

A `--lang zh` annotation's user turn is this text, so a Chinese row does not ask its question in English. It says what
the English prose says and nothing else: the reference (formula, program or function, kept as code), every tensor's
name, dtype and shape, the attributes, the SoC limits and the tolerance. `prose_matches_zh` runs the English prose
gate on it (shapes, dtypes and attributes must be the form's), after mapping the Chinese punctuation it uses.
Kept apart from statement.py: that file's code keys the cached derivations, and the prose is not part of them.
"""

from __future__ import annotations

from typing import Any

from .statement import _socs, prose_matches


def prose_zh(form: dict[str, Any], entry: str, soc: str | None = None) -> str:
    out = [f"请编写 AscendC 核函数 `{entry}`。"]
    if form["reference_kind"] == "numpy expression":
        for o in form["outputs"]:
            out.append(f"它计算 `{o['name']} = {o['reference']}`（numpy 语义）。")
    elif form["reference_kind"] == "numpy program":
        names = "、".join(f"`__inputs__['{t['name']}']`" for t in form["inputs"])
        for o in form["outputs"]:
            out.append(
                f"它计算 `{o['name']}`，即下面这段 numpy 程序中的 `__golden__`（取自 `{form['source']}`；"
                f"{names} 是输入）：\n" + o["reference"] + "\n"
            )
    else:
        out.append(f"它计算下面这个参考实现的返回值（取自 `{form['source']}`）：\n" + form["reference"] + "\n")

    def tensor(t: dict[str, Any]) -> str:
        shape = list(t["shape"]) if isinstance(t["shape"], list) else t["shape"]
        case = f"（用例 {t['case']}）" if t.get("case") is not None else ""
        return f"`{t['name']}`，{t['dtype']}，形状 {shape}{case}"

    ins = "；".join(tensor(t) for t in form["inputs"]) or "无"
    outs = "；".join(tensor(t) for t in form["outputs"])
    out.append(f"输入：{ins}。输出：{outs}。所有张量在全局内存中连续存放，按行优先排列。")
    if form["attrs"]:
        out.append("属性：" + "，".join(f"{k} = {v}" for k, v in form["attrs"].items()) + "。")
    if soc:
        table = _socs().get(soc.lower(), {})
        limits = []
        if table.get("aiv_cores"):
            limits.append(f"{table['aiv_cores']} 个向量核")
        if table.get("ub_bytes"):
            limits.append(f"每个核 {table['ub_bytes']} 字节统一缓冲区")
        out.append(f"目标芯片：{soc}" + (f"（{'，'.join(limits)}）" if limits else "") + "。")
    tol = form["tolerance"]
    if tol.get("atol") == 0 and tol.get("rtol") == 0:
        out.append("正确的标准是每个输出元素与参考结果完全相等。")
    else:
        out.append(f"正确的标准是每个输出元素与参考结果的差在 atol = {tol['atol']:g} 或 rtol = {tol['rtol']:g} 之内。")
    return "".join(out)


def prose_matches_zh(text: str, form: dict[str, Any]) -> list[str]:
    """What the Chinese prose states that the form does not: the English gate on the same words and numbers."""
    english = text.replace("属性：", "Attributes: ")
    for zh, en in (("，", ", "), ("。", ". "), ("；", "; "), ("：", ": ")):
        english = english.replace(zh, en)
    return prose_matches(english, form)
