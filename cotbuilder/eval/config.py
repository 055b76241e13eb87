"""`cotbuilder eval`'s settings (light: the CLI reads them for --help)."""

from __future__ import annotations

from dataclasses import dataclass

from ..stages.options import list_option, option


@dataclass
class EvalConfig:
    """Evaluate a teacher on tasks: N answers per task, each verified on the CPU emulator (cotbuilder compares the
    output with goldens sealed before the answer ran: model-written code never judges itself), stored in the `samples`
    table, and reported as parse / compile / correct pass@k (unbiased estimator) per task, level and category in
    <workspace>/reports/eval-<teacher>.{md,json}.

    Tasks: --benchmark npukernelbench=PATH (an NPUKernelBench tree) or multikernelbench=PATH (a MultiKernelBench tree:
    it has no reference answers, and its pybind answer layout has no harness yet, so its answers are parsed, stored
    and scored unsupported), --tasks DIR (task.toml folders), else the
    workspace's `tasks` table. Teachers: `reference` (each task's own reference answer: a sanity run of the harness),
    `static` (offline), or a model on an OpenAI-compatible server. Resumable: a sample already stored is skipped, an
    answer already received comes from the response cache, a verdict already computed from the score cache (a kill
    loses only the work in flight).
    """

    teacher: str = option(
        "reference", "--teacher", help="'reference', 'static', or the model name on an OpenAI-compatible server."
    )
    base_url: str | None = option(None, "--base-url", help="Server URL (default: $OPENAI_BASE_URL, else OpenAI).")
    api_key_env: str | None = option(
        None, "--api-key-env", metavar="VAR", help="Environment variable holding the API key (default OPENAI_API_KEY)."
    )
    samples: int = option(1, "--samples", "-n", min=1, help="Answers per task (n of pass@k).")
    k: str = option("1", "-k", metavar="K[,K...]", help="The k of pass@k, comma-separated (e.g. 1,10); k <= n.")
    benchmark: list[str] = list_option(
        "--benchmark",
        metavar="NAME=PATH",
        help="A benchmark tree to take tasks from: npukernelbench=PATH or multikernelbench=PATH.",
    )
    task_dirs: list[str] = list_option("--tasks", metavar="DIR", help="A folder of task.toml files (repeatable).")
    mode: str = option("full", "--mode", help="Benchmark answer layout: full (op project) or kernel_only.")
    task: str | None = option(None, "--task", metavar="GLOB", help="Only tasks whose name matches (fnmatch).")
    level: str | None = option(None, "--level", help="Only tasks tagged with this level (e.g. level1).")
    lang: str = option("en", "--lang", help="Prompt language: en, or zh where the task has a Chinese statement.")
    temperature: float = option(0.8, "--temperature", help="Sampling temperature of a model teacher.")
    max_tokens: int = option(8192, "--max-tokens", help="Completion token limit per request.")
    jobs: int = option(1, "--jobs", "-j", min=1, help="Samples asked and verified in parallel (processes).")
    limit: int | None = option(None, "--limit", help="At most this many new samples in this run.")
    allow_weak_sandbox: bool = option(
        False, "--allow-weak-sandbox", help="Run even if this machine lacks an isolation feature (as verify)."
    )
    soc: str = "ascend910b"
    cpu_s: int = 60
    wall_s: int = 180

    def ks(self) -> list[int]:
        try:
            values = sorted({int(x) for x in str(self.k).split(",") if x.strip()})
        except ValueError:
            raise ValueError(f"-k must be comma-separated integers (got {self.k!r})") from None
        if not values or values[0] < 1:
            raise ValueError(f"-k must be integers >= 1 (got {self.k!r})")
        return values
