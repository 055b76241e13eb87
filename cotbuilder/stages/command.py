"""A stage's CLI verb, declared from its registry entry: the options are the config dataclass's option fields (same
names, defaults, types and help), the help text is the config class's docstring, and every verb also takes
`--config FILE` (a TOML file with the verb's table, as in a recipe; options given on the command line win) and
`--executor local|ray` with `--ray-address ADDR` (where `work` runs: not a stage's setting, the same for every verb).

Only the declaration lives here (it is built for `cotbuilder --help`, so it imports typer and the light config module,
nothing else); running the verb is `stages/verb.py`, imported when the verb runs.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import typer

from .options import OptionField, option_fields
from .registry import StageEntry

CONFIG_FILE = "config_file"
EXECUTOR = "executor"
RAY_ADDRESS = "ray_address"
RESERVED = (CONFIG_FILE, EXECUTOR, RAY_ADDRESS)  # the generic options' parameter names: no config field may use them

EXECUTOR_HELP = (
    "Where the stage's work runs: local (this machine: a process pool, or an event loop for I/O) or ray (tasks on a "
    "Ray cluster; needs the ray extra). The results are the same; only the driver writes the store."
)
RAY_ADDRESS_HELP = (
    "With --executor ray: the cluster (host:6379, ray://host:10001, auto), or local for a new one on this machine. "
    "Default: Ray's own rule ($RAY_ADDRESS, else a cluster started here with `ray start`, else a new local one)."
)


def executor_parameters() -> list[inspect.Parameter]:
    """`--executor` and `--ray-address`, for every stage verb and `cotbuilder run`."""
    return [
        inspect.Parameter(
            EXECUTOR,
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(None, "--executor", help=EXECUTOR_HELP + " Default: local.", show_default=False),
            annotation=str | None,
        ),
        inspect.Parameter(
            RAY_ADDRESS,
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(None, "--ray-address", metavar="ADDR", help=RAY_ADDRESS_HELP, show_default=False),
            annotation=str | None,
        ),
    ]


def _parameter(field: OptionField) -> inspect.Parameter:
    cli = field.cli
    default = field.shown_default()
    if field.is_list and not default:
        default = None
    extra: dict[str, Any] = {}
    if cli.min is not None:
        extra["min"] = cli.min
    if cli.max is not None:
        extra["max"] = cli.max
    if cli.metavar:
        extra["metavar"] = cli.metavar
    annotation = bool if field.is_switch else field.cli_type
    if default is None or field.is_list:
        annotation = annotation | None
    return inspect.Parameter(
        field.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=typer.Option(default, *cli.flags, help=cli.help, show_default=default is not None, **extra),
        annotation=annotation,
    )


def stage_command(entry: StageEntry) -> Any:
    """The typer command function of a registered stage."""
    fields = option_fields(entry.config_type())
    for f in fields:
        if f.name in RESERVED:
            raise TypeError(
                f"{entry.verb}: a config field may not be named {f.name!r} (a generic option of every verb)"
            )

    def command(ctx: typer.Context, **values: Any) -> None:
        from .verb import run_verb

        run_verb(ctx, entry, fields, values)

    params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)]
    params += [_parameter(f) for f in fields]
    params.append(
        inspect.Parameter(
            CONFIG_FILE,
            inspect.Parameter.KEYWORD_ONLY,
            default=typer.Option(
                None,
                "--config",
                help=f"TOML file with a [{entry.verb}] table (or just its keys), as in a pipeline recipe; "
                "options given here win.",
                show_default=False,
            ),
            annotation=Path | None,
        )
    )
    params += executor_parameters()
    command.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    command.__name__ = entry.verb
    command.__doc__ = entry.help()
    return command
