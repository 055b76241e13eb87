"""`cotbuilder synthesize`'s settings (light: the CLI reads them for --help)."""

from __future__ import annotations

from dataclasses import dataclass

from ..stages.options import list_option, option


@dataclass
class SynthesizeConfig:
    """Grow verified data by rejection sampling: per task, N candidate answers from a teacher, each verified on the
    CPU emulator. Passing, distinct ones become units of layout `synthesized` (with a `verifications` row: the
    verdict that kept them); failing ones get --repair-rounds repair requests with their diagnostics, and each
    repair whose fixed code passes is an error-correction sample (samples.parent_sample_id -> the broken one) and,
    when the fix is a kept unit, a repair pair in `mutants` (origin synthesize) that push publishes as a
    kind="repair" row, as it does mutate's.
    Every candidate and repair is in `samples` (purpose = synthesize).

    Tasks that are benchmark tasks (loaded from a benchmark, or matched by decontamination to a --benchmark) are
    refused: the evaluation set must never become training data (--allow-benchmark overrides). Teachers: `static`
    (offline: the task's known answer, and bug mutants of it (cotbuilder/mutate) — it cannot write new kernels;
    real synthesis needs an LLM teacher) or a model on an OpenAI-compatible server. Resumable per task:
    answers come from the response cache and verdicts from the score cache after a kill.
    """

    teacher: str = option(
        "static", "--teacher", help="'static' (offline) or the model name on an OpenAI-compatible server."
    )
    base_url: str | None = option(None, "--base-url", help="Server URL (default: $OPENAI_BASE_URL, else OpenAI).")
    api_key_env: str | None = option(
        None, "--api-key-env", metavar="VAR", help="Environment variable holding the API key (default OPENAI_API_KEY)."
    )
    samples: int = option(4, "--samples", "-n", min=1, help="Candidate answers per task.")
    repair_rounds: int = option(1, "--repair-rounds", min=0, help="Repair requests per failing candidate.")
    max_per_task: int = option(4, "--max-per-task", min=1, help="At most this many kept (distinct) units per task.")
    distinct: float = option(
        0.9, "--distinct", min=0.0, max=1.0, help="MinHash similarity of code at which two kept answers are one."
    )
    task_dirs: list[str] = list_option("--tasks", metavar="DIR", help="A folder of task.toml files (repeatable).")
    task: str | None = option(None, "--task", metavar="GLOB", help="Only tasks whose name matches (fnmatch).")
    benchmarks: list[str] | dict[str, str] = list_option(
        "--benchmark",
        "-b",
        type=list[str],
        metavar="NAME=PATH",
        help="A benchmark whose tasks must not be synthesised (repeatable; as decontaminate's).",
    )
    allow_benchmark: bool = option(False, "--allow-benchmark", help="Synthesise benchmark tasks too (not for data).")
    lang: str = option("en", "--lang", help="Prompt language: en, or zh where the task has a Chinese statement.")
    temperature: float = option(0.8, "--temperature", help="Sampling temperature of a model teacher.")
    max_tokens: int = option(8192, "--max-tokens", help="Completion token limit per request.")
    jobs: int = option(1, "--jobs", "-j", min=1, help="Tasks synthesised in parallel (processes).")
    allow_weak_sandbox: bool = option(
        False, "--allow-weak-sandbox", help="Run even if this machine lacks an isolation feature (as verify)."
    )
    license: str = "NOASSERTION"  # recipe only: the SPDX licence of what the teacher writes (the demo: its corpus's)
    soc: str = "ascend910b"
    cpu_s: int = 60
    wall_s: int = 180

    def __post_init__(self) -> None:
        if isinstance(self.benchmarks, dict):  # a recipe's {name = "path"} table, as decontaminate takes it
            self.benchmarks = [f"{name}={where}" for name, where in self.benchmarks.items()]
