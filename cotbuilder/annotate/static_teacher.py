"""The offline teacher: writes the task statement and the rationale from the unit's parsed facts, deterministically.

It is the reference the LLM teachers are checked against, so it never guesses: each sentence is picked for a fact that
is known (see data/static_<lang>.toml), and a number is only written when the parser or the harness knows it.
It answers through the same `generate` interface as an LLM client, with the same JSON an LLM must produce.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ..paths import package_data
from .client import ChatResponse
from .facts import dtype_bytes

# What the static teacher's answer and its gate results are made from, besides the unit's facts (those are hashed
# separately, per unit): editing any of these must re-annotate, so they name the static teacher's prompt_version.
_CODE_FILES = (
    "static_teacher.py",
    "gates.py",
    "apis.py",
    "task.py",
    "data/static_en.toml",
    "data/static_zh.toml",
    "data/categories.toml",
    "data/gates.toml",
)
_PARSER_API_LIST = "apidocs/data/ascendc_apis.tsv"  # the gates' API names (the documented API list)
_QUEUE_APIS = ("AllocTensor", "EnQue", "DeQue", "FreeTensor")
_MOVEMENT_APIS = ("DataCopy", "DataCopyPad", "Copy")


@cache
def _phrases(lang: str) -> dict[str, Any]:
    return tomllib.loads(package_data(f"annotate/data/static_{lang}.toml").read_text(encoding="utf-8"))


@cache
def _names() -> dict[str, Any]:
    return tomllib.loads(package_data("annotate/data/categories.toml").read_text(encoding="utf-8"))


def static_prompt_version(root: Path | None = None) -> str:
    """`static-<8 hex>`: a digest of the static teacher's code and data (files of the annotate package at `root`)."""
    return _installed_version() if root is None else _code_digest(root)


@lru_cache(maxsize=1)
def _installed_version() -> str:
    return _code_digest(Path(__file__).parent)


def _code_digest(root: Path) -> str:
    digest = hashlib.sha256()
    paths = [root / name for name in _CODE_FILES] + [package_data(_PARSER_API_LIST)]
    for name, path in zip(_CODE_FILES + (_PARSER_API_LIST,), paths, strict=False):
        digest.update(name.encode() + b"\0")
        digest.update(path.read_bytes() if path.is_file() else b"(absent)")
        digest.update(b"\0")
    return f"static-{digest.hexdigest()[:8]}"


class StaticTeacher:
    """LLM-client stand-in: `generate(messages, params, facts=...)` answers from facts alone, offline, for free."""

    provider = "static"
    model = "static"
    supports_repair = False

    def __init__(self, lang: str = "en"):
        self.lang = lang

    async def generate(
        self, messages: list[dict[str, str]], params: dict[str, Any], *, facts: dict[str, Any] | None = None
    ) -> ChatResponse:
        if facts is None:
            raise ValueError("the static teacher writes from a unit's facts; none were given")
        answer = write_annotation(facts, params.get("lang", self.lang))
        return ChatResponse(
            text=json.dumps(answer, ensure_ascii=False, indent=1),
            finish_reason="stop",
            usage={"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        )

    async def aclose(self) -> None:
        return None


def write_annotation(facts: dict[str, Any], lang: str = "en") -> dict[str, Any]:
    w = _Writer(facts, lang)
    steps = [
        ("operator_analysis", w.operator_analysis()),
        ("multi_core_split", w.multi_core_split()),
        ("ub_budget_and_tile", w.ub_budget_and_tile()),
        ("double_buffering", w.double_buffering()),
        ("pipeline", w.pipeline()),
        ("api_choice", w.api_choice()),
        ("tail_and_alignment", w.tail_and_alignment()),
        ("host_tiling", w.host_tiling()),
        ("verification", w.verification()),
    ]
    titles = w.p["titles"]
    rationale = [{"step": s, "title": titles[s], "text": w.join(parts)} for s, parts in steps if parts]
    return {"task": w.task(), "rationale": rationale}


class _Writer:
    def __init__(self, facts: dict[str, Any], lang: str):
        self.f = facts
        self.lang = lang
        self.p = _phrases(lang)
        self.s = self.p["steps"]
        self.t = self.p["task"]

    # -- helpers -----------------------------------------------------------------------------------------------
    def join(self, sentences: list[str]) -> str:
        return ("" if self.lang == "zh" else " ").join(s for s in sentences if s)

    def listing(self, items: list[str]) -> str:
        items = [i for i in items if i]
        if len(items) <= 1:
            return "".join(items)
        return self.t["list_sep"].join(items[:-1]) + self.t["list_last"] + items[-1]

    def tensor(self, t: dict[str, Any]) -> str:
        if t.get("dtype") and t.get("shape"):
            return self.t["tensor_shape"].format(name=t["name"], dtype=t["dtype"], shape=list(t["shape"]))
        if t.get("dtype"):
            return self.t["tensor_dtype"].format(name=t["name"], dtype=t["dtype"])
        return self.t["tensor"].format(name=t["name"])

    def category(self) -> str:
        return _names()["category"][self.lang].get(self.f.get("category") or "other", self.f.get("category") or "")

    def a_category(self) -> str:
        """English needs its article ("an element-wise", "a reduction"); Chinese has none."""
        cat = self.category()
        if self.lang != "en":
            return cat
        return ("an " if cat[:1].lower() in "aeiou" else "a ") + cat

    def main_dtype(self) -> str | None:
        dtypes = self.f.get("dtypes") or []
        return dtypes[0] if len(dtypes) == 1 else None

    def apis(self) -> dict[str, int]:
        return self.f.get("apis") or {}

    def tile_bytes(self) -> tuple[str, int, int] | None:
        dtype, tile = self.main_dtype(), self.f.get("tile_length")
        size = dtype_bytes(dtype)
        if dtype and tile and size:
            return dtype, size, tile * size
        return None

    # -- task --------------------------------------------------------------------------------------------------
    def task(self) -> str:
        f, t = self.f, self.t
        out = [t["intro"].format(entry=f["entry_name"])]
        verbs = _names()["api"][self.lang]
        what = [verbs[a] for a in f.get("compute_apis", []) if a in verbs]
        what = list(dict.fromkeys(what))
        if len(what) == 1:
            out.append(t["what"].format(what=what[0]))
        elif what:
            out.append(t["what_many"].format(category=self.a_category(), what=self.listing(what)))
        else:
            out.append(t["category"].format(category=self.a_category()))
        if f.get("inputs") and f.get("outputs"):
            out.append(
                t["io"].format(
                    inputs=self.listing([self.tensor(x) for x in f["inputs"]]),
                    outputs=self.listing([self.tensor(x) for x in f["outputs"]]),
                )
            )
        elif f.get("tensor_params"):
            out.append(t["params"].format(params=self.listing(f["tensor_params"])))
        if f.get("dtypes") and not any(x.get("dtype") for x in f.get("inputs", []) + f.get("outputs", [])):
            out.append(t["dtypes"].format(dtypes=self.listing(f["dtypes"])))
        out.append(t["soc"].format(soc=f["soc"]) if f.get("soc") else t["no_soc"])
        if f.get("block_dim"):
            out.append(t["block_dim"].format(block_dim=f["block_dim"]))
        return self.join(out)

    # -- rationale steps ---------------------------------------------------------------------------------------
    def operator_analysis(self) -> list[str]:
        f, s = self.f, self.s
        out = []
        if f.get("inputs") and f.get("outputs"):
            out.append(
                s["analysis_io"].format(
                    entry=f["entry_name"],
                    category=self.a_category(),
                    inputs=self.listing([x["name"] for x in f["inputs"]]),
                    outputs=self.listing([x["name"] for x in f["outputs"]]),
                )
            )
        else:
            out.append(
                s["analysis_params"].format(
                    entry=f["entry_name"],
                    category=self.a_category(),
                    params=self.listing(f.get("tensor_params") or ["-"]),
                )
            )
        if f.get("dtypes"):
            out.append(s["analysis_dtypes"].format(dtypes=self.listing(f["dtypes"])))
        out.append(s["analysis_cube"] if f.get("uses_cube") else s["analysis_vector"])
        if f.get("kernel_class"):
            out.append(s["analysis_class"].format(kernel_class=f["kernel_class"]))
        return out

    def multi_core_split(self) -> list[str]:
        f, s = self.f, self.s
        claims = f.get("claims") or {}
        has_idx = "GetBlockIdx" in self.apis()
        sliced = claims.get("core_slice")
        if sliced:  # a GetBlockIdx-dependent GM offset is the per-core split, whatever the parser guessed
            line = {"line": sliced["line"]}
            if f.get("block_dim"):
                return [
                    s["split_known"].format(block_dim=f["block_dim"], idx=s["split_idx"] if has_idx else "", **line)
                ]
            return [s["split_unknown"].format(idx=s["split_unknown_idx"] if has_idx else "", **line)]
        if claims.get("reads_block_idx"):
            out = [s["split_idx_no_slice"].format(line=claims["reads_block_idx"]["line"])]
            if f.get("block_dim"):
                out.append(s["split_none_known"].format(block_dim=f["block_dim"]))
            return out
        out = [s["split_none"]]
        if f.get("block_dim"):
            out.append(s["split_none_known"].format(block_dim=f["block_dim"]))
        return out

    def ub_budget_and_tile(self) -> list[str]:
        f, s = self.f, self.s
        out = []
        if f.get("tile_length"):
            out.append(s["tile_known"].format(tile_length=f["tile_length"]))
            tb = self.tile_bytes()
            if tb:
                out.append(s["tile_bytes"].format(dtype=tb[0], size=tb[1], tile_bytes=tb[2]))
        if f.get("ub_bytes"):
            out.append(s["ub_known"].format(ub_bytes=f["ub_bytes"]))
        if not out:
            out.append(s["tile_unknown_initbuffer"] if "InitBuffer" in self.apis() else s["tile_unknown"])
        return out

    def double_buffering(self) -> list[str]:
        n, s = self.f.get("buffer_num"), self.s
        if n == 2:
            return [s["buffer_2"]]
        if n == 1:
            return [s["buffer_1"]]
        if n:
            return [s["buffer_n"].format(buffer_num=n)]
        return [s["buffer_unknown_queues"] if "InitBuffer" in self.apis() else s["buffer_none"]]

    def pipeline(self) -> list[str]:
        f, s = self.f, self.s
        methods = set(f.get("methods") or [])
        staged = {"CopyIn", "Compute", "CopyOut"} <= methods
        out = []
        if staged:
            out.append(s["pipeline_full"])
            loop = (f.get("claims") or {}).get("process_loop")
            if "Process" in methods:
                out.append(s["pipeline_process"].format(line=loop["line"]) if loop else s["pipeline_process_once"])
            queue_positions = [
                p
                for p in f.get("positions") or []
                if p.upper().startswith("VEC") or p.upper().startswith(("A1", "B1", "A2", "B2", "CO"))
            ]
            if queue_positions:
                out.append(s["pipeline_positions"].format(positions=self.listing(queue_positions)))
        else:
            out.append(s["pipeline_none"])
            if "DataCopy" in self.apis():
                out.append(s["pipeline_copy"])
        queue = [f"`{a}`" for a in _QUEUE_APIS if a in self.apis()]
        if queue:
            key = "pipeline_queue_apis" if staged else "pipeline_buffer_apis"
            out.append(s[key].format(queue_apis=self.listing(queue)))
        return out

    def api_choice(self) -> list[str]:
        s, apis = self.s, self.apis()
        out = []
        compute = self.f.get("compute_apis") or []
        if compute:
            calls = [s["api_call"].format(api=a, count=apis[a], plural="" if apis[a] == 1 else "s") for a in compute]
            out.append(s["api_compute"].format(compute=self.listing(calls)))
        else:
            out.append(s["api_none"])
        movement = [a for a in _MOVEMENT_APIS if a in apis]
        if movement:
            calls = [s["api_call"].format(api=a, count=apis[a], plural="" if apis[a] == 1 else "s") for a in movement]
            out.append(s["api_movement"].format(movement=self.listing(calls)))
        return out

    def tail_and_alignment(self) -> list[str]:
        f, s, apis = self.f, self.s, self.apis()
        out = []
        if "DataCopy" in apis:
            out.append(s["align_datacopy"])
            tb = self.tile_bytes()
            if tb:
                key = "align_tile_ok" if tb[2] % 32 == 0 else "align_tile_bad"
                out.append(s[key].format(tile_length=f["tile_length"], dtype=tb[0], tile_bytes=tb[2]))
        if "DataCopyPad" in apis:
            out.append(s["align_pad"])
        tail = (f.get("claims") or {}).get("tail_branch")
        if tail:
            out.append(s["tail_named"].format(line=tail["line"]))
        elif f.get("tile_length") or "DataCopy" in apis:
            out.append(s["tail_none"])
        return out

    def host_tiling(self) -> list[str]:
        f, s = self.f, self.s
        out = []
        if f.get("tiling_fields"):
            out.append(s["host_fields"].format(fields=self.listing([f"`{x}`" for x in f["tiling_fields"]])))
            values = [f"{k} = {v}" for k, v in (f.get("tiling_values") or {}).items() if k in f["tiling_fields"]]
            if values:
                out.append(s["host_values"].format(values=self.listing(values)))
            if f.get("reads_tiling_macro"):
                out.append(s["host_macro"])
        elif f.get("has_tiling_param"):
            out.append(s["host_param_only"])
        else:
            out.append(s["host_none"])
        launch = f.get("host_launch")
        if launch:
            out.append(s[f"host_launch_{launch}"])
        return out

    def verification(self) -> list[str]:
        v = self.f.get("verification")
        if not v or v.get("status") != "passed" or not v.get("backend"):
            return []
        cases = self.s["verified_cases"].format(cases=v["cases"]) if v.get("cases") else ""
        return [self.s["verified"].format(backend=v["backend"], cases=cases)]
