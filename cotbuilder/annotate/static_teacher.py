"""The offline teacher: writes the task statement and the rationale from the unit's facts, deterministically.

The task is the unit's exact statement (statement.py: prose generated from the structured form that passed the
solvability gate), or empty when the unit has none (the `exact_statement` gate then fails, with the reason). The
rationale walks the decisions a kernel author makes - what is computed, the multi-core split, the UB budget and tile
size, the pipeline and its sync, the vector instructions' repeat limits, alignment and tail, numerical choices, host
tiling, what verification exercised - and writes a step only when the unit has that decision, each sentence with the
unit's own numbers, names and lines (facts.py, decisions.py). So the text varies with what the kernel does, not with
synonyms; and every number in it is one the facts hold, which the `numbers_supported` gate checks for every teacher.
It answers through the same `generate` interface as an LLM client, with the same JSON an LLM must produce.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from ..paths import package_data
from .apis import api_category
from .client import ChatResponse
from .gates import statement_task

# What the static teacher's answer and its gate results are made from, besides the unit's facts (those are hashed
# separately, per unit): editing any of these must re-annotate, so they name the static teacher's prompt_version.
_CODE_FILES = (
    "static_teacher.py",
    "gates.py",
    "apis.py",
    "task.py",
    "facts.py",
    "statement_prose.py",
    "decisions.py",
    "data/static_en.toml",
    "data/static_zh.toml",
    "data/categories.toml",
    "data/gates.toml",
)
_PARSER_API_LIST = "apidocs/data/ascendc_apis.tsv"  # the gates' API names (the documented API list)
_QUEUE_APIS = ("AllocTensor", "EnQue", "DeQue", "FreeTensor")
_MOVEMENT_APIS = ("DataCopy", "DataCopyPad", "Copy")
_STAGES = ("CopyIn", "Compute", "CopyOut")
_SIGNATURE_RE = re.compile(r"\bdef\s+(\w+)\s*\(([^)]*)\)")


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
        ("pipeline", w.pipeline()),
        ("api_choice", w.api_choice()),
        ("tail_and_alignment", w.tail_and_alignment()),
        ("numerics", w.numerics()),
        ("host_tiling", w.host_tiling()),
        ("verification", w.verification()),
    ]
    titles = w.p["titles"]
    rationale = [{"step": s, "title": titles[s], "text": w.join(parts)} for s, parts in steps if any(parts)]
    if not rationale:  # a unit with no decision the facts can name: says so (and fails the length gate, counted)
        text = w.say("nothing", entry=facts.get("entry_name") or facts.get("name") or "?")
        rationale = [{"step": "operator_analysis", "title": titles["operator_analysis"], "text": text}]
    return {"task": w.task(), "rationale": rationale}


def _num(x: Any) -> str:
    """A number as the facts hold it: 12.0 -> 12, 0.001 -> 0.001 (so the gate finds the same value)."""
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return f"{x:g}" if isinstance(x, float) else str(x)


class _Writer:
    def __init__(self, facts: dict[str, Any], lang: str):
        self.f = facts
        self.lang = lang
        self.p = _phrases(lang)
        self.s = self.p["steps"]
        self.t = self.p["task"]
        self.d = facts.get("decisions") or {}
        self.claims = facts.get("claims") or {}

    # -- helpers -----------------------------------------------------------------------------------------------
    def join(self, sentences: list[str]) -> str:
        return ("" if self.lang == "zh" else " ").join(s for s in sentences if s)

    def listing(self, items: list[str]) -> str:
        items = [i for i in items if i]
        if len(items) <= 1:
            return "".join(items)
        return self.t["list_sep"].join(items[:-1]) + self.t["list_last"] + items[-1]

    def say(self, key: str, **values: Any) -> str:
        return self.s[key].format(**{k: _num(v) for k, v in values.items()})

    def apis(self) -> dict[str, int]:
        return self.f.get("apis") or {}

    def main_dtype(self) -> str | None:
        tensors = self.f.get("tensors") or []
        if tensors:
            return tensors[0]["dtype"]
        dtypes = self.f.get("dtypes") or []
        return dtypes[0] if len(dtypes) == 1 else None

    def tile(self) -> dict[str, Any] | None:
        return self.d.get("tile")

    # -- task --------------------------------------------------------------------------------------------------
    def task(self) -> str:
        """The exact statement's prose, or nothing: a unit whose semantics are not derived gets no vague task."""
        return statement_task(self.f, self.lang)

    # -- rationale steps ---------------------------------------------------------------------------------------
    def operator_analysis(self) -> list[str]:
        f, out = self.f, []
        form = (f.get("statement") or {}).get("form")
        if form:
            if form.get("reference_kind") == "numpy expression":
                for o in form.get("outputs") or []:
                    if o.get("reference"):
                        out.append(self.say("formula", out=o["name"], reference=o["reference"], source=form["source"]))
            else:
                sig = _SIGNATURE_RE.search(form.get("reference") or "")
                attrs = ", ".join(f"{k} = {_num(v)}" for k, v in (form.get("attrs") or {}).items())
                out.append(
                    self.say(
                        "reference_fn",
                        signature=f"{sig.group(1)}({', '.join(a.split(':')[0].strip() for a in sig.group(2).split(','))})"
                        if sig
                        else "reference",
                        source=form["source"],
                        attrs=self.say("reference_attrs", attrs=attrs) if attrs else "",
                    )
                )
        tensors = f.get("tensors") or []
        # the GM data types read from the code (never a `__gm__ uint8_t*` address)
        dtypes = self.say("works_on", dtypes=self.listing(f["dtypes"])) if f.get("dtypes") else ""
        ins = [t for t in tensors if t["role"] == "input"]
        outs = [t for t in tensors if t["role"] == "output"]
        if ins and outs:
            out.append(
                self.say(
                    "tensors",
                    inputs=self.listing(
                        [
                            self.say(
                                "tensor_in",
                                name=t["name"],
                                dtype=t["dtype"],
                                shape=t["shape"],
                                elements=t["elements"],
                                bytes=t.get("bytes", "?"),
                            )
                            for t in ins
                        ]
                    ),
                    outputs=self.listing(
                        [
                            self.say(
                                "tensor_out", name=t["name"], dtype=t["dtype"], shape=t["shape"], elements=t["elements"]
                            )
                            for t in outs
                        ]
                    ),
                    dtypes=dtypes,
                )
            )
        elif f.get("inputs") and f.get("outputs"):
            out.append(
                self.say(
                    "roles",
                    entry=f["entry_name"],
                    inputs=self.listing([f"`{x['name']}`" for x in f["inputs"]]),
                    outputs=self.listing([f"`{x['name']}`" for x in f["outputs"]]),
                    dtypes=dtypes,
                )
            )
        elif f.get("tensor_params"):
            out.append(
                self.say(
                    "params",
                    entry=f["entry_name"],
                    params=self.listing([f"`{p}`" for p in f["tensor_params"]]),
                    dtypes=dtypes,
                )
            )
        elif f.get("dtypes"):
            out.append(self.say("dtypes_only", entry=f["entry_name"], dtypes=self.listing(f["dtypes"])))
        calls = self.d.get("vector_calls") or []
        cube = [a for a in f.get("compute_apis") or [] if a in {"Mmad", "Matmul", "MatmulImpl", "LoadData"}]
        if f.get("uses_cube") and cube:
            staged = [p for p in f.get("positions") or [] if p.upper().startswith(("A1", "B1", "A2", "B2", "CO"))]
            positions = self.say("cube_positions", positions=self.listing(staged)) if staged else ""
            out.append(
                self.say(
                    "cube",
                    entry=f["entry_name"],
                    cube_apis=self.listing([f"`{a}`" for a in cube]),
                    positions=positions,
                )
            )
        elif calls and not form:
            first = {}
            for c in calls:
                first.setdefault(c["api"], c["line"])
            out.append(
                self.say(
                    "compute_calls",
                    calls=self.listing([self.say("plain_call", api=a, line=n) for a, n in list(first.items())[:5]]),
                )
            )
        elif not f.get("compute_apis"):
            moved = [f"`{a}`" for a in _MOVEMENT_APIS if a in self.apis()]
            if moved:
                out.append(self.say("no_compute", entry=f["entry_name"], movement=self.listing(moved)))
        return out

    def multi_core_split(self) -> list[str]:
        f = self.f
        simt = self.d.get("simt") or {}
        launch = simt.get("launch") or {}
        if simt.get("index") or simt.get("stride") or launch.get("total_threads"):
            # a SIMT kernel: the work is split over blocks of threads, not by a core-index offset
            out = []
            if simt.get("index"):
                out.append(
                    self.say("simt_index", entry=f["entry_name"], var=simt["index"]["var"], line=simt["index"]["line"])
                )
            else:
                out.append(self.say("simt_threads", entry=f["entry_name"]))
            if launch.get("total_threads"):
                out.append(
                    self.say(
                        "simt_launch",
                        blocks=launch["blocks"],
                        threads=launch["threads"],
                        total=launch["total_threads"],
                        line=launch["line"],
                    )
                )
            if simt.get("stride"):
                out.append(self.say("simt_stride", **simt["stride"]))
            return out
        block_dim = f.get("block_dim")
        split = self.d.get("split")
        sliced = self.claims.get("core_slice")
        if sliced:
            if split and split.get("per_core"):
                return [
                    self.say(
                        # a template uses what it names; a core's bytes only where the element size is known
                        ("split_even" if split.get("per_core_bytes") else "split_even_nobytes")
                        if split["remainder"] == 0
                        else "split_rem",
                        block_dim=split["block_dim"],
                        total=split["total_elements"],
                        per_core=split["per_core"],
                        per_core_bytes=split.get("per_core_bytes", "?"),
                        remainder=split["remainder"],
                        line=sliced["line"],
                    )
                ]
            how = self.say("split_how_known", block_dim=block_dim) if block_dim else self.s["split_how_host"]
            return [self.say("split_slice", line=sliced["line"], how=how)]
        if self.claims.get("reads_block_idx"):
            dim = self.say("split_single_dim", block_dim=block_dim) if block_dim else ""
            return [self.say("split_idx_only", line=self.claims["reads_block_idx"]["line"], dim=dim)]
        if block_dim:
            total = (split or {}).get("total_elements")
            what = self.say("what_total", total=total) if total else self.s["what_unknown"]
            names = [t["name"] for t in f.get("inputs") or []] or list(f.get("tensor_params") or [])
            data = self.say("data_named", names=self.listing([f"`{n}`" for n in names[:4]])) if names else ""
            if block_dim == 1:
                return [self.say("split_single_one", entry=f["entry_name"], data=data or self.s["data_all"])]
            return [
                self.say(
                    "split_single",
                    entry=f["entry_name"],
                    block_dim=block_dim,
                    what=what,
                    data=data or self.s["data_same"],
                )
            ]
        return []

    def ub_budget_and_tile(self) -> list[str]:
        out = []
        all_buffers = self.d.get("buffers") or []
        buffers = [b for b in all_buffers if b.get("memory", "UB") == "UB"]
        cube = []
        for b in [b for b in all_buffers if b.get("memory", "UB") != "UB"][:6]:
            size = (
                self.say("cube_size", count=b["count"], bytes=b["bytes"]) if b.get("bytes") and b.get("count") else ""
            )
            cube.append(
                self.say(
                    "cube_buffer", name=b["name"], position=b["position"], memory=b["memory"], size=size, line=b["line"]
                )
            )
        listed = []
        for b in buffers[:8]:
            where = f"{b['position']}, " if b.get("position") else ""
            if b.get("kind") == "ubuf_array" and b.get("elements"):
                listed.append(
                    self.say(
                        "buffer_array" if b.get("bytes") else "buffer_array_type",
                        name=b["name"],
                        elements=b["elements"],
                        type=b.get("dtype") or b["element_type"],
                        bytes=b.get("bytes"),
                        line=b["line"],
                    )
                )
            elif b.get("kind") == "LocalMemAllocator" and b.get("elements"):
                key = (
                    "buffer_alloc"
                    if b.get("bytes")
                    else "buffer_alloc_type"
                    if b.get("template_type")
                    else "buffer_alloc_other"
                )
                listed.append(
                    self.say(
                        key,
                        name=b["name"],
                        elements=b["elements"],
                        type=(b.get("dtype") if b.get("bytes") else None) or b["element_type"],
                        bytes=b.get("bytes"),
                        line=b["line"],
                    )
                )
            elif b.get("bytes") and b.get("count"):
                listed.append(
                    self.say("buffer", name=b["name"], where=where, count=b["count"], bytes=b["bytes"], line=b["line"])
                )
            else:
                listed.append(self.say("buffer_unknown", name=b["name"], where=where, line=b["line"]))
        if listed:
            out.append(self.say("buffers", buffers=self.listing(listed)))
        if cube:
            out.append(self.say("cube_buffers", buffers=self.listing(cube)))
        ub = self.d.get("ub")
        if ub and ub.get("capacity_bytes"):
            out.append(
                self.say(
                    "ub_total",
                    used=ub["used_bytes"],
                    percent=ub["percent"],
                    capacity=ub["capacity_bytes"],
                    soc=ub["soc"],
                )
            )
        elif ub:
            out.append(self.say("ub_total_nosoc", used=ub["used_bytes"]))
        tile, split = self.tile(), self.d.get("split") or {}
        if ub and ub.get("max_tile_elements") and tile:
            out.append(
                self.say(
                    "ub_why" if split.get("tiles_per_core") else "ub_why_nosplit",
                    per_elem=ub["bytes_per_tile_element"],
                    max_tile=ub["max_tile_elements"],
                    tile=tile["elements"],
                    per_core=split.get("per_core"),
                    tiles=split.get("tiles_per_core"),
                )
            )
        elif tile and not listed:
            out.append(self.say("ub_whole", tile=tile["elements"], dtype=self.main_dtype(), tile_bytes=tile["bytes"]))
        direct = (self.d.get("simt") or {}).get("direct_gm_lines")
        if direct and not all_buffers:
            lines = self.listing([str(n) for n in direct])
            out.append(
                self.say(
                    "simt_direct",
                    entry=self.f["entry_name"],
                    at=("line " if len(direct) == 1 else "lines ") + lines,
                    lines=lines,
                )
            )
        return out

    def pipeline(self) -> list[str]:
        f, apis, out = self.f, self.apis(), []
        methods = f.get("methods") or []
        stages = [m for m in _STAGES if m in methods]
        queue = [f"`{a}`" for a in _QUEUE_APIS if a in apis]
        queues = [b for b in self.d.get("buffers") or [] if b.get("kind") == "TQue"]
        if len(stages) == 3 and queue:
            # a name once, also when two kernel classes of the file declare the same queue
            ins = self.listing(
                list(dict.fromkeys(f"`{b['name']}`" for b in queues if (b.get("position") or "").endswith("IN")))[:4]
            )
            outs = self.listing(
                list(dict.fromkeys(f"`{b['name']}`" for b in queues if (b.get("position") or "").endswith("OUT")))[:4]
            )
            if ins and outs:
                carried = self.say("carried_both", ins=ins, outs=outs)
            elif ins or outs:
                carried = self.say("carried_in", ins=ins) if ins else self.say("carried_out", outs=outs)
            else:
                carried = self.s["carried_none"]
            loop = self.claims.get("process_loop")
            split, tile = self.d.get("split") or {}, self.tile()
            flow = " → ".join(stages)
            if "Process" in methods and loop:
                count = self.s["process_tiles"]
                if split.get("tiles_per_core") and tile and not split.get("tile_remainder"):
                    count = self.say("process_count", tiles=split["tiles_per_core"], tile=tile["elements"])
                out.append(
                    self.say(
                        "process_loop",
                        line=loop["line"],
                        count=count,
                        stages=flow,
                        carried=carried,
                        queue_apis=self.listing(queue),
                    )
                )
            elif "Process" in methods:
                out.append(self.say("process_once", stages=flow, carried=carried, queue_apis=self.listing(queue)))
        elif queue:
            out.append(self.say("no_stages", entry=f["entry_name"], queue_apis=self.listing(queue)))
        n = f.get("buffer_num")
        same = [b for b in queues if b.get("count") == n]
        names = self.listing(list(dict.fromkeys(f"`{b['name']}`" for b in same))[:6])
        if n and names:
            sizes = {b.get("bytes") for b in same}
            each = self.say("each_bytes", bytes=sizes.pop()) if len(sizes) == 1 and None not in sizes else ""
            clause = self.say("double" if n > 1 else "single", n=n, queues=names, each=each)
            end = "。" if self.lang == "zh" else "."
            if out:  # one sentence with the loop it serves: "...; BUFFER_NUM = 2 gives ..."
                out[-1] = out[-1].rstrip("。.") + ("；" if self.lang == "zh" else "; ") + clause + end
            else:
                out.append(clause + end)
        sync = self.d.get("sync") or []
        if sync:
            points = [self.say("sync_point", kind=x["kind"], what=x["what"], line=x["line"]) for x in sync[:4]]
            out.append(self.say("sync", points=self.listing(points)))
        return out

    def api_choice(self) -> list[str]:
        calls = [c for c in self.d.get("vector_calls") or [] if api_category(c["api"]) != "cube"]
        limited, runtime, plain, seen = [], [], [], set()
        groups: dict[tuple, list[int]] = {}  # the same call on the same count and dtype: one sentence, its lines
        for c in calls:
            if c.get("repeats"):
                groups.setdefault((c["api"], c["count"], c["dtype"], c["per_repeat"], c["repeats"]), []).append(
                    c["line"]
                )
            elif c["api"] not in seen:
                (plain if c.get("count") or c["args"] > 4 else runtime).append(
                    self.say("plain_call", api=c["api"], line=c["line"])
                )
            seen.add(c["api"])
        for (api, count, dtype, per_repeat, repeats), lines in groups.items():
            limited.append(
                self.say(
                    "repeat_call" if repeats <= 255 else "repeat_over",
                    api=api,
                    line=self.listing([str(n) for n in lines[:4]]),
                    at=("line " if len(lines) == 1 else "lines ") + self.listing([str(n) for n in lines[:4]]),
                    count=count,
                    per_repeat=per_repeat,
                    dtype=dtype,
                    repeats=repeats,
                    s="" if repeats == 1 else "s",
                )
            )
        out = []
        if limited:
            out.append(self.say("calls", calls="; ".join(limited[:4])))
        if runtime:
            key = "runtime_call" if len(runtime) == 1 else "runtime_calls"
            out.append(self.say(key, calls=self.listing(runtime[:5])))
        if plain:
            out.append(self.say("calls_more" if limited or runtime else "calls_plain", calls=self.listing(plain[:5])))
        cube = self.d.get("cube_calls") or []
        if cube:
            calls = self.listing([self.say("plain_call", api=c["api"], line=c["line"]) for c in cube])
            out.append(self.say("cube_calls", calls=calls))
        return out

    def tail_and_alignment(self) -> list[str]:
        apis, out = self.apis(), []
        tile, split = self.tile(), self.d.get("split") or {}
        dtype = self.main_dtype()
        tail = self.claims.get("tail_branch")
        exact = bool(
            tile and split.get("tiles_per_core") and not split.get("tile_remainder") and not split.get("remainder")
        )
        said_tail = False
        if "DataCopy" in apis and tile:
            if tile["bytes"] % 32 == 0:
                core = ""
                if split.get("per_core_bytes") and self.claims.get("core_slice") and split["per_core_bytes"] % 32 == 0:
                    core = self.say(
                        "core_blocks", per_core_bytes=split["per_core_bytes"], core_blocks=split["per_core_blocks"]
                    )
                tail_text = ""
                if exact and not tail:
                    tail_text = self.say(
                        "tail_exact", per_core=split["per_core"], tiles=split["tiles_per_core"], tile=tile["elements"]
                    )
                    said_tail = True
                out.append(
                    self.say(
                        "tile_aligned",
                        tile=tile["elements"],
                        dtype=dtype,
                        tile_bytes=tile["bytes"],
                        blocks=tile["blocks"],
                        core=core,
                        tail=tail_text,
                    )
                )
            else:
                out.append(self.say("tile_unaligned", tile=tile["elements"], dtype=dtype, tile_bytes=tile["bytes"]))
        elif split.get("per_core_bytes") and self.claims.get("core_slice") and split["per_core_bytes"] % 32 == 0:
            out.append(
                self.say(
                    "core_aligned",
                    per_core_bytes=split["per_core_bytes"],
                    core_blocks=split["per_core_blocks"],
                    line=self.claims["core_slice"]["line"],
                )
            )
        guard = (self.d.get("simt") or {}).get("guard")
        if guard:
            out.append(self.say("simt_guard", var=self.d["simt"]["index"]["var"], **guard))
        pads = self.d.get("pad_lines") or []
        if pads:
            lines = self.listing([str(n) for n in pads[:3]])
            out.append(self.say("pad", lines=lines, at=("line " if len(pads) == 1 else "lines ") + lines))
        if tail:
            out.append(self.say("tail", line=tail["line"]))
        elif said_tail:
            pass
        elif exact:
            out.append(
                self.say(
                    "no_tail_exact", per_core=split["per_core"], tiles=split["tiles_per_core"], tile=tile["elements"]
                )
            )
        elif tile and "DataCopy" in apis:
            out.append(self.s["no_tail"])
        return out

    def numerics(self) -> list[str]:
        out = []
        casts = self.d.get("casts") or []
        if casts:
            out.append(
                self.say(
                    "casts",
                    casts=self.listing([self.say("cast", line=c["line"], mode=c["round_mode"]) for c in casts[:4]]),
                )
            )
        dtype = self.main_dtype()
        if self.d.get("fp32_compute_line"):
            # "cast back" only when a Cast exists and an output has the input's data type (a matmul's float32 result
            # is not cast back)
            outs = [t["dtype"] for t in self.f.get("tensors") or [] if t["role"] == "output"]
            back = self.say("fp32_back", dtype=dtype) if casts and dtype in outs else ""
            out.append(self.say("fp32", dtype=dtype, line=self.d["fp32_compute_line"], back=back))
        return out

    def host_tiling(self) -> list[str]:
        f, out = self.f, []
        cube = self.d.get("cube_tiling")
        if cube:
            regist = self.say("cube_regist", line=cube["regist_line"]) if cube.get("regist_line") else ""
            out.append(self.say("cube_tiling", line=cube["line"], regist=regist))
        if f.get("tiling_fields"):
            macro = self.s["macro"] if f.get("reads_tiling_macro") else ""
            out.append(self.say("fields", fields=self.listing([f"`{x}`" for x in f["tiling_fields"]]), macro=macro))
            values = [f"{k} = {_num(v)}" for k, v in (f.get("tiling_values") or {}).items() if k in f["tiling_fields"]]
            if values:
                out.append(self.say("values", values=self.listing(values)))
        return out

    def verification(self) -> list[str]:
        v = self.f.get("verification")
        if not v or v.get("status") != "passed" or not v.get("backend"):
            return []
        seeds = v.get("seeds") or []
        seeds_text = self.say("seeds", seeds=self.listing([str(x) for x in seeds])) if seeds else ""
        checks = []
        for o in v.get("outputs") or []:
            if o.get("atol") == 0 and o.get("rtol") == 0:
                checks.append(self.say("output_exact", name=o["name"], dtype=o.get("dtype"), n=o["n"]))
            elif o.get("max_abs_err") is not None and o.get("atol") is not None:
                checks.append(
                    self.say(
                        "output_check",
                        name=o["name"],
                        dtype=o.get("dtype"),
                        n=o["n"],
                        atol=o["atol"],
                        rtol=o["rtol"],
                        err=o["max_abs_err"],
                    )
                )
        if not checks:
            cases = v.get("cases") or 0
            checks = [self.say("verified_cases", cases=cases, s="" if cases == 1 else "s")]
        soc = self.say("verified_soc", soc=v["soc"]) if v.get("soc") else ""
        return [self.say("verified", backend=v["backend"], soc=soc, seeds=seeds_text, checks="; ".join(checks))]
