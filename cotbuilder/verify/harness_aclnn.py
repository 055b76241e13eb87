"""The aclnn example harness: an op project tested the way its authors test it on a device - its example main calls the
op through the aclnn two-phase API (cann-ops `examples/AclNNInvocationNaive/{gen_data.py, main.cpp,
verify_result.py, run.sh}`; hicann ops-* `examples/test_aclnn_*.cpp`).

The main is built unchanged with the op (`opproject/build.py`: host side, the aclnn layer generated from its OpDef,
the kernel); then, each step in a fresh sandbox dir:
1. the example's generator (`gen_data.py`, in the example folder, with the arguments its run.sh/README give) writes
   the inputs and the goldens; what it wrote under `output/` is copied out and sealed, with the dtype numpy wrote;
2. the main runs where run.sh runs it (`build/` when it reads `../input/`), with the inputs only; the emulated aclnn
   layer reports the host half (block dim, tiling key, tiling fields) per call;
3. cotbuilder pairs the outputs with the goldens (the checker's command line, else the names) and compares them;
4. the example's checker runs on copies: evidence only.
An example without a generator (hicann's test_aclnn_*.cpp print their results) runs once and is `unchecked`.
"""

from __future__ import annotations

import json
import posixpath
import re
import time
from pathlib import Path
from typing import Any

from . import diagnostics, files, goldens, harness_own, steps
from .opproject import aclnn_gen, dtypes, layout, opapi
from .opproject import build as opbuild
from .opproject import run as oprun
from .verdict import Verdict

HARNESS = "aclnn"
BINARY = "cotbuilder_aclnn_example"
RUNNER = "cotbuilder_generator_runner.py"
MANIFEST = "cotbuilder_written.json"
_MAIN = re.compile(r"\bint\s+main\s*\(")
_ACL_DTYPE = re.compile(r"\bACL_(?:FLOAT16|FLOAT|BF16|INT8|INT16|INT32|INT64|UINT8|UINT16|UINT32|UINT64|BOOL|DOUBLE)\b")


def examples(unit: dict[str, Any]) -> list[dict[str, Any]]:
    """The unit's aclnn examples: {dir, sources, generator, checker}; AclNNInvocation* folders first."""
    by_dir: dict[str, list[dict[str, Any]]] = {}
    for f in unit["files"]:
        if f.get("role") == "example":
            by_dir.setdefault(posixpath.dirname(f["path"]), []).append(f)
    found = []
    for folder, fs in sorted(by_dir.items(), key=lambda kv: ("AclNNInvocation" not in kv[0], kv[0])):
        cpp = [f for f in fs if f["path"].endswith((".cpp", ".cc"))]
        mains = [f for f in cpp if _MAIN.search(f["text"]) and opbuild.aclnn_headers_included(f["text"])]
        helpers = [f["path"] for f in cpp if not _MAIN.search(f["text"])]
        single = len(mains) == 1
        for main in mains:
            found.append(
                {
                    "dir": folder,
                    "main": main,
                    "sources": sorted([main["path"], *helpers]) if single else [main["path"]],
                    "generator": _near(fs, ("gen_data.py", "gen_golden.py", "generate.py")) if single else None,
                    "checker": _near(fs, ("verify_result.py", "verify.py", "compare.py")) if single else None,
                }
            )
    return found


def _near(fs: list[dict[str, Any]], names: tuple[str, ...]) -> dict[str, Any] | None:
    for name in names:
        for f in fs:
            if posixpath.basename(f["path"]) == name:
                return f
    return None


def _op_type(unit_ops: list[str], main_text: str) -> str | None:
    """The op the main calls: the generated header it includes (aclnn_<snake>.h) names it."""
    wanted = {h for h in opbuild.aclnn_headers_included(main_text)}
    for op in unit_ops:
        if aclnn_gen.header_name(op) in wanted:
            return op
    return None


def _input_dtypes(text: str) -> list[list[int]] | None:
    codes = sorted({d.code for d in dtypes.table().values() if re.search(rf"\b{d.acl}\b", text)})
    return [[c] for c in codes] or None


def own_aclnn_gap(verdict: Verdict, stage: str, unit: dict[str, Any], caller: str = "the example") -> Verdict:
    """A harness that does not compile against the generated aclnn API while the op ships a hand-written one
    (op_host/aclnn_<op>.cpp, on the op-api framework) that cotbuilder did not build for it (a benchmark's binding; an
    example calling an API no hand-written source defines, opapi.layer_for) - its gap, named, not the harness's bug.
    So is a harness calling
    an aclnn API named after an op the OpDef does not register (aclnnBatchNorm for an OpDef of BatchNormV3) while
    the op ships such a file: before, only "op BatchNorm not registered" was said."""
    own = next((f["path"] for f in unit["files"] if re.search(r"(^|/)op_host/aclnn_\w+\.cpp$", f["path"])), None)
    compile_gap = verdict.status == "failed_compile" and stage in ("harness", "link")
    other_op = stage == "layout" and opbuild.UNREGISTERED in (verdict.reason or "")
    if not (compile_gap or other_op) or own is None:
        return verdict
    verdict.status = "unsupported"
    verdict.reason = (
        f"harness: {caller} calls the op's own aclnn API ({own}, on the op-api framework), not the one generated "
        f"from the OpDef, the only one emulated for it: {verdict.reason[:160]}"
    )
    verdict.missing_apis = [f"hand-written aclnn API ({own})"]
    return verdict


_BUILTIN_HEADER = re.compile(r'#\s*include\s*[<"](aclnnop/aclnn_\w+\.h)[">]')


def builtin_aclnn_gap(verdict: Verdict, stage: str, main_text: str) -> Verdict:
    """An example of an op CANN also ships built in includes the built-in API's header (aclnnop/aclnn_<op>.h); the
    API generated from the OpDef stands in for it. An example that does not build against the stand-in was written
    for the built-in API (another argument list, another op's name): cotbuilder's gap, named, not the example's bug."""
    builtin = _BUILTIN_HEADER.findall(main_text)
    if not builtin or stage not in ("harness", "link"):
        return verdict
    if verdict.status == "unsupported" and any(f"<{h}>" in verdict.missing_apis for h in builtin):
        # the built-in API of another op name (aclnnHistc for an OpDef of HistogramV2): nothing generated is called so
        verdict.reason = (
            f"harness: the example calls CANN's built-in aclnn API <{builtin[0]}>, not generated from this OpDef"
        )
        return verdict
    unlike = verdict.status == "unsupported" and oprun.UNLIKE_GENERATED in verdict.reason
    if verdict.status != "failed_compile" and not unlike:
        return verdict
    verdict.status = "unsupported"
    verdict.reason = (
        f"harness: the example calls CANN's built-in aclnn API (<{builtin[0]}>), emulated only as the API generated "
        f"from the OpDef, which it does not build against: {verdict.reason[:160]}"
    )
    verdict.missing_apis = [f"built-in aclnn API <{h}>" for h in builtin]
    return verdict


def _sh(folder: str, command: str) -> list[str]:
    return ["/bin/sh", "-c", f"cd '{folder}' && exec {command}"]


def verify_aclnn(
    unit: dict[str, Any], unit_dir: Path, ctx: steps.Context, example: dict[str, Any] | None = None
) -> Verdict:
    example = example or examples(unit)[0]
    verdict = _verify_aclnn(unit, unit_dir, ctx, example)
    if verdict.status in ("wrong_answer", "failed_run") and not verdict.timings.get("opapi_layer"):
        # judged through the generated aclnn<Op> while the op ships a hand-written layer of that name: the op's
        # build uses its own (a layer may convert the layout for the kernel - cann-ops adaptive_avg_pool3d: NCDHW to
        # NDHWC), so a failure through ours says nothing about the kernel. Judged again through the op's own.
        layer = _own_layer(unit, example)
        if layer is not None:
            again = unit_dir / "own-layer"  # the first attempt's step folders stay as they were
            again.mkdir(mode=0o755)
            return _verify_aclnn(unit, again, ctx, example, layer)
    return verdict


def _own_layer(unit: dict[str, Any], example: dict[str, Any], registered: list[str] = ()) -> opapi.OpApiLayer | None:
    """The op's hand-written aclnn layer the example calls (opapi.layer_for; `registered`: ops whose aclnn<Op> stays
    the generated API)."""
    texts = {f["path"]: f["text"] for f in unit["files"]}
    sources = [texts[s] for s in example["sources"] if s in texts]
    return opapi.layer_for(layout.layout(unit), lambda p: texts.get(p, ""), sources, registered)


def _verify_aclnn(
    unit: dict[str, Any],
    unit_dir: Path,
    ctx: steps.Context,
    example: dict[str, Any],
    layer: opapi.OpApiLayer | None = None,
) -> Verdict:
    timings: dict[str, Any] = {}
    start = time.monotonic()
    folder, main = example["dir"], example["main"]
    spec = opbuild.Spec(sources=example["sources"], input_dtypes=_input_dtypes(main["text"]))
    ops = described_ops(unit)
    spec.op_type = _op_type(ops, main["text"]) if ops else None
    # the example calls the op's hand-written aclnn layer: built on the emulated op-api framework (opapi.py)
    # aclnn<Op> of a registered op stays the generated API when the example includes the generated header (an extern
    # "C" API of that name declared by the unit's own header would link to ours whatever its arguments)
    included = set(opbuild.aclnn_headers_included(main["text"]))
    generated = [op for op in ops if aclnn_gen.header_name(op) in included]
    spec.opapi = layer or _own_layer(unit, example, generated)
    if spec.opapi is not None:
        spec.op_type = spec.opapi.op_type(ops) or spec.op_type
    result = oprun.build(unit, unit_dir, ctx, spec, BINARY)
    if not result.ok and spec.opapi is None and result.stage in ("harness", "link", "layout"):
        # aclnn<Op> as msOpGen names it, but the example does not build against the generated one: the op's
        # hand-written layer of that name is what it calls
        layer = _own_layer(unit, example)
        if layer is not None:
            spec.opapi, spec.op_type = layer, layer.op_type(ops) or spec.op_type
            result = oprun.build(unit, unit_dir, ctx, spec, BINARY, step="build-opapi")
    timings.update(oprun.build_timings(result))
    if spec.opapi is not None:
        timings["opapi_layer"] = True
    if not result.ok:
        failed = oprun.failed_build(result, HARNESS, timings)
        if spec.opapi is not None:  # the hand-written layer was built: its failure is labelled as it is
            return failed
        return builtin_aclnn_gap(own_aclnn_gap(failed, result.stage, unit), result.stage, main["text"])
    op_type = result.op["type"] if result.op else None
    header, struct = oprun.tiling_header_of(unit, op_type)
    reads_parent = "../input" in main["text"] or "../output" in main["text"]
    run_folder = f"{folder}/build" if reads_parent else folder
    generator, checker = example["generator"], example["checker"]
    seeds: list[int | None] = list(ctx.seeds) if generator and "--seed" in generator["text"] else [None]
    checker_args = harness_own.checker_args(unit, checker["path"], ctx.soc) if checker else None
    binary_args = harness_own.binary_args(unit, ctx.soc)  # run.sh's `./execute_op $case_name`
    checker_bins = [a for a in checker_args or [] if a.endswith(".bin")]
    verdict = Verdict("passed", harness=HARNESS, compile_ok=True, compile_log=result.log, timings=timings)
    logs: list[str] = []
    for i, seed in enumerate(seeds):
        case: dict[str, Any] = {"seed": seed, "example": folder, "op": op_type}
        sealed, inputs = goldens.Sealed(), {}
        if generator:
            gen_dir = steps.fresh_dir(unit_dir, f"gen-{i}")
            gen, inputs, sealed, unsafe = _generate(unit, folder, generator, gen_dir, ctx, seed)
            if (stop := steps.generator_stop(gen, gen_dir, unsafe)) is not None:
                verdict.status, verdict.reason, log = stop
                verdict.run_log = log or verdict.run_log
                break
        case["goldens"] = {rel: g.sha256 for rel, g in sealed.goldens.items()}
        run_dir = steps.fresh_dir(unit_dir, f"run-{i}")
        put = {**_unit_tree(unit, folder), **inputs, f"{run_folder}/{BINARY}": result.binary}
        files.write_tree(run_dir, put, executable=(f"{run_folder}/{BINARY}",))
        for sub in ("output", "build"):
            (run_dir / folder / sub).mkdir(parents=True, exist_ok=True)
        command = " ".join(_quote(a) for a in [f"./{BINARY}", *binary_args])
        run = steps.run_step(ctx, _sh(run_folder, command), run_dir, env=steps.run_env(ctx))
        diags, rest = diagnostics.parse_emulator_diagnostics(run.stderr)
        verdict.diagnostics.extend(d for d in diags if d not in verdict.diagnostics)
        logs.append((run.stdout + "\n" + oprun.host_result.strip(rest)).strip())
        case["host"] = oprun.host_case_record(run.stderr, header, struct)
        written, unsafe = steps.written_files(run_dir, put)
        if planted := steps.planted(run_dir, unsafe):
            verdict.status, verdict.reason, verdict.run_ok = "sandbox_violation", f"kernel: {planted}", False
            break
        if (host := oprun.host_stop(run.stderr, run)) is not None:
            verdict.status, verdict.reason, verdict.run_ok = host[0], host[1], False
            if spec.opapi is not None and (other := _other_soc(result.op, ctx.soc)):
                # a hand-written layer that checks the SoC rejects the one verified when the op is made for others
                verdict.status = "unsupported"
                verdict.reason = (
                    f"{host[1][:200]} (the OpDef configures the op only for {other}; verified as {ctx.soc})"
                )
            verdict.cases.append(case)
            break
        outputs = {oprun.relative_to(p, folder): d for p, d in written.items() if p.startswith(f"{folder}/output/")}
        stop = steps.stopped(run, "kernel")
        exited_after_writing = run.outcome == "exit" and (run.returncode or 0) > 0 and bool(outputs)
        if stop is not None and not steps.ended_by_diagnostics(run, diags) and not exited_after_writing:
            verdict.status, verdict.reason, verdict.run_ok = stop[0], stop[1], False
            break
        verdict.run_ok = stop is None
        evidence: dict[str, Any] = {}
        said = harness_own.self_check(logs[-1])
        if said is not None:
            evidence["self_check"] = said
        if checker and sealed.goldens:
            evidence.update(
                _checker(
                    unit,
                    folder,
                    checker,
                    checker_args,
                    steps.fresh_dir(unit_dir, f"check-{i}"),
                    ctx,
                    inputs,
                    sealed,
                    outputs,
                )
            )
            case["checker_output"] = evidence.get("said")
        if evidence:
            case["evidence"] = evidence
        case.update(goldens.judge_case(sealed, outputs, checker_bins, checker_passed=evidence.get("ok")))
        if case["ok"] is None and not sealed.goldens:
            case["why"] = (
                "the example has no data generator: it prints its results and compares with nothing"
                if not generator
                else "the generator wrote no golden under output/"
            )
        verdict.cases.append(case)
    verdict.run_log = "\n".join(logs)
    timings["total_s"] = round(time.monotonic() - start, 3)
    return steps.judge(verdict)


def _other_soc(op: dict[str, Any] | None, soc: str) -> str:
    """The SoCs the OpDef configures (AICore().AddConfig) when the verified one is not among them, else ""."""
    configs = [k for k in ((op or {}).get("configs") or {}) if k]
    if not configs or any(soc.lower().startswith(k.lower()) for k in configs):
        return ""
    return ", ".join(sorted(configs))


def described_ops(unit: dict[str, Any]) -> list[str]:
    """Op types the host code registers, read from the source text (the build confirms them)."""
    names = set()
    for f in unit["files"]:
        if f["path"].endswith((".cpp", ".cc")) and ("op_host/" in f["path"] or f["path"].startswith("_deps/")):
            names.update(re.findall(r"\bOP_ADD\s*\(\s*(\w+)", f["text"]))
            names.update(re.findall(r"\bIMPL_OP(?:_OPTILING)?\s*\(\s*(\w+)", f["text"]))
    return sorted(names)


def _unit_tree(unit: dict[str, Any], folder: str) -> dict[str, bytes]:
    """The unit's files without the example's own input/ output/ build/ (only what cotbuilder puts there counts)."""
    skip = tuple(f"{folder}/{d}/" for d in ("input", "output", "build"))
    return {p: d for p, d in oprun.unit_tree(unit).items() if not p.startswith(skip)}


def _generate(
    unit: dict[str, Any], folder: str, generator: dict[str, Any], workdir: Path, ctx: steps.Context, seed: int | None
):
    put = _unit_tree(unit, folder)
    put[f"{folder}/{RUNNER}"] = oprun.script("generator_runner.py")
    files.write_tree(workdir, put)
    for sub in ("input", "output"):
        (workdir / folder / sub).mkdir(parents=True, exist_ok=True)
    args = harness_own.script_args(unit, generator["path"], ctx.soc, need_bin=False) or []
    argv = [ctx.python, RUNNER, MANIFEST, posixpath.basename(generator["path"]), *args]
    argv += ["--seed", str(seed)] if seed is not None else []
    gen = steps.run_step(ctx, ["/bin/sh", "-c", f"cd '{folder}' && exec " + " ".join(_quote(a) for a in argv)], workdir)
    wrote, unsafe = steps.written_files(workdir, put)
    try:
        manifest = json.loads(wrote.pop(f"{folder}/{MANIFEST}", b"{}"))
    except ValueError:
        manifest = {}
    sealed, inputs = goldens.Sealed(), {}
    for path, data in wrote.items():
        rel = oprun.relative_to(path, folder) if path.startswith(folder + "/") else path
        if rel.startswith("output/"):
            meta = manifest.get(rel)
            dtype = meta.get("dtype") if isinstance(meta, dict) else None
            sealed.goldens[rel] = goldens.Golden(data, dtype if isinstance(dtype, str) else None)
        else:
            inputs[path] = data
    return gen, inputs, sealed, unsafe


def _checker(unit, folder, checker, args, workdir, ctx, inputs, sealed, outputs) -> dict[str, Any]:
    """The example's checker on copies of the outputs and goldens, in a dir of its own: evidence only."""
    put = {**_unit_tree(unit, folder), **inputs}
    put.update({f"{folder}/{rel}": data for rel, data in outputs.items()})
    put.update({f"{folder}/{rel}": g.data for rel, g in sealed.goldens.items()})
    files.write_tree(workdir, put)
    argv = [ctx.python, posixpath.basename(checker["path"]), *(args or [])]
    check = steps.run_step(
        ctx,
        ["/bin/sh", "-c", f"cd '{folder}' && exec " + " ".join(_quote(a) for a in argv)],
        workdir,
        harness_own.CHECKER_LIMITS,
    )
    said = (check.stdout + check.stderr).strip()
    # cann-ops' checkers print "[ERROR] result error" and still exit 0: what the checker says counts with its status
    ok = check.ok and harness_own.self_check(said) is not False
    return {"checker": checker["path"], "ok": ok, "said": said[-1500:], "outcome": check.outcome}


def _quote(arg: str) -> str:
    return "'" + arg.replace("'", "'\\''") + "'"
