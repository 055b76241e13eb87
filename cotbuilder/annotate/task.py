"""The annotation task: `format_input` (unit -> chat messages) and `format_output` (answer text -> fields).

Prompts are versioned template files in data/prompts/ (`<kind>.<lang>.md`, first line names the version); the version
and the rendered messages make the prompt hash in the cache key, so editing a template means new requests.
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from .. import records
from ..paths import package_data
from .facts import unit_facts

_VERSION_RE = re.compile(r"<!--\s*prompt_version:\s*(\S+)\s*-->")
_FENCE_RE = re.compile(r"```(?:json|JSON)?\s*\n(.*?)```", re.S)
# Prompt facts leave out what is bulky or internal; the code itself is in the prompt.
_FACT_KEYS_FOR_PROMPT = (
    "entry_name",
    "category",
    "inputs",
    "outputs",
    "tensor_params",
    "dtypes",
    "positions",
    "buffer_num",
    "tile_length",
    "block_dim",
    "ub_bytes",
    "tiling_fields",
    "tiling_values",
    "uses_cube",
    "multi_core",
    "kernel_class",
    "methods",
    "apis",
    "soc",
    "constants",
    "claims",
    "statement",
    "tensors",
    "decisions",
    "verification",
)


class OutputInvalid(ValueError):
    """The teacher's answer is not a valid annotation; the message is sent back to it as the correction request."""


@dataclass(frozen=True)
class PromptTemplate:
    version: str
    system: str
    user: str


@cache
def load_template(kind: str, lang: str) -> PromptTemplate:
    text = package_data(f"annotate/data/prompts/{kind}.{lang}.md").read_text(encoding="utf-8")
    m = _VERSION_RE.search(text)
    if not m:
        raise ValueError(f"prompt template {kind}.{lang}.md names no prompt_version")
    _, _, rest = text.partition("=== system ===")
    system, _, user = rest.partition("=== user ===")
    return PromptTemplate(m.group(1), system.strip(), user.strip())


def prompt_facts(facts: dict[str, Any]) -> str:
    return json.dumps(
        {k: facts.get(k) for k in _FACT_KEYS_FOR_PROMPT if facts.get(k) not in (None, [], {})},
        ensure_ascii=False,
        indent=1,
        sort_keys=True,
    )


@cache
def _worked_example(lang: str) -> dict[str, str]:
    """One worked example from the project's own code: its kernel, facts and the static teacher's answer to it."""
    from .static_teacher import write_annotation

    base = "annotate/data/worked_example/"
    code = package_data(base + "relu_custom.cpp").read_text(encoding="utf-8")
    unit = json.loads(package_data(base + "facts.json").read_text(encoding="utf-8"))
    unit.update(kernel_code=code, host_code="", files=[{"path": "relu_custom.cpp", "role": "kernel", "text": code}])
    facts = unit_facts(unit, statement=unit.pop("statement", None))
    answer = write_annotation(facts, lang)
    return {
        "example_code": code.strip(),
        "example_facts": prompt_facts(facts),
        "example_answer": json.dumps(answer, ensure_ascii=False, indent=1),
    }


class AnnotateTask:
    """Explain a unit: task statement + rationale steps."""

    kind = "cot"

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.template = load_template("annotate", lang)

    @property
    def prompt_version(self) -> str:
        return self.template.version

    def format_input(self, unit: dict[str, Any], facts: dict[str, Any]) -> list[dict[str, str]]:
        values = {
            **_worked_example(self.lang),
            "name": unit.get("name", ""),
            "layout": unit.get("layout", ""),
            "kernel_code": unit.get("kernel_code") or "(none)",
            "host_code": unit.get("host_code") or "(none)",
            "facts": prompt_facts(facts),
        }
        return [
            {"role": "system", "content": self.template.system},
            {"role": "user", "content": string.Template(self.template.user).safe_substitute(values)},
        ]

    def format_output(self, text: str) -> dict[str, Any]:
        data = parse_json_answer(text)
        _validate(data)
        return {"task": data["task"].strip(), "rationale": _clean_steps(data["rationale"])}

    def correction_message(self, error: str) -> dict[str, str]:
        if self.lang == "zh":
            return {"role": "user", "content": f"你的回答无效：{error}\n请只回答一个符合要求的 JSON 对象。"}
        return {
            "role": "user",
            "content": f"Your answer is invalid: {error}\nAnswer again with one valid JSON object only.",
        }


class RepairTask(AnnotateTask):
    """Fix a unit that failed verification: corrected kernel + the reasoning about the fix."""

    kind = "repair"

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.template = load_template("repair", lang)

    def format_input(
        self,
        unit: dict[str, Any],
        facts: dict[str, Any],
        *,
        verification: dict[str, Any] | None = None,
        kernel_path: str = "",
    ) -> list[dict[str, str]]:
        from ..crawl.secrets import scan

        v = verification or {}
        log = "\n".join(x for x in (v.get("compile_log") or "", v.get("run_log") or "") if x)
        # the logs are the unit's own output: a credential it printed never reaches the teacher (a store written
        # before verify scanned its logs may still hold one)
        log = scan(log[-4000:], "verify.log").text
        diagnostics = scan(json.dumps(v.get("diagnostics"), ensure_ascii=False, indent=1), "diagnostics.json").text
        values = {
            "name": unit.get("name", ""),
            "layout": unit.get("layout", ""),
            "kernel_path": kernel_path,
            "kernel_code": unit.get("kernel_code") or "",
            "host_code": unit.get("host_code") or "(none)",
            "facts": prompt_facts(facts),
            "backend": v.get("backend") or "?",
            "status": v.get("status") or "?",
            "diagnostics": diagnostics,
            "log": log or "(none)",
        }
        return [
            {"role": "system", "content": self.template.system},
            {"role": "user", "content": string.Template(self.template.user).safe_substitute(values)},
        ]

    def format_output(self, text: str) -> dict[str, Any]:
        data = parse_json_answer(text)
        _validate(data)
        fixed = data.get("fixed_kernel")
        if not isinstance(fixed, str) or not fixed.strip():
            raise OutputInvalid("'fixed_kernel' is required: the complete corrected kernel source file")
        fixed = _strip_fence(fixed)
        return {"task": data["task"].strip(), "rationale": _clean_steps(data["rationale"]), "fixed_kernel": fixed}


def parse_json_answer(text: str) -> dict[str, Any]:
    """Tolerant: accepts the JSON bare, inside a ```json fence, or after leading prose."""
    if not text or not text.strip():
        raise OutputInvalid("the answer is empty")
    candidates = [text.strip()]
    candidates += [m.strip() for m in _FENCE_RE.findall(text)]
    start, end = text.find("{"), text.rfind("}")
    if start != -1 and end > start:
        candidates.append(text[start : end + 1])
    last_error = "no JSON object found"
    for cand in candidates:
        try:
            data = json.loads(cand)
        except json.JSONDecodeError as exc:
            last_error = f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            continue
        if isinstance(data, dict):
            return data
        last_error = "the JSON is not an object"
    raise OutputInvalid(last_error)


@lru_cache(maxsize=1)
def _answer_checker() -> Any:
    import jsonschema

    schema = records.schema_of("teacher_response")
    return jsonschema.validators.validator_for(schema)(schema)


def _validate(data: dict[str, Any]) -> None:
    if _answer_checker().is_valid(data):  # the common case, cheaply; the full report only for a broken answer
        return
    try:
        records.validate("teacher_response", data)
    except records.RecordError as exc:
        raise OutputInvalid(str(exc).replace("invalid teacher_response record", "schema violation")) from None


def _clean_steps(steps: list[dict[str, str]]) -> list[dict[str, str]]:
    return [{"step": s["step"], "title": s["title"].strip(), "text": s["text"].strip()} for s in steps]


def _strip_fence(code: str) -> str:
    m = re.match(r"^\s*```[\w+]*\s*\n(.*?)\n?```\s*$", code, re.S)
    return m.group(1) if m else code


@cache
def response_format(kind: str, mode: str) -> dict[str, Any] | None:
    """The `response_format` request field for a structured-output mode (json_schema | json_object | none).
    Built once per (kind, mode) and shared by every request: callers must not change it."""
    if mode == "json_object":
        return {"type": "json_object"}
    if mode != "json_schema":
        return None
    schema = {k: v for k, v in records.schema_of("teacher_response").items() if not k.startswith("$")}
    schema = json.loads(json.dumps(schema))
    schema.pop("title", None)
    if kind == "repair":
        schema["required"] = ["task", "rationale", "fixed_kernel"]
    else:
        schema["properties"].pop("fixed_kernel", None)
    return {
        "type": "json_schema",
        "json_schema": {"name": f"ascendc_{kind}_annotation", "schema": schema, "strict": False},
    }
