"""`cotbuilder verify` (not built yet)."""

from __future__ import annotations

import typer

from ..cli_common import not_built


def command(ctx: typer.Context) -> None:
    """Not built yet (issue 3)."""
    not_built("verify", "issue 3")
