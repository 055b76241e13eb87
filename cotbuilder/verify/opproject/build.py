"""Build an op project for the emulator the way its own build would, around a harness's main.

1. host: `op_host/*.cpp` + `data/op_describe_main.cpp` -> `describe`, run once: the OpDefs as JSON (what msOpGen
   reads). Built and described once per op (cached by the host sources' digest): a harness kind or a case added
   later reuses it.
2. the op: the one the harness names (its aclnn header, its binding's op), else the only one.
3. generated: `aclnn_<op>.h` / `.cpp` (`aclnn_gen.py`); the kernel source with its entry renamed and one prelude per
   dtype column (`kernel_glue.py`).
4. objects: every host TU, each kernel variant (with the precompiled emulator header and its prelude), the aclnn TU
   and the harness's own TUs are compiled separately (they cannot share one TU: host and kernel define the tiling
   struct each their way, kernel variants differ by macros); each object is cached by its inputs; then linked.

Every compiler run goes through `run` (the sandboxed step runner of the calling harness). A failure says where it
happened: `stage` host (op_host code or the shims), kernel, aclnn (the generated layer: cotbuilder's own bug),
opapi (the op's hand-written aclnn layer on the emulated op-api framework), harness (the example / test / binding),
link.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import posixpath
import re
import shutil
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...paths import emulator_dir, package_data
from .. import build as buildmod
from .. import core_builds, device_builtins
from . import aclnn_gen, host_targets, kernel_glue, layout, opapi, soc_config, tpl_dispatch

GEN_DIR = "cotbuilder_gen"
BUILTIN_ACLNN_DIR = "aclnnop"  # where CANN installs its built-in ops' aclnn headers
HARNESS_INCLUDE = emulator_dir() / "harness_include"
# forced into a hand-written aclnn layer's TUs: its own runtime copies of device memory are refused and reported
OPAPI_FORCED = ["-include", "impl/host/opapi_layer_guard.h"]
UNREGISTERED = "not registered by the host code"  # the op a harness names is not one the OpDef registers
Runner = Callable[[list[str], Path], Any]  # (argv, cwd) -> SandboxResult-like (ok, outcome, stdout, stderr, ...)


@dataclass
class OpBuild:
    ok: bool
    stage: str = ""  # where it failed: host | describe | kernel | aclnn | opapi | harness | link | layout
    log: str = ""
    outcome: str = "ok"  # the failing compiler run's sandbox outcome (timeout, limit, violation ...)
    reason: str = ""
    binary: bytes | None = None
    op: dict | None = None
    ops: list[dict] = field(default_factory=list)
    layout: layout.OpLayout | None = None
    variants: list[kernel_glue.KernelVariant] = field(default_factory=list)
    seconds: float = 0.0
    cached_objects: int = 0
    compiled_objects: int = 0
    host_pch_objects: int = 0  # host sources built with the host PCH (buildmod.HOST_PCH_NAME)
    host_pch_fallbacks: int = 0  # ... and those that did not build with it, built again without
    harness_pch_objects: int = 0  # generated sources built with the harness PCH (buildmod.HARNESS_PCH_NAME)
    harness_pch_fallbacks: int = 0  # ... and those that did not build with it, built again with the emulator's
    gap: str = ""  # a link that failed for want of a host source cotbuilder skipped (layout.unbuilt_definer)


def digest(parts: list[tuple[str, bytes]]) -> str:
    h = hashlib.sha256(buildmod.emulator_digest().encode())
    for name, data in sorted(parts):
        h.update(name.encode() + b"\0" + data + b"\0")
    return h.hexdigest()[:24]


def includable_files(files: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every file a compiler run can read through `#include`: all but the translation units no `#include` in the
    unit names (matched by file name, so a TU included from anywhere counts). A macro-named include could name any
    file, so then every file counts."""
    from ...parse import includes

    named: set[str] = set()
    for f in files:
        if f["path"].endswith(includes.SOURCE_SUFFIXES + includes.HEADER_SUFFIXES):
            if _MACRO_INCLUDE.search(f["text"]):
                return files
            named.update(posixpath.basename(name) for name, _ in includes.includes_of(f["text"]))
    return [
        f for f in files if not f["path"].endswith(includes.SOURCE_SUFFIXES) or posixpath.basename(f["path"]) in named
    ]


_MACRO_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[^\s<"]', re.M)


def include_dirs(unit: dict[str, Any], lay: layout.OpLayout) -> list[str]:
    """-I folders: the op's own (root, op_host, op_kernel, every folder with a header), then the folders that make
    the unit's `_deps/` includes resolve as written (`#include "foreach/x.h"` found at `_deps/src/common/inc/foreach/
    x.h` -> `_deps/src/common/inc`)."""
    from ...parse import includes

    dirs = list(lay.include_dirs)
    paths = [f["path"] for f in unit["files"]]
    tree = includes.Tree.of(paths)
    texts = {f["path"]: f["text"] for f in unit["files"] if f["path"].endswith((".h", ".hpp", ".cpp", ".cc", ".inc"))}
    for path, text in texts.items():
        for name, _ in includes.includes_of(text):
            hit = tree.resolve(path, name, tuple(d for d in dirs if d != "."))
            if hit is None or hit.startswith(posixpath.dirname(path) + "/" + name):
                continue
            norm = posixpath.normpath(name)
            if hit.endswith("/" + norm):
                base = hit[: -len(norm) - 1]
                if base and base not in dirs:
                    dirs.append(base)
    return dirs


class ObjectCache:
    """Compiled objects by key under cache/verify/objects/ (written atomically: parallel workers may share one)."""

    def __init__(self, root: Path, enabled: bool = True):
        self.root = root / "objects"
        self.enabled = enabled

    def get(self, key: str) -> bytes | None:
        path = self.root / key[:2] / (key + ".o")
        return path.read_bytes() if self.enabled and path.is_file() else None

    def put(self, key: str, data: bytes) -> None:
        if not self.enabled:
            return
        path = self.root / key[:2] / (key + ".o")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp{os.getpid()}.{threading.get_ident()}")
        tmp.write_bytes(data)
        os.replace(tmp, path)

    def get_text(self, key: str) -> str | None:
        path = self.root / key[:2] / (key + ".json")
        return path.read_text(encoding="utf-8") if self.enabled and path.is_file() else None

    def put_text(self, key: str, text: str) -> None:
        if not self.enabled:
            return
        path = self.root / key[:2] / (key + ".json")
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.tmp{os.getpid()}.{threading.get_ident()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)


def flags(soc: str, opt: str, dirs: list[str]) -> list[str]:
    base = buildmod.base_flags(soc, opt)
    return [*base, "-I", str(HARNESS_INCLUDE), "-I", GEN_DIR, *(x for d in dirs for x in ("-I", d))]


@dataclass
class Spec:
    """What the harness adds to the op: its sources (unit paths or generated files under GEN_DIR), forced includes
    per harness source, and the op it is about (None: the only op)."""

    sources: list[str]
    op_type: str | None = None
    generated: dict[str, str] = field(default_factory=dict)  # GEN_DIR-relative path -> text
    forced: dict[str, list[str]] = field(default_factory=dict)  # source -> headers to force-include (after the PCH)
    defines: list[str] = field(default_factory=list)  # -D for the harness TUs (e.g. BUILD_SOC_VERSION)
    # the input dtypes (GE codes, first instance of each IR input) the harness will call the op with: only the
    # kernel variants serving them are compiled (None: every dtype column of the OpDef)
    input_dtypes: list[list[int]] | None = None
    # sources that depend on the op's description (a generated main calling its aclnn API): op -> {name: text}
    generate: Callable[[dict], dict[str, str]] | None = None
    # generated sources that include no unit file (only the emulator's and harness headers): compiled apart from
    # the unit and shared by every unit that generates the same text (Builder._compile_shared)
    standalone: frozenset[str] = frozenset()
    # the op's hand-written aclnn layer the harness calls (opapi.py): built on the emulated op-api framework, and the
    # generated source only registers the kernel variants for its l0 launch
    opapi: opapi.OpApiLayer | None = None


LOG_KEEP = 20000


def kept_log(log: str, limit: int = LOG_KEEP) -> str:
    """A long compile log cut to `limit` characters keeping its head and its tail: g++'s first errors (which say
    what went wrong first, and which the status is decided from: an emulator gap named there) and the last lines
    (where the compiler stopped). The tail alone lost a Catlass kernel's first error under 20 kB of follow-ups."""
    if len(log) <= limit:
        return log
    head = limit * 2 // 5
    cut = f"\n[... {len(log) - limit} characters of the log cut ...]\n"
    return log[:head] + cut + log[-(limit - head) :]


def _first_error(log: str) -> str:
    for line in log.splitlines():
        if " error: " in line or "fatal error:" in line or "undefined reference" in line:
            return line.strip()[:300]
    return log.strip().splitlines()[-1][:300] if log.strip() else ""


class Builder:
    def __init__(
        self,
        unit: dict[str, Any],
        workdir: Path,
        run: Runner,
        cache: ObjectCache,
        soc: str,
        opt: str,
        pch: buildmod.Pch | None,
    ):
        self.unit, self.workdir, self.run, self.cache = unit, workdir, run, cache
        self.soc, self.opt, self.pch = soc, opt, pch
        self.lay = layout.layout(unit)
        # objects are keyed by the files they can see: an edit to the example or the kernel recompiles only that
        root = self.lay.root + "/" if self.lay and self.lay.root else ""
        host_files = [f for f in unit["files"] if f["path"].startswith((root + "op_host/", "_deps/"))]
        kernel_files = host_files + [f for f in unit["files"] if f["path"].startswith(root + "op_kernel/")]
        self.scope_keys = {
            "host": digest([(f["path"], f["text"].encode("utf-8", "surrogatepass")) for f in host_files]),
            "kernel": digest([(f["path"], f["text"].encode("utf-8", "surrogatepass")) for f in kernel_files]),
            "includable": digest(
                [(f["path"], f["text"].encode("utf-8", "surrogatepass")) for f in includable_files(unit["files"])]
            ),
        }
        self.dirs = include_dirs(unit, self.lay) if self.lay else []
        self.result = OpBuild(False, layout=self.lay)
        self._stopped_by = ""  # the sandbox's reason for stopping the last compiler run, if it stopped it
        self._host_pch: list[str] | None = None  # _host_pch_args, once known
        self._harness_pch: list[str] | None = None  # _harness_pch_args, once known

    # -- one compiler run, cached --------------------------------------------------------------------------------
    def _compile(
        self,
        source: str,
        out: str,
        extra: list[str],
        salt: str = "",
        scope: str = "includable",
        compiler: str = "g++",
    ) -> tuple[bool, str, str]:
        """`scope`: the files the object can see, its cache key - host, kernel, or includable (every file but the
        other translation units: a kernel fix does not rebuild the example's main). The source compiled is part of
        the key whatever the scope: a generated copy of a unit file is keyed by what it says."""
        argv = [compiler, *flags(self.soc, self.opt, self.dirs), *self._runtime_define(), *extra, "-c", source]
        argv += ["-o", out]
        text = (self.workdir / source).read_bytes()
        seen = self.scope_keys[scope] + hashlib.sha256(source.encode() + b"\0" + text).hexdigest()
        cut = argv.index("-c")
        host_pch = self._host_pch_args() if scope == "host" and not extra else []
        ok, log, outcome = self._faster_first(
            "host",
            host_pch,
            [],
            lambda pch: self._cached_run([*argv[:cut], *pch, *argv[cut:]], self.workdir, out, seen, salt),
        )
        if not ok and scope == "kernel" and device_builtins.missing(log):  # the device compiler's min / max
            ok, log, outcome = self._cached_run(device_builtins.with_builtins(argv), self.workdir, out, seen, salt)
        return ok, log, outcome

    def _compile_shared(
        self, source: str, text: str, out: str, extra: list[str] | None = None, files: dict[str, str] | None = None
    ) -> tuple[bool, str, str]:
        """A source of cotbuilder's own that reads no file of the unit (the describe main, the aclnn layer, the
        benchmark binding's main): compiled in a fresh dir that holds only it and the generated `files` it includes
        (no unit folder on the include path, no unit file beside it to shadow a header), cached by those texts, so
        one object serves every unit that generates the same text - a kernel edit or another sampled answer to the
        same op does not recompile it."""
        where = Path(tempfile.mkdtemp(prefix="shared-", dir=self.workdir.parent))
        where.chmod(0o755)  # as every step dir (steps.fresh_dir)
        written = {source: text, **(files or {})}
        for name, body in written.items():
            (where / name).parent.mkdir(parents=True, exist_ok=True)
            (where / name).write_text(body, encoding="utf-8")
        (where / out).parent.mkdir(parents=True, exist_ok=True)
        argv = ["g++", *flags(self.soc, self.opt, []), *self._runtime_define(), *(extra or []), "-c", source]
        argv += ["-o", out]
        seen = digest([(name, body.encode("utf-8", "surrogatepass")) for name, body in sorted(written.items())])
        ok, log, outcome = self._cached_run(argv, where, out, seen, "shared")
        if ok:
            (self.workdir / out).parent.mkdir(parents=True, exist_ok=True)
            (self.workdir / out).write_bytes((where / out).read_bytes())
        shutil.rmtree(where, ignore_errors=True)
        return ok, log, outcome

    def _cached_run(self, argv: list[str], where: Path, out: str, seen: str, salt: str) -> tuple[bool, str, str]:
        portable = "\0".join(buildmod.portable_args(argv))
        key = digest([("files", seen.encode()), ("argv", portable.encode()), ("salt", salt.encode())])
        cached = self.cache.get(key)
        if cached is not None:
            (where / out).write_bytes(cached)
            self.result.cached_objects += 1
            return True, "", "ok"
        res = self.run(argv, where)
        self.result.compiled_objects += 1
        log = (res.stderr + res.stdout).strip()
        self._stopped_by = res.reason if res.outcome not in ("ok", "exit") else ""
        path = where / out
        if res.ok and path.is_file():
            self.cache.put(key, path.read_bytes())
            return True, log, "ok"
        return False, log, res.outcome

    def _fail(self, stage: str, log: str, outcome: str = "exit", reason: str = "") -> OpBuild:
        self.result.ok = False
        self.result.stage = stage
        self.result.log = kept_log(log)
        self.result.outcome = outcome
        # a run the sandbox stopped (a limit, a violation) is described by the sandbox, not by the log it cut short
        self.result.reason = reason or (self._stopped_by if outcome not in ("ok", "exit") else "") or _first_error(log)
        return self.result

    def _pch_args(self) -> list[str]:
        return ["-include", str(self.pch.header)] if self.pch is not None and self.pch.header is not None else []

    def _harness_pch_args(self) -> list[str]:
        """For cotbuilder's own generated sources: the harness PCH (the emulator's plus the host runtime and ACL they
        include), else the emulator's - decided once per build (ensure_harness_pch looks at the cache)."""
        if self._harness_pch is None:
            header = buildmod.ensure_harness_pch(self.pch)
            self._harness_pch = ["-include", str(header)] if header is not None else self._pch_args()
        return self._harness_pch

    def _generated_compile(self, compile_with: Callable[[list[str]], tuple[bool, str, str]]) -> tuple[bool, str, str]:
        """A generated source compiled with `compile_with(pch args)`: the harness PCH first, the emulator's after."""
        return self._faster_first("harness", self._harness_pch_args(), self._pch_args(), compile_with)

    def _faster_first(
        self, kind: str, fast: list[str], plain: list[str], compile_with: Callable[[list[str]], tuple[bool, str, str]]
    ) -> tuple[bool, str, str]:
        """`compile_with(fast)` where a faster header applies (the `kind` = host or harness PCH), and where that fails
        `compile_with(plain)`, which is then the judged run: the faster header only saves time, it never decides a
        verdict. Counted in the result's <kind>_pch_objects / <kind>_pch_fallbacks."""
        if fast != plain:
            ok, log, outcome = compile_with(fast)
            if ok or outcome not in ("ok", "exit"):  # a sandbox stop is the verdict either way
                setattr(self.result, f"{kind}_pch_objects", getattr(self.result, f"{kind}_pch_objects") + ok)
                return ok, log, outcome
            setattr(self.result, f"{kind}_pch_fallbacks", getattr(self.result, f"{kind}_pch_fallbacks") + 1)
        return compile_with(plain)

    def _host_pch_args(self) -> list[str]:
        if self._host_pch is None:  # the same for every host source of the unit: decided once
            self._host_pch = self.pch.host_flags([f["path"] for f in self.unit["files"]]) if self.pch else []
        return self._host_pch

    def _kernel_header_args(self, kernel_texts: list[str]) -> list[str]:
        """The emulator headers a kernel TU is compiled with, for all three kernel builds (the ordinary one, one per
        core type in core_builds.compile_split, the kernel UT's): the precompiled header, or - when the kernel defines
        a name the emulator declares for newer toolkits (kernel_glue.NEWER_APIS) - the headers parsed afresh without
        the emulator's declaration of it (-DCBEMU_HIDE_<name>, no PCH: the .gch was built with every name)."""
        return kernel_glue.hide_flags(kernel_glue.own_newer_apis(kernel_texts)) or self._pch_args()

    # With the prebuilt emulator runtime, every object of a program declares it (host TUs too: their shims report
    # diagnostics and allocate GM through it) and every link adds the one object that defines it.
    def _runtime_define(self) -> list[str]:
        return [buildmod.PREBUILT_DEFINE] if self.pch is not None and self.pch.objects() else []

    def _link(self, objs: list[str], binary: str, extra: tuple[str, ...] = ()) -> Any:
        runtime = self.pch.objects() if self.pch is not None else []
        res = self.run(["g++", "-pthread", *extra, *objs, *runtime, "-o", binary], self.workdir)
        if not res.ok and self.lay is not None:
            # one copy per library in the real build (host_targets.py): keep the first, as each library does
            sources = {f"{GEN_DIR}/host_{i}.o": src for i, src in enumerate(self.lay.host_sources)}
            targets = host_targets.source_targets(self.unit, self.lay.root)
            if host_targets.only_across_libraries(res.stderr + res.stdout, sources, targets):
                again = ("-Wl,--allow-multiple-definition", *extra)
                res = self.run(["g++", "-pthread", *again, *objs, *runtime, "-o", binary], self.workdir)
        self.result.gap = ""
        if not res.ok and self.lay is not None:
            log = res.stderr + res.stdout
            self.result.gap = layout.unbuilt_definer(log, self.lay.skipped_host, self._text) or layout.shared_declarer(
                log, [f["path"] for f in self.unit["files"]], self._text
            )
        return res

    # -- the steps ------------------------------------------------------------------------------------------------
    def describe(self) -> list[dict] | None:
        """Build and run the host side's description (cached per op: the host sources' digest)."""
        lay = self.lay
        host_texts = [(p, self._text(p).encode("utf-8", "surrogatepass")) for p in lay.host_sources]
        key = digest(
            [
                *host_texts,
                ("describe", package_data("verify/data/op_describe_main.cpp").read_bytes()),
                ("libraries", repr(sorted(host_targets.source_targets(self.unit, lay.root).items())).encode()),
                ("dirs", "\0".join(self.dirs).encode()),
            ]
        )
        cached = self.cache.get_text(key)
        if cached is not None:
            return [soc_config.for_soc(op, self.soc) for op in json.loads(cached)["ops"]]
        objs = []
        (self.workdir / GEN_DIR).mkdir(parents=True, exist_ok=True)
        for i, src in enumerate(lay.host_sources):
            out = f"{GEN_DIR}/host_{i}.o"
            ok, log, outcome = self._compile(src, out, [], salt="host", scope="host")
            if not ok:
                self._fail("host", log, outcome)
                return None
            objs.append(out)
        main = f"{GEN_DIR}/op_describe_main.cpp"
        text = package_data("verify/data/op_describe_main.cpp").read_text(encoding="utf-8")
        ok, log, outcome = self._compile_shared(main, text, f"{GEN_DIR}/describe_main.o", self._host_pch_args())
        if not ok:
            self._fail("host", log, outcome)
            return None
        objs.append(f"{GEN_DIR}/describe_main.o")
        res = self._link(objs, f"{GEN_DIR}/describe")
        if not res.ok:
            self._fail("host", (res.stderr + res.stdout), res.outcome)
            return None
        run = self.run([f"./{GEN_DIR}/describe"], self.workdir)
        if not run.ok:
            self._fail(
                "describe",
                run.stderr + run.stdout,
                run.outcome,
                "the op's host code crashed while registering its OpDef",
            )
            return None
        try:
            ops = json.loads(run.stdout)["ops"]
        except (ValueError, KeyError):
            self._fail("describe", run.stdout[-2000:], "exit", "the OpDef description is not valid JSON")
            return None
        self.cache.put_text(key, json.dumps({"ops": ops}))
        return [soc_config.for_soc(op, self.soc) for op in ops]

    def build(self, spec: Spec, binary: str) -> OpBuild:
        lay = self.lay
        if lay is None or not lay.entries:
            return self._fail("layout", "", reason="no op_kernel entry found")
        ops = self.describe()
        if ops is None:
            return self.result
        self.result.ops = ops
        op = _pick(ops, spec.op_type)
        if op is None:
            names = ", ".join(o["type"] for o in ops) or "none"
            return self._fail("layout", "", reason=f"op {spec.op_type or '?'} {UNREGISTERED} (has: {names})")
        self.result.op = op
        entry = lay.entry_for(op["type"])
        if entry is None:
            return self._fail("layout", "", reason=f"no kernel entry for op {op['type']}")
        kernel_text = self._text(entry.path)
        kernel_texts = (
            [self._text(p) for p in lay.kernel_sources]
            + [
                f["text"]
                for f in self.unit["files"]
                if f["path"].startswith(_join(lay.root, "op_kernel/"))
                # kernel code shared by an op family (a foreach op's _deps/.../op_kernel/*.h names the family's struct)
                or (f["path"].startswith(layout.DEPS) and "op_kernel" in f["path"].split("/")[:-1])
            ]
        )
        tiling_headers = {p: self._text(p) for p in lay.tiling_headers}
        unit_paths = frozenset(f["path"] for f in self.unit["files"])
        variants = kernel_glue.variants(op, kernel_texts, tiling_headers, kernel_text, entry.path, unit_paths)
        if spec.input_dtypes is not None:
            wanted = [v for v in variants if _serves(v.dtypes, len(op["inputs"]), spec.input_dtypes)]
            variants = wanted or variants
        self.result.variants = variants
        try:
            header = aclnn_gen.generate_header(op)
            source = aclnn_gen.generate_source(
                op,
                entry.n_params,
                [aclnn_gen.Variant(v.symbol, v.dtypes) for v in variants],
                register_only=spec.opapi is not None,
            )
        except aclnn_gen.Unsupported as exc:
            return self._fail("aclnn", "", "exit", f"aclnn layer: {exc}")
        if spec.opapi is None:  # a hand-written layer's own header must not be shadowed by a generated one
            self._write(f"{GEN_DIR}/{aclnn_gen.header_name(op['type'])}", header)
            # an op CANN also ships built in (cann-ops' foreach_*, cast, arange): its example includes the built-in
            # API's header, aclnnop/aclnn_<op>.h; msOpGen makes that API from the same OpDef, so the generated one
            # stands in (where the built-in API differs, the harness build fails and harness_aclnn names it)
            self._write(f"{GEN_DIR}/{BUILTIN_ACLNN_DIR}/{aclnn_gen.header_name(op['type'])}", header)
        self._write(f"{GEN_DIR}/aclnn_impl.cpp", source)
        kernel_copy = posixpath.join(
            posixpath.dirname(entry.path), f"cotbuilder_kernel_{posixpath.basename(entry.path)}"
        )
        self._write(kernel_copy, kernel_glue.rewrite_entry(kernel_text, entry), unit_relative=True)
        if spec.generate is not None:
            try:
                spec.generated.update(spec.generate(op))
            except (ValueError, KeyError, TypeError) as exc:
                return self._fail("harness", "", "exit", f"cannot generate the harness for op {op['type']}: {exc}")
        for name, text in spec.generated.items():
            self._write(f"{GEN_DIR}/{name}", text)

        objs: list[str] = []
        for i, src in enumerate(lay.host_sources):
            ok, log, outcome = self._compile(src, f"{GEN_DIR}/host_{i}.o", [], salt="host", scope="host")
            if not ok:
                return self._fail("host", log, outcome)
            objs.append(f"{GEN_DIR}/host_{i}.o")
        split = core_builds.needs_core_builds(kernel_texts)  # one build per core type (core_builds.py)
        vector_builds: list[str] = []
        header_args = self._kernel_header_args(kernel_texts)  # the same for every variant: scanned once
        for v in variants:
            prelude = f"{GEN_DIR}/kernel_prelude_{v.index}.h"
            self._write(prelude, v.prelude)
            # every variant after the first gets names of its own (core_builds.own_names); one variant built alone
            # (the example's dtypes pick the OpDef's second column) keeps its names: there is nothing to tell apart
            prefix = f"cbemu_v{v.index}_" if v.index > 0 and len(variants) > 1 else ""
            if split:
                both = core_builds.compile_split(
                    self, kernel_copy, prelude, v.symbol, v.index, kernel_texts, prefix, header_args
                )
                if both.objects is None:
                    return self._fail("kernel", both.log, both.outcome)
                objs += both.objects
                vector_builds.append(both.objects[1])
                continue
            out = f"{GEN_DIR}/kernel_{v.index}.o"
            ok, log, outcome = self._compile(
                kernel_copy,
                out,
                [*header_args, "-include", prelude],
                salt=v.prelude,
                scope="kernel",
            )
            if not ok:
                return self._fail("kernel", log, outcome)
            if prefix:
                out, log, outcome = core_builds.own_names(self, out, prefix, frozenset({v.symbol}))
                if out is None:
                    return self._fail("kernel", log, outcome)
            objs.append(out)
        for i, src in enumerate(spec.opapi.sources if spec.opapi else []):
            ok, log, outcome = self._compile(src, f"{GEN_DIR}/opapi_{i}.o", OPAPI_FORCED, salt="opapi", scope="host")
            if not ok:
                return self._fail("opapi", log, outcome)
            objs.append(f"{GEN_DIR}/opapi_{i}.o")
        # what a standalone source may be forced to include
        made_headers = {aclnn_gen.header_name(op["type"]): header} if spec.opapi is None else {}
        ok, log, outcome = self._generated_compile(
            lambda pch_args: self._compile_shared(
                f"{GEN_DIR}/aclnn_impl.cpp",
                source,
                f"{GEN_DIR}/aclnn.o",
                pch_args,
                {f"{GEN_DIR}/{h}": text for h, text in made_headers.items()},
            )
        )
        if not ok:
            return self._fail("aclnn", log, outcome)
        objs.append(f"{GEN_DIR}/aclnn.o")
        for i, src in enumerate(spec.sources):
            out = f"{GEN_DIR}/harness_{i}.o"
            compile_harness = functools.partial(self._compile_harness, spec, src, out, made_headers)
            generated = src in spec.generated and not (self.workdir / src).is_file()
            ok, log, outcome = (
                self._generated_compile(compile_harness) if generated else compile_harness(self._pch_args())
            )
            if not ok:
                return self._fail("harness", log, outcome)
            objs.append(out)
        res = self._link(objs, binary)
        stubs = opapi.builtin_stubs(res.stderr + res.stdout) if spec.opapi and not res.ok else None
        if stubs:  # built-in l0 ops the hand-written layer names: stubs that stop the run as unsupported if called
            ok, log, outcome = self._compile_shared(f"{GEN_DIR}/opapi_stubs.cpp", stubs, f"{GEN_DIR}/opapi_stubs.o")
            if not ok:
                return self._fail("opapi", log, outcome)
            objs.append(f"{GEN_DIR}/opapi_stubs.o")
            res = self._link(objs, binary)
        if vector_builds and not res.ok and core_builds.undefined_symbols(res.stderr + res.stdout):
            # a vector build that calls what only the cube build defines: the kernel is the cube build's alone
            # (the device compiler types a kernel with an empty vector side AIC-only)
            res = self._link([o for o in objs if o not in vector_builds], binary)
        if not res.ok or not (self.workdir / binary).is_file():
            return self._fail("link", res.stderr + res.stdout, res.outcome)
        self.result.ok = True
        self.result.binary = (self.workdir / binary).read_bytes()
        return self.result

    # -- a kernel unit test ---------------------------------------------------------------------------------------
    def build_ut(self, test_path: str, helpers: list[str], kernel_defines: list[str], binary: str) -> OpBuild:
        """The repo's kernel UT as its CMake builds it: the test, its helpers, the op's host code, the kernel under
        the name the test declares (a tiling-template kernel behind a key dispatch), a gtest main if the test has
        none, and system() wrapped (ut_support.cpp)."""
        lay = self.lay
        if lay is None or not lay.entries:
            return self._fail("layout", "", reason="no op_kernel entry found")
        test_text = self._text(test_path)
        if arch35 := re.search(r'#\s*include\s*[<"]([^">]*\barch35/[^">]*)[">]', test_text):
            return self._fail(
                "layout",
                "",
                reason=f"the test builds the arch35 kernel ({arch35.group(1)}): the Ascend 950 register-based "
                "path is not modelled",
            )
        ops = self.describe()
        if ops is None:
            return self.result
        self.result.ops = ops
        wanted = re.findall(r"\bICPU_RUN_KF\s*\(\s*(\w+)", test_text)
        entry = next((e for e in lay.entries if e.name in wanted), None) or (
            lay.entries[0] if len(lay.entries) == 1 else None
        )
        if entry is None:
            return self._fail(
                "layout",
                "",
                reason=f"the test launches {', '.join(sorted(set(wanted))) or 'no kernel'}: not an entry of the op",
            )
        op = next(
            (o for o in ops if aclnn_gen.snake(o["type"]).replace("_", "") == entry.name.replace("_", "").lower()), None
        )
        op = op or (ops[0] if len(ops) == 1 else None)
        self.result.op = op
        soc = buildmod_arch(self.soc)
        kernel_headers = self._kernel_header_args(self._kernel_texts())  # scanned once, for the kernel and its test
        # __CCE_KT_TEST__: the CPU-debug (tikicpulib) build's mark, which UT headers test to pick CPU code over
        # device code (`#ifdef __CCE_KT_TEST__ #define __aicore__ #else #define __aicore__ [aicore]`)
        defs = [f"-DBUILD_SOC_VERSION={self.soc}", f"-D__NPU_ARCH__={soc}", "-D__CCE_KT_TEST__=1"]
        objs: list[str] = []
        # The repo's UT CMake (cmake/ut.cmake, AddOpTestCase) compiles the kernel and the test with
        # `-include <test dir>/<op>_tiling.h` when the test folder has one, else with the tiling header it generates
        # from the host's BEGIN_TILING_DATA_DEF (the structs as plain global types).
        ut_tiling = _ut_tiling_header(self.unit, test_path, entry.name)
        forced_tiling = ["-include", ut_tiling] if ut_tiling else []
        includes_kernel = posixpath.basename(entry.path) in test_text and re.search(
            r'#\s*include\s*"[^"]*' + re.escape(posixpath.basename(entry.path)) + '"', test_text
        )
        if not includes_kernel:
            kernel_text = self._text(entry.path)
            copy = posixpath.join(posixpath.dirname(entry.path), f"cotbuilder_ut_{posixpath.basename(entry.path)}")
            if entry.is_template:
                described = self._describe_tpl()
                if described is None:
                    return self.result
                try:
                    dispatch = tpl_dispatch.dispatcher(
                        f"cotbuilder_tpl_{entry.name}",
                        entry.name,
                        entry.n_params,
                        entry.template_params,
                        described,
                        extern_c=True,
                    )
                except ValueError as exc:
                    return self._fail("kernel", "", reason=f"template kernel: {exc}")
                kernel_text = (
                    tpl_dispatch.rename_template(kernel_text, entry.name, f"cotbuilder_tpl_{entry.name}") + dispatch
                )
            self._write(copy, kernel_text)
            lines = self._ut_prelude(op, entry, kernel_text, kernel_defines, ut_tiling)
            prelude = f"{GEN_DIR}/ut_kernel_prelude.h"
            self._write(prelude, "\n".join(lines) + "\n")
            ok, log, outcome = self._compile(
                copy,
                f"{GEN_DIR}/ut_kernel.o",
                [*kernel_headers, *defs, "-include", prelude, *forced_tiling],
                salt="\n".join(lines) + "\0".join(forced_tiling),
            )
            if not ok:
                return self._fail("kernel", log, outcome)
            objs.append(f"{GEN_DIR}/ut_kernel.o")
        for i, src in enumerate(lay.host_sources):
            ok, log, outcome = self._compile(src, f"{GEN_DIR}/host_{i}.o", [], salt="host", scope="host")
            if not ok:
                return self._fail("host", log, outcome)
            objs.append(f"{GEN_DIR}/host_{i}.o")
        own = [test_path, *(h for h in helpers if h not in lay.host_sources)]
        texts = [self._text(p) for p in own]
        generated = {"ut_support.cpp": package_data("verify/data/ut_support.cpp").read_text(encoding="utf-8")}
        if not any(re.search(r"\bint\s+main\s*\(", t) for t in texts):
            generated["gtest_main.cpp"] = package_data("verify/data/gtest_main.cpp").read_text(encoding="utf-8")
        for name, text in generated.items():
            self._write(f"{GEN_DIR}/{name}", text)
        test_forced = forced_tiling
        if includes_kernel:
            # the test #includes the kernel source: it is the kernel's TU and gets what the kernel TU gets (its
            # CMake's DTYPE_* options, the tiling structs)
            lines = self._ut_prelude(op, entry, self._text(entry.path), kernel_defines, ut_tiling)
            self._write(f"{GEN_DIR}/ut_test_prelude.h", "\n".join(lines) + "\n")
            test_forced = ["-include", f"{GEN_DIR}/ut_test_prelude.h", *forced_tiling]
        elif not ut_tiling and op is not None:
            lines = self._ut_test_prelude(op, test_text)
            if lines:
                self._write(f"{GEN_DIR}/ut_test_prelude.h", "\n".join(lines) + "\n")
                test_forced = ["-include", f"{GEN_DIR}/ut_test_prelude.h"]
        for i, src in enumerate([*own, *(f"{GEN_DIR}/{n}" for n in generated)]):
            # a test that #includes the kernel source is the kernel's TU: it gets the kernel's headers too
            headers = kernel_headers if src == test_path and includes_kernel else self._pch_args()
            extra = [*headers, *defs, *(test_forced if src == test_path else [])]
            salt = "ut" + ("\0".join(test_forced) + self._forced_text(test_forced) if src == test_path else "")
            ok, log, outcome = self._compile(src, f"{GEN_DIR}/ut_{i}.o", extra, salt=salt)
            if not ok:
                return self._fail("harness", log, outcome)
            objs.append(f"{GEN_DIR}/ut_{i}.o")
        res = self._link(objs, binary, ("-Wl,--wrap=system",))
        if not res.ok or not (self.workdir / binary).is_file():
            return self._fail("link", res.stderr + res.stdout, res.outcome)
        self.result.ok = True
        self.result.binary = (self.workdir / binary).read_bytes()
        return self.result

    def _compile_harness(
        self, spec: Spec, src: str, out: str, made_headers: dict[str, str], pch_args: list[str]
    ) -> tuple[bool, str, str]:
        forced = spec.forced.get(src, [])
        extra = [*pch_args, *(f"-D{d}" for d in spec.defines), *(x for h in forced for x in ("-include", h))]
        if src in spec.standalone and all(h in made_headers for h in forced):
            # with the generated headers forced into it; a source that fails alone (it includes a file of the unit
            # after all) is compiled beside the unit below, which also gives its error log
            headers = {f"{GEN_DIR}/{h}": made_headers[h] for h in forced}
            ok, log, outcome = self._compile_shared(f"{GEN_DIR}/{src}", spec.generated[src], out, extra, headers)
            if ok:
                return ok, log, outcome
        src_path = src if (self.workdir / src).is_file() else f"{GEN_DIR}/{src}"
        # the generated aclnn headers it may include exist only without a hand-written layer: part of the key
        salt = spec.generated.get(src, "") + "\0".join(forced) + ("\0opapi" if spec.opapi else "\0generated")
        return self._compile(src_path, out, extra, salt=salt)

    def _ut_prelude(
        self,
        op: dict | None,
        entry: layout.Entry,
        kernel_text: str,
        kernel_defines: list[str],
        ut_tiling: str | None = None,
    ) -> list[str]:
        """What the UT build gives the kernel TU: the op's tiling struct (as the op build would; not when the test
        folder's own `<op>_tiling.h` is forced in instead), the DTYPE_* its CMake passes (else the OpDef's first
        dtype column, when the kernel reads them); CPU-debug semantics kept."""
        lay = self.lay
        lines: list[str] = []
        if op is not None:
            kernel_texts = self._kernel_texts()
            headers = {} if ut_tiling else {p: self._text(p) for p in lay.tiling_headers}
            first = kernel_glue.variants(op, kernel_texts, headers, kernel_text)[0]
            for ln in first.prelude.splitlines():
                if ln.startswith(("#define COTBUILDER_ENTRY", "#undef ASSERT", "#define ASSERT")):
                    continue
                if ut_tiling and "COTBUILDER_TILING_TYPE" in ln:
                    continue
                if kernel_defines and ln.startswith(("#define DTYPE_", "#define ORIG_DTYPE_")):
                    continue
                lines.append(ln)
        lines += [f"#define {d.split('=')[0]} {d.split('=', 1)[1]}" for d in kernel_defines]
        return lines

    def _kernel_texts(self) -> list[str]:
        """Every kernel source and every file under op_kernel/ (a tiling struct is often named in a header only)."""
        lay = self.lay
        return [self._text(p) for p in lay.kernel_sources] + [
            f["text"] for f in self.unit["files"] if f["path"].startswith(_join(lay.root, "op_kernel/"))
        ]

    def _ut_test_prelude(self, op: dict, test_text: str) -> list[str]:
        """The generated `<op>_tiling_data.h` the UT CMake forces into the test: the host tiling headers (before the
        test's own lines, so also those it includes itself: their guards make that a no-op), and the tiling structs
        it names bare lifted out of namespace optiling."""
        headers = {p: self._text(p) for p in self.lay.tiling_headers}
        lifted = kernel_glue.structs_to_lift(headers, [test_text])
        if not lifted:
            return []
        lines = ["// Generated by cotbuilder verify: the tiling structs the UT build gives the test."]
        lines += [f'#include "{p}"' for p in headers]
        lines += [f"using optiling::{name};" for name in lifted]
        return lines

    def _forced_text(self, forced: list[str]) -> str:
        return "".join((self.workdir / p).read_text(encoding="utf-8", errors="replace") for p in forced[1::2])

    def _describe_tpl(self) -> dict | None:
        texts = {f["path"]: f["text"] for f in self.unit["files"]}
        headers = tpl_dispatch.tpl_headers(texts)
        if not headers:
            self._fail("kernel", "", reason="template kernel without ASCENDC_TPL_SEL: no instance to launch")
            return None
        main = f"{GEN_DIR}/tpl_describe_main.cpp"
        self._write(main, package_data("verify/data/tpl_describe_main.cpp").read_text(encoding="utf-8"))
        defines = [f'-DCOTBUILDER_TPL_HEADER="{headers[0]}"', f"-D__NPU_ARCH__={buildmod_arch(self.soc)}"]
        if namespace := tpl_dispatch.tpl_namespace(texts[headers[0]]):
            defines.append(f"-DCOTBUILDER_TPL_NAMESPACE={namespace}")
        ok, log, outcome = self._compile(
            main, f"{GEN_DIR}/tpl_describe.o", defines, salt=headers[0] + (namespace or "")
        )
        if not ok:
            self._fail("kernel", log, outcome, "the tiling-template declaration does not build on the host")
            return None
        res = self._link([f"{GEN_DIR}/tpl_describe.o"], f"{GEN_DIR}/tpl_describe")
        run = self.run([f"./{GEN_DIR}/tpl_describe"], self.workdir) if res.ok else res
        if not run.ok:
            self._fail("kernel", run.stderr + run.stdout, run.outcome, "the tiling-template declaration did not run")
            return None
        try:
            return json.loads(run.stdout)
        except ValueError:
            self._fail("kernel", run.stdout[-2000:], "exit", "tiling-template description is not JSON")
            return None

    # -- helpers --------------------------------------------------------------------------------------------------
    def _text(self, path: str) -> str:
        for f in self.unit["files"]:
            if f["path"] == path:
                return f["text"]
        return (self.workdir / path).read_text(encoding="utf-8", errors="replace")

    def _write(self, rel: str, text: str, unit_relative: bool = False) -> None:
        path = self.workdir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _ut_tiling_header(unit: dict[str, Any], test_path: str, entry_name: str) -> str | None:
    """`<test dir>/<op>_tiling.h` when the test folder has one (op = AddOpTestCase's first argument in the folder's
    CMakeLists.txt, else the kernel entry's name)."""
    folder = posixpath.dirname(test_path)
    names = [entry_name]
    for f in unit["files"]:
        if f["path"] == f"{folder}/CMakeLists.txt":
            names = re.findall(r"AddOpTestCase\s*\(\s*(\w+)", f["text"]) + names
    paths = {f["path"] for f in unit["files"]}
    for name in names:
        if f"{folder}/{name}_tiling.h" in paths:
            return f"{folder}/{name}_tiling.h"
    return None


def buildmod_arch(soc: str) -> int:
    """__NPU_ARCH__ of the SoC (socs.toml: dav-2201 -> 2201)."""
    import tomllib

    socs = tomllib.loads(package_data("verify/data/socs.toml").read_text(encoding="utf-8"))
    arch = socs.get(soc, {}).get("npu_arch", "dav-2201")
    return int(arch.split("-")[-1])


def _serves(column: list[int], n_inputs: int, wanted: list[list[int]]) -> bool:
    """Whether a kernel variant's dtype column covers one of the harness's input dtype combinations."""
    if not column:
        return True
    for combo in wanted:
        if all(i >= n_inputs or column[i] < 0 or c < 0 or column[i] == c for i, c in enumerate(combo)):
            return True
    return False


def _join(root: str, rest: str) -> str:
    return f"{root}/{rest}" if root else rest


def _pick(ops: list[dict], want: str | None) -> dict | None:
    if want:
        norm = want.replace("_", "").lower()
        for o in ops:
            if o["type"].replace("_", "").lower() == norm:
                return o
        return None
    return ops[0] if len(ops) == 1 else None


def aclnn_headers_included(text: str) -> list[str]:
    """`aclnn_<op>.h` names a harness source includes (an example main): the ops it calls."""
    return re.findall(r'#\s*include\s*[<"](?:[^">]*/)?(aclnn_\w+\.h)[">]', text)
