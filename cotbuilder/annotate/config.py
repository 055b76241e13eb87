"""AnnotateConfig: every knob of the annotate stage (its CLI options and recipe keys, declared once)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ..stages.options import option

STRUCTURED_MODES = ("auto", "json_schema", "json_object", "none")


@dataclass
class AnnotateConfig:
    """Write task statements and chain-of-thought rationales for units (table `annotations`).

    By default only units whose verification passed are annotated (a teacher's tokens go to what can be published;
    the stats count the units left out by their verification status); --repair selects the failed ones instead,
    --all every unit.

    Teachers: `static` (default: offline, deterministic, written from the parsed facts) or any model on an
    OpenAI-compatible server (OpenAI, vLLM, SGLang, llama.cpp, DeepSeek...). Resumable: a re-run only does what is
    missing, and answers already received come from the cache without a request. Every annotation is checked by the
    quality gates; failing ones are kept with their reasons (gates_passed = false).
    """

    teacher: str = option(
        "static",
        "--teacher",
        help="'static' (offline, deterministic, free) or the model name on an OpenAI-compatible chat-completions server.",
    )
    base_url: str | None = option(
        None,
        "--base-url",
        help="Server URL (default: $OPENAI_BASE_URL, else the OpenAI API), e.g. http://localhost:8000/v1 for vLLM.",
    )
    api_key_env: str | None = option(
        None,
        "--api-key-env",
        metavar="VAR",
        help="Environment variable holding the API key (default OPENAI_API_KEY). The key never reaches the store, "
        "cache or logs.",
    )
    samples: int = option(1, "--samples", help="Annotations per unit.")
    temperature: float = option(0.2, "--temperature", help="Sampling temperature.")
    max_tokens: int = option(4096, "--max-tokens", help="Completion token limit per request.")
    lang: str = option("en", "--lang", help="Language of task and rationale: en | zh.")
    concurrency: int = option(8, "--concurrency", help="Requests in flight at once.")
    rpm: float | None = option(None, "--rpm", help="Requests-per-minute limit.")
    tpm: float | None = option(None, "--tpm", help="Tokens-per-minute limit.")
    max_cost: float | None = option(
        None,
        "--max-cost",
        metavar="USD",
        help="Stop cleanly once this much has been spent (stats say 'stopped: budget'); re-run with a higher budget "
        "to continue.",
    )
    limit: int | None = option(None, "--limit", help="Annotate at most this many units.")
    structured: str = option(
        "auto",
        "--structured",
        help="auto | json_schema | json_object | none. auto sends a JSON Schema and falls back when the server "
        "rejects it.",
    )
    max_retries: int = option(6, "--max-retries", help="Retries per request on 429 / 5xx / timeouts.")
    retry_base: float = option(1.0, "--retry-base", help="First backoff in seconds (doubles, with jitter).")
    timeout: float = option(120.0, "--timeout", help="Seconds per request.")
    max_retry_after: float = option(
        60.0, "--max-retry-after", help="Longest Retry-After (seconds) honoured; longer ones are cut and counted."
    )
    max_answer_chars: int = option(
        200_000, "--max-answer-chars", help="Longer answers are rejected (item failed), never cached or stored."
    )
    fix_attempts: int = 2  # follow-ups asking the teacher to correct an invalid answer
    repair: bool = option(
        False,
        "--repair",
        help="Write repair samples for units whose latest verification failed: a corrected kernel (stored as a new "
        "unit) and the reasoning of the fix.",
    )
    all_units: bool = option(
        False,
        "--all",
        help="Annotate every unit, also those not verified or whose verification did not pass (default: passed only).",
    )
    price_table: str | None = option(
        None, "--price-table", help="TOML price table (USD per million tokens) instead of the packaged one."
    )
    progress: bool = option(True, "--no-progress", help="No progress bar.")

    def as_dict(self) -> dict[str, Any]:
        """The config as `runs.config` records it: a base URL without the credentials it may carry."""
        from ..crawl.urlredact import redact_url

        recorded = asdict(self)
        if self.base_url:
            recorded["base_url"] = redact_url(self.base_url)
        return recorded

    def check(self) -> None:
        if self.lang not in ("en", "zh"):
            raise ValueError(f"--lang must be en or zh, not {self.lang!r}")
        if self.structured not in STRUCTURED_MODES:
            raise ValueError(f"--structured must be one of {', '.join(STRUCTURED_MODES)}, not {self.structured!r}")
        if self.samples < 1 or self.concurrency < 1:
            raise ValueError("--samples and --concurrency must be at least 1")
        if self.max_cost is not None and self.max_cost < 0:
            raise ValueError("--max-cost must not be negative")
        if self.repair and self.all_units:
            raise ValueError("--repair selects the units whose verification failed; it cannot be combined with --all")
        if self.max_retry_after < 0 or self.max_answer_chars < 1:
            raise ValueError("--max-retry-after must not be negative and --max-answer-chars must be positive")
