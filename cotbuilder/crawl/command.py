"""`cotbuilder crawl` (not built yet)."""

from __future__ import annotations

import typer

from ..cli_common import not_built


def command(ctx: typer.Context) -> None:
    """Not built yet (issue 2)."""
    not_built("crawl", "issue 2")
