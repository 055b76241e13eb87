"""Quality gates: checks of an annotation against its unit, each returning (passed, detail).

An annotation that fails a gate is kept (with the gate results) and excluded from publishing by default.
Settings and patterns live in data/gates.toml.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from ..paths import package_data
from .apis import known_apis

GateResult = dict[str, Any]  # {"passed": bool, "detail": str}

_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_RE = re.compile(r"[A-Za-z]")
_CODE_SPAN_RE = re.compile(r"`[^`\n]*`")
_TOKEN_RE = re.compile(r"\w+|[^\w\s]")


@lru_cache(maxsize=1)
def settings() -> dict[str, Any]:
    return tomllib.loads(package_data("annotate/data/gates.toml").read_text(encoding="utf-8"))


def _ok(detail: str = "ok") -> GateResult:
    return {"passed": True, "detail": detail}


def _fail(detail: str) -> GateResult:
    return {"passed": False, "detail": detail}


def rationale_text(rationale: list[dict[str, str]] | None) -> str:
    return "\n".join(f"{s.get('title', '')}\n{s.get('text', '')}" for s in rationale or [])


def statement_task(facts: dict, lang: str) -> str:
    """The unit's exact statement in the annotation's language (English where no Chinese prose exists), or ""."""
    st = facts.get("statement") or {}
    return (st.get("prose_zh") if lang == "zh" else None) or st.get("prose") or ""


def is_exact_statement(task: str, facts: dict) -> bool:
    """The task is the unit's exact statement (prose generated from the form that passed the solvability gate):
    its formula, shapes and SoC limits were checked there, so the code and number gates do not read it."""
    st = facts.get("statement") or {}
    return any(p and (task or "").strip() == p.strip() for p in (st.get("prose"), st.get("prose_zh")))


def without_statement_spans(text: str, facts: dict) -> str:
    """`text` without the statement's reference expressions and source path: numpy/Python, not AscendC names."""
    form = (facts.get("statement") or {}).get("form") or {}
    spans = {form.get("reference") or "", form.get("source") or ""}
    spans |= {o.get("reference") or "" for o in form.get("outputs") or []}
    for span in sorted((s for s in spans if s), key=len, reverse=True):
        text = text.replace(span, " ")
    return text


# -- gates -----------------------------------------------------------------------------------------------------------


def api_names_exist_and_used(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    """Every AscendC API the rationale names is a real API and is used by the unit's code; every other code-styled name
    (`Foo`, AscendC::Foo, Foo(...)) at least appears in the code (otherwise it is a made-up API)."""
    text = without_statement_spans(rationale_text(rationale), facts)
    code = (unit.get("kernel_code") or "") + "\n" + (unit.get("host_code") or "")
    used = set(facts.get("apis") or {})
    api_names = known_apis()
    named = mentioned_identifiers(text, api_names)
    not_used = sorted(n for n in named if n in api_names and n not in used and not _in_code(n, code))
    made_up = sorted(n for n in named if n not in api_names and not _in_code(n, code))
    problems = []
    if made_up:
        problems.append("not AscendC APIs and not in the code: " + ", ".join(made_up))
    if not_used:
        problems.append("AscendC APIs the code does not use: " + ", ".join(not_used))
    if problems:
        return _fail("; ".join(problems))
    apis = sorted(n for n in named if n in api_names)
    return _ok(f"{len(apis)} API names checked" + (f" ({', '.join(apis)})" if apis else ""))


def mentioned_identifiers(text: str, api_names: dict[str, str]) -> set[str]:
    names: set[str] = set()
    for span in _CODE_SPAN_RE.findall(text):
        names.update(w for w in re.findall(r"[A-Za-z_]\w*", span) if w[0].isupper())
    names.update(re.findall(r"AscendC::(\w+)", text))
    names.update(re.findall(r"\b([A-Z][A-Za-z0-9_]*)(?:<[^<>()\n]{0,40}>)?\(", text))  # Foo( / Foo<T>(
    # Bare words that can only be API names (two or more capitals, e.g. DataCopy, AllocTensor): English prose never
    # uses them, so naming one counts even outside backticks.
    names.update(set(re.findall(r"[A-Za-z_]\w*", text)) & _distinctive(frozenset(api_names)))
    names.discard("AscendC")
    return names


@lru_cache(maxsize=4)
def _distinctive(api_names: frozenset[str]) -> frozenset[str]:
    return frozenset(n for n in api_names if len(n) >= 5 and sum(c.isupper() for c in n) >= 2)


def _in_code(name: str, code: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", code) is not None


def numbers_match_facts(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    """Tile length, BUFFER_NUM, blockDim and UB bytes stated in the rationale equal the parsed facts; a number stated
    for a fact the parser does not know is a failure too (nobody can vouch for it)."""
    text = rationale_text(rationale) + "\n" + ("" if is_exact_statement(task, facts) else task or "")
    patterns = settings()["numbers"][lang]
    problems, checked = [], []
    for fact, regexes in patterns.items():
        stated = set()
        for rx in regexes:
            stated.update(int(m) for m in re.findall(rx, text, re.I))
        if not stated:
            continue
        known = facts.get(fact)
        for value in sorted(stated):
            if known is None:
                problems.append(f"states {fact} = {value}, which the code does not fix")
            elif value != known:
                problems.append(f"states {fact} = {value}, the code has {known}")
            else:
                checked.append(f"{fact}={value}")
    if problems:
        return _fail("; ".join(problems))
    return _ok("matches: " + ", ".join(checked) if checked else "no numbers stated")


# a number in prose: not part of an identifier (x1, float16, ascend910b, S_MTE3); ASCII bounds, so a number next to
# a Chinese character is still found
_NUMBER_RE = re.compile(r"(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![A-Za-z0-9_])")
_LINE_REF_RE = re.compile(r"\blines?\s+(\d+)|第\s*(\d+)\s*行")


def supported_numbers(facts: Any) -> set[float]:
    """Every number the facts hold: numeric values and the numbers written inside their strings (a reference
    expression's constants, a shape), recursively."""
    found: set[float] = set()

    def walk(x: Any) -> None:
        if isinstance(x, bool):
            return
        if isinstance(x, (int, float)):
            found.add(float(x))
        elif isinstance(x, str):
            found.update(float(m) for m in _NUMBER_RE.findall(x))
        elif isinstance(x, dict):
            for k, v in x.items():
                if k not in ("unit_id", "name", "entry_name"):  # ids and names: digits in them are no quantity
                    walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    walk(facts)
    return found


def numbers_supported(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    """Every number the rationale (and a task that is not the exact statement) states is one the facts hold: a size,
    a count, a line, a tolerance, a result of the arithmetic the facts carry. A number nobody derived - a made-up
    per-core size, a wrong repeat count, a line that is no claim's - fails (0 and 1 are always allowed)."""
    text = rationale_text(rationale) + "\n" + ("" if is_exact_statement(task, facts) else task or "")
    known = supported_numbers(facts) | {0.0, 1.0}
    lines = len((unit.get("kernel_code") or "").splitlines())
    problems, n = [], 0
    for m in _LINE_REF_RE.finditer(text):  # "line 83": a line of the kernel, and one the facts name
        value = int(m.group(1) or m.group(2))
        if value > lines:
            problems.append(f"line {value} (the kernel has {lines} lines)")
    for m in _NUMBER_RE.finditer(text):
        n += 1
        value = float(m.group(1))
        if not any(abs(value - k) <= 1e-9 * max(1.0, abs(k)) for k in known):
            problems.append(m.group(1))
    if problems:
        shown = ", ".join(dict.fromkeys(problems))
        return _fail(f"numbers the facts do not support: {shown[:300]}")
    return _ok(f"{n} numbers, each held by the facts")


def exact_statement(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    """The task is the unit's exact statement (statement.py: it passed the solvability gate), word for word; a unit
    without one fails here with the reason, so it is counted and not published with a vague task."""
    st = facts.get("statement")
    if st is None:  # the caller derived no statements (a repaired unit's facts, a library call): nothing to check
        return _ok("not checked: no statement was derived for these facts")
    if not st.get("prose"):
        return _fail(f"no exact statement: {st.get('reason') or 'unknown reason'}")
    if not is_exact_statement(task, facts):
        return _fail("the task is not the unit's exact statement (it must be copied verbatim)")
    return _ok(f"exact statement from {st['form'].get('source')}")


def no_code_paste(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    """No long verbatim run of the unit's code inside the rationale (consecutive code lines or a long token run)."""
    cfg = settings()["paste"]
    text = rationale_text(rationale)
    flat = " ".join(text.split())
    code = (unit.get("kernel_code") or "") + "\n" + (unit.get("host_code") or "")
    lines = [" ".join(ln.split()) for ln in code.splitlines()]
    lines = [ln for ln in lines if len(ln) >= cfg["min_line_chars"]]
    k = cfg["consecutive_lines"]
    for i in range(len(lines) - k + 1):
        window = " ".join(lines[i : i + k])
        if window in flat:
            return _fail(f"{k} consecutive code lines quoted, starting {lines[i][:60]!r}")
    n = cfg["ngram_tokens"]
    code_tokens = _TOKEN_RE.findall(code)
    text_tokens = _TOKEN_RE.findall(text)
    if len(text_tokens) >= n:
        text_grams = {tuple(text_tokens[i : i + n]) for i in range(len(text_tokens) - n + 1)}
        for i in range(len(code_tokens) - n + 1):
            gram = tuple(code_tokens[i : i + n])
            if gram in text_grams:
                return _fail(f"a run of {n} code tokens quoted: {' '.join(gram)[:80]!r}")
    return _ok()


def length_bounds(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    cfg = settings()["length"][lang]
    problems = []
    task_len = len(task or "")
    # an empty task is a unit without an exact statement: the exact_statement gate says so, with the reason
    exact = is_exact_statement(task, facts)  # its length is what the form needs
    if task_len and not exact and not cfg["task_min"] <= task_len <= cfg["task_max"]:
        problems.append(f"task has {task_len} characters (bounds {cfg['task_min']}..{cfg['task_max']})")
    body = sum(len(s.get("text", "")) for s in rationale or [])
    if not cfg["rationale_min"] <= body <= cfg["rationale_max"]:
        problems.append(f"rationale has {body} characters (bounds {cfg['rationale_min']}..{cfg['rationale_max']})")
    if len(rationale or []) < cfg["steps_min"]:
        problems.append(f"rationale has {len(rationale or [])} steps (at least {cfg['steps_min']})")
    short = [s.get("step", "?") for s in rationale or [] if len(s.get("text", "")) < cfg["step_text_min"]]
    if short:
        problems.append("steps too short: " + ", ".join(short))
    if problems:
        return _fail("; ".join(problems))
    return _ok(f"task {task_len} chars, rationale {body} chars in {len(rationale or [])} steps")


def cjk_share(text: str) -> float:
    text = _CODE_SPAN_RE.sub(" ", text)
    cjk = len(_CJK_RE.findall(text))
    latin = len(_LATIN_RE.findall(text))
    return cjk / (cjk + latin) if cjk + latin else 0.0


def language_matches(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    cfg = settings()["language"]
    share = cjk_share((task or "") + "\n" + rationale_text(rationale))
    if lang == "zh" and share < cfg["zh_min_cjk_share"]:
        return _fail(f"--lang zh but only {share:.0%} of the letters are CJK (need {cfg['zh_min_cjk_share']:.0%})")
    if lang == "en" and share > cfg["en_max_cjk_share"]:
        return _fail(f"--lang en but {share:.0%} of the letters are CJK")
    return _ok(f"CJK share {share:.0%}")


def claims_match_code(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    """Every claim about the code's structure (tail branch, loop in Process, per-core slice, core index, data types)
    holds for the code as read by code_facts; a stated data type must be one of the GM data types read from the code."""
    text = rationale_text(rationale) + "\n" + (task or "")
    found = facts.get("claims") or {}
    problems, checked = [], []
    for name, rule in settings()["claims"].get(lang, {}).items():
        if not re.search(rule["pattern"], text, re.I):
            continue
        if bool(found.get(rule["fact"])) != rule["holds"]:
            problems.append(f"claims {name}, the code says otherwise")
        else:
            checked.append(name)
    if (
        "uint8_t" in text
        and "uint8" not in (facts.get("dtypes") or [])
        and "uint8_t" not in (facts.get("dtypes") or [])
    ):
        problems.append("names uint8_t as a data type; the code uses it only for GM addresses")
    if problems:
        return _fail("; ".join(problems))
    return _ok("claims hold: " + ", ".join(checked) if checked else "no structural claims")


def task_has_no_code(task: str, rationale: list[dict], unit: dict, facts: dict, lang: str) -> GateResult:
    if is_exact_statement(task, facts):  # its reference formula is the specification, not the kernel's code
        return _ok("the exact statement (its reference is the specification)")
    for rx in settings()["task_code"]["patterns"]:
        m = re.search(rx, task or "")
        if m:
            return _fail(f"the task contains code: {m.group(0)[:60]!r}")
    return _ok()


GATES: dict[str, Callable[..., GateResult]] = {
    "api_names_exist_and_used": api_names_exist_and_used,
    "numbers_match_facts": numbers_match_facts,
    "no_code_paste": no_code_paste,
    "length_bounds": length_bounds,
    "language_matches": language_matches,
    "task_has_no_code": task_has_no_code,
    "claims_match_code": claims_match_code,
    "numbers_supported": numbers_supported,
    "exact_statement": exact_statement,
}


def run_gates(
    task: str, rationale: list[dict], unit: dict, facts: dict, lang: str
) -> tuple[dict[str, GateResult], bool]:
    results = {}
    for name, gate in GATES.items():
        try:
            results[name] = gate(task, rationale, unit, facts, lang)
        except Exception as exc:  # a gate bug must not lose the annotation: record it as a failure with the error
            results[name] = _fail(f"gate error: {type(exc).__name__}: {exc}")
    return results, all(r["passed"] for r in results.values())
