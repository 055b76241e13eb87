"""AnnotateConfig: every knob of the annotate stage (the pipeline runner builds it from TOML with these names)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

STRUCTURED_MODES = ("auto", "json_schema", "json_object", "none")


@dataclass
class AnnotateConfig:
    teacher: str = "static"  # "static" (offline) or the model name on an OpenAI-compatible server
    base_url: str | None = None  # else $OPENAI_BASE_URL, else api.openai.com
    api_key_env: str | None = None  # name of the variable holding the key (default OPENAI_API_KEY); never the key
    samples: int = 1  # annotations per unit
    temperature: float = 0.2
    max_tokens: int = 4096
    lang: str = "en"  # en | zh
    concurrency: int = 8
    rpm: float | None = None  # requests per minute (None: no limit)
    tpm: float | None = None  # tokens per minute (None: no limit)
    max_cost: float | None = None  # USD; stop cleanly before spending more
    limit: int | None = None  # annotate at most this many units
    structured: str = "auto"  # auto | json_schema | json_object | none
    max_retries: int = 6  # per request, on 429 / 5xx / timeouts
    retry_base: float = 1.0  # seconds: first backoff ceiling (doubles per retry, with jitter)
    timeout: float = 120.0  # seconds per request
    fix_attempts: int = 2  # follow-ups asking the teacher to correct an invalid answer
    repair: bool = False  # write repair samples for units whose latest verification failed
    price_table: str | None = None  # TOML price table (default: the packaged one)
    progress: bool = True

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def check(self) -> None:
        if self.lang not in ("en", "zh"):
            raise ValueError(f"--lang must be en or zh, not {self.lang!r}")
        if self.structured not in STRUCTURED_MODES:
            raise ValueError(f"--structured must be one of {', '.join(STRUCTURED_MODES)}, not {self.structured!r}")
        if self.samples < 1 or self.concurrency < 1:
            raise ValueError("--samples and --concurrency must be at least 1")
        if self.max_cost is not None and self.max_cost < 0:
            raise ValueError("--max-cost must not be negative")
