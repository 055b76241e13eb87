"""`cotbuilder annotate` (not built yet)."""

from __future__ import annotations

import typer

from ..cli_common import not_built


def command(ctx: typer.Context) -> None:
    """Not built yet (issue 4)."""
    not_built("annotate", "issue 4")
