"""`cotbuilder push` (not built yet)."""

from __future__ import annotations

import typer

from ..cli_common import not_built


def command(ctx: typer.Context) -> None:
    """Not built yet (issue 5)."""
    not_built("push", "issue 5")
