"""`cotbuilder annotate`."""

from __future__ import annotations

import typer

from .config import AnnotateConfig


def command(
    ctx: typer.Context,
    teacher: str = typer.Option(
        "static",
        "--teacher",
        help="'static' (offline, deterministic, free) or the model "
        "name on an OpenAI-compatible chat-completions server.",
    ),
    base_url: str | None = typer.Option(
        None,
        "--base-url",
        help="Server URL (default: $OPENAI_BASE_URL, else the OpenAI API), e.g. http://localhost:8000/v1 for vLLM.",
    ),
    api_key_env: str | None = typer.Option(
        None,
        "--api-key-env",
        metavar="VAR",
        help="Environment variable holding the API key (default "
        "OPENAI_API_KEY). The key never reaches the store, cache or logs.",
    ),
    samples: int = typer.Option(1, "--samples", help="Annotations per unit."),
    temperature: float = typer.Option(0.2, "--temperature"),
    max_tokens: int = typer.Option(4096, "--max-tokens", help="Completion token limit per request."),
    lang: str = typer.Option("en", "--lang", help="Language of task and rationale: en | zh."),
    concurrency: int = typer.Option(8, "--concurrency", help="Requests in flight at once."),
    rpm: float | None = typer.Option(None, "--rpm", help="Requests-per-minute limit."),
    tpm: float | None = typer.Option(None, "--tpm", help="Tokens-per-minute limit."),
    max_cost: float | None = typer.Option(
        None,
        "--max-cost",
        metavar="USD",
        help="Stop cleanly once this much has been spent (stats say "
        "'stopped: budget'); re-run with a higher budget to continue.",
    ),
    limit: int | None = typer.Option(None, "--limit", help="Annotate at most this many units."),
    structured: str = typer.Option(
        "auto",
        "--structured",
        help="auto | json_schema | json_object | none. auto "
        "sends a JSON Schema and falls back when the server rejects it.",
    ),
    max_retries: int = typer.Option(6, "--max-retries", help="Retries per request on 429 / 5xx / timeouts."),
    retry_base: float = typer.Option(1.0, "--retry-base", help="First backoff in seconds (doubles, with jitter)."),
    timeout: float = typer.Option(120.0, "--timeout", help="Seconds per request."),
    repair: bool = typer.Option(
        False,
        "--repair",
        help="Write repair samples for units whose latest verification "
        "failed: a corrected kernel (stored as a new unit) and the reasoning of the fix.",
    ),
    price_table: str | None = typer.Option(
        None, "--price-table", help="TOML price table (USD per million tokens) instead of the packaged one."
    ),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
) -> None:
    """Write task statements and chain-of-thought rationales for units (table `annotations`).

    Teachers: `static` (default: offline, deterministic, written from the parsed facts) or any model on an
    OpenAI-compatible server (OpenAI, vLLM, SGLang, llama.cpp, DeepSeek...). Resumable: a re-run only does what is
    missing, and answers already received come from the cache without a request. Every annotation is checked by the
    quality gates; failing ones are kept with their reasons (gates_passed = false).
    """
    from ..cli_common import EXIT_PARTIAL, EXIT_USAGE, console, open_store
    from .requester import FatalTeacherError
    from .stage import CannotRun, run

    config = AnnotateConfig(
        teacher=teacher,
        base_url=base_url,
        api_key_env=api_key_env,
        samples=samples,
        temperature=temperature,
        max_tokens=max_tokens,
        lang=lang,
        concurrency=concurrency,
        rpm=rpm,
        tpm=tpm,
        max_cost=max_cost,
        limit=limit,
        structured=structured,
        max_retries=max_retries,
        retry_base=retry_base,
        timeout=timeout,
        repair=repair,
        price_table=price_table,
        progress=not no_progress,
    )
    if repair and teacher == "static":
        console.print(
            "error: the static teacher cannot repair kernels; use --teacher MODEL (an LLM) with --repair",
            soft_wrap=True,
        )
        raise typer.Exit(EXIT_USAGE)
    store = open_store(ctx)
    with store:
        try:
            stats = run(store, config)
        except CannotRun as exc:
            console.print(f"error: {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
        except FatalTeacherError as exc:
            console.print(f"error: the teacher server refuses requests: {exc}")
            raise typer.Exit(EXIT_USAGE) from exc
    stats.render(console)
    if stats.counts["failed"]:
        raise typer.Exit(EXIT_PARTIAL)
