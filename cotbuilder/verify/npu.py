"""The CANN backends: `--device npu:N` (build with the CANN toolchain, run on Ascend device N) and `cann-cpu` (CANN's
own CPU debug mode, RUN_MODE=cpu, no NPU needed).

THIS CANNOT RUN HERE: this machine has no CANN toolkit and no NPU (neither can be installed from a public registry).
What is tested here: CANN detection (against fake toolkit folders) and the build/run commands, which are pure functions
returning argv lists. The real run needs an Ascend host with CANN installed (`set_env.sh` sourced or ASCEND_HOME_PATH
set).

Flows:
- kernel_launch: `cmake -S . -B build -DRUN_MODE=npu|cpu -DSOC_VERSION=Ascend910B1 -DASCEND_CANN_PACKAGE_PATH=<toolkit>`
  then `cmake --build build -j`, then the unit's generator, the binary (with ASCEND_RT_VISIBLE_DEVICES=N so the unit's
  device 0 is device N), and its checker — the same judging as the cpu backend. Newer single-file `.asc` samples use
  the ASC language module: `-DCMAKE_ASC_RUN_MODE=npu|cpu -DCMAKE_ASC_ARCHITECTURES=dav-2201`.
- op_project: the msOpGen flow — `msopgen gen -i <op>.json -c ai_core-<SOC_VERSION> -lan cpp -out <dir>`, the unit's
  op_host/op_kernel copied over the generated ones, `bash build.sh`, and the produced `custom_opp_*.run --install-path`.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..paths import package_data
from . import files, sandbox, steps
from .units import materialise
from .verdict import Verdict

DEFAULT_TOOLKIT = Path("/usr/local/Ascend/ascend-toolkit/latest")


class CannMissing(RuntimeError):
    """CANN (or the NPU) is not available: the message is the one line the user sees."""


@dataclass(frozen=True)
class CannInfo:
    toolkit: Path
    version: str


@functools.cache
def soc_table() -> dict[str, dict[str, Any]]:
    return tomllib.loads(package_data("verify/data/socs.toml").read_text(encoding="utf-8"))


def parse_device(device: str) -> tuple[str, int | None]:
    """'cpu' -> ('cpu', None); 'npu:3' -> ('npu', 3); 'cann-cpu' -> ('cann-cpu', None). ValueError otherwise."""
    if device in ("cpu", "cann-cpu"):
        return device, None
    m = re.fullmatch(r"npu(?::(\d+))?", device)
    if not m:
        raise ValueError(f"--device must be cpu, npu:N or cann-cpu (got {device!r})")
    return "npu", int(m.group(1) or 0)


def cann_version(toolkit: Path) -> str | None:
    """From <toolkit>/version.cfg or */ascend_toolkit_install.info (whichever the install has)."""
    cfg = toolkit / "version.cfg"
    if cfg.is_file():
        m = re.search(
            r"(?:toolkit_running_version|runtime_running_version|version)\s*=\s*\[?([\w.:\-]+)",
            cfg.read_text(errors="replace"),
        )
        if m:
            return m.group(1).split(":")[-1] if ":" in m.group(1) else m.group(1)
    for info in sorted(toolkit.glob("*/ascend_toolkit_install.info")) + sorted(
        toolkit.glob("ascend_toolkit_install.info")
    ):
        m = re.search(r"^version\s*=\s*([\w.\-]+)", info.read_text(errors="replace"), re.M)
        if m:
            return m.group(1)
    return None


def detect_cann(env: dict[str, str] | None = None) -> CannInfo:
    """Find the CANN toolkit: ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME, then the default install. Raises CannMissing."""
    env = dict(os.environ if env is None else env)
    candidates = [Path(env[k]) for k in ("ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME") if env.get(k)]
    candidates.append(Path(env.get("COTBUILDER_ASCEND_DEFAULT", str(DEFAULT_TOOLKIT))))
    for toolkit in candidates:
        if toolkit.is_dir() and (
            (toolkit / "set_env.sh").is_file() or (toolkit / "compiler").is_dir() or (toolkit / "version.cfg").is_file()
        ):
            return CannInfo(toolkit, cann_version(toolkit) or "unknown")
    raise CannMissing(
        "CANN toolkit not found: set ASCEND_HOME_PATH (source <toolkit>/set_env.sh) or install it at "
        f"{DEFAULT_TOOLKIT}; the npu and cann-cpu backends need it (use --device cpu without CANN)"
    )


def check_device(device_id: int, env: dict[str, str] | None = None) -> None:
    """An NPU is visible as /dev/davinciN (the driver's device files)."""
    root = Path((env or os.environ).get("COTBUILDER_DEV_ROOT", "/dev"))
    if not (root / f"davinci{device_id}").exists():
        raise CannMissing(
            f"no Ascend NPU {device_id}: {root}/davinci{device_id} is missing (driver not installed or "
            "device not visible); use --device cann-cpu or --device cpu"
        )


def cmake_configure_argv(
    toolkit: Path, soc: str, run_mode: str, asc_language: bool, source: str = ".", build_dir: str = "build"
) -> list[str]:
    """cmake configure command for a kernel-launch unit (run_mode: npu | cpu)."""
    info = soc_table()[soc]
    argv = [
        "cmake",
        "-S",
        source,
        "-B",
        build_dir,
        "-DCMAKE_BUILD_TYPE=Release",
        f"-DASCEND_CANN_PACKAGE_PATH={toolkit}",
    ]
    if asc_language:
        argv += [f"-DCMAKE_ASC_RUN_MODE={run_mode}", f"-DCMAKE_ASC_ARCHITECTURES={info['npu_arch']}"]
    else:
        argv += [f"-DRUN_MODE={run_mode}", f"-DSOC_VERSION={info['soc_version']}"]
    return argv


def cmake_build_argv(build_dir: str = "build", jobs: int = 2) -> list[str]:
    return ["cmake", "--build", build_dir, "-j", str(jobs)]


def msopgen_argv(op_json: str, soc: str, out_dir: str) -> list[str]:
    return [
        "msopgen",
        "gen",
        "-i",
        op_json,
        "-c",
        f"ai_core-{soc_table()[soc]['soc_version']}",
        "-lan",
        "cpp",
        "-out",
        out_dir,
    ]


def op_build_argv(project_dir: str) -> list[str]:
    return ["bash", f"{project_dir}/build.sh"]


def op_install_argv(run_file: str, install_dir: str) -> list[str]:
    return [run_file, f"--install-path={install_dir}"]


def run_env(info: CannInfo, device_id: int | None) -> dict[str, str]:
    """Environment for a build or run with CANN (what set_env.sh exports that matters here)."""
    tk = str(info.toolkit)
    env = {
        "ASCEND_HOME_PATH": tk,
        "ASCEND_TOOLKIT_HOME": tk,
        "ASCEND_OPP_PATH": f"{tk}/opp",
        "LD_LIBRARY_PATH": f"{tk}/lib64:{tk}/runtime/lib64:{tk}/tools/simulator/lib:"
        + os.environ.get("LD_LIBRARY_PATH", ""),
        "PATH": f"{tk}/bin:{tk}/compiler/ccec_compiler/bin:" + os.environ.get("PATH", "/usr/bin:/bin"),
    }
    if device_id is not None:
        env["ASCEND_RT_VISIBLE_DEVICES"] = str(device_id)  # the unit's aclrtSetDevice(0) lands on device N
        env["ASCEND_DEVICE_ID"] = "0"
    return env


def executable_name(cmakelists: str) -> str | None:
    m = re.search(r"add_executable\s*\(\s*([\w.\-${}]+)", cmakelists)
    return m.group(1) if m and "$" not in m.group(1) else None


def verify_cann(
    unit: dict[str, Any], unit_dir: Path, ctx: steps.Context, info: CannInfo, backend: str, device_id: int | None
) -> Verdict:
    """Build and run a kernel-launch unit with CANN (needs an Ascend host; see module docstring). The cmake build
    runs in the sandbox like every other step (the toolkit is added to what it may read); the NPU's device nodes are
    given to the kernel's step only."""
    from .harness_own import verify_own  # judging is shared with the cpu backend

    if unit["layout"] != "kernel_launch":
        return Verdict(
            "unsupported",
            f"{backend}: only kernel_launch units are built with CANN here (op projects "
            "need the msOpGen + aclnn flow, not implemented)",
            "none",
        )
    cmakelists = next((f["text"] for f in unit["files"] if f["path"] == "CMakeLists.txt"), None)
    if cmakelists is None:
        return Verdict("unsupported", f"{backend}: no CMakeLists.txt", "none")
    build_dir = steps.fresh_dir(unit_dir, "build")
    materialise(unit, build_dir)
    run_mode = "cpu" if backend == "cann-cpu" else "npu"
    asc_language = "LANGUAGES ASC" in cmakelists or "find_package(ASC" in cmakelists
    devices = (
        tuple(f"/dev/{d}" for d in (f"davinci{device_id}", "davinci_manager", "devmm_svm", "hisi_hdc"))
        if (backend == "npu")
        else ()
    )
    cann_ctx = dataclasses.replace(
        ctx, extra_env=run_env(info, device_id), ro_paths=(*ctx.ro_paths, str(info.toolkit)), devices=devices
    )
    start = time.monotonic()
    log = ""
    limits = sandbox.Limits(cpu_s=1800, wall_s=1800, memory_mb=8192, file_mb=1024, nproc=256)
    for argv in (cmake_configure_argv(info.toolkit, ctx.soc, run_mode, asc_language), cmake_build_argv()):
        done = steps.run_step(cann_ctx, argv, build_dir, limits, env=run_env(info, device_id))
        log += done.stdout + done.stderr
        if not done.ok:
            return Verdict(
                "timeout" if done.outcome == "timeout" else "failed_compile",
                " ".join(argv[:2]) + f" failed ({done.reason})",
                "own",
                compile_ok=False,
                compile_log=log,
                timings={"compile_s": round(time.monotonic() - start, 3)},
            )
    name = executable_name(cmakelists) or "ascendc_kernels_bbit"
    binary = None
    for rel in (f"build/{name}", name, f"out/{name}"):
        try:
            binary = files.read_file(build_dir, rel)
        except files.Unsafe:
            binary = None
        if binary is not None:
            break
    if binary is None:
        return Verdict("failed_compile", f"built binary {name} not found", "own", compile_ok=False, compile_log=log)
    # The rest (generator, run, checker) is the own harness with the prebuilt binary and CANN's environment.
    verdict = verify_own(unit, unit_dir, cann_ctx, prebuilt=binary)
    verdict.compile_log = log
    verdict.timings["compile_s"] = round(time.monotonic() - start, 3)
    return verdict
