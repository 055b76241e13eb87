"""Where the project's data folders are, in a source checkout and in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_REPO = _PACKAGE.parent


def data_dir(name: str) -> Path:
    """Return the folder `name` (schemas, crawlers, pipelines, examples).

    A wheel carries them under cotbuilder/_data/; a checkout (editable install) has them at the repository top level.
    """
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _REPO / name


def package_data(relative: str) -> Path:
    """A file that lives inside the package itself (API lists, prompt templates, emulator headers)."""
    return _PACKAGE / relative
