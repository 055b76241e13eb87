"""Where the project's data folders are, in a source checkout and in an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_REPO = _PACKAGE.parent


def data_dir(name: str) -> Path:
    """Return the folder `name` (schemas, crawlers, pipelines, examples, emulator).

    A wheel carries them under cotbuilder/_data/; a checkout (editable install) has them at the repository top level.
    """
    packaged = _PACKAGE / "_data" / name
    if packaged.is_dir():
        return packaged
    return _REPO / name


def emulator_dir() -> Path:
    """The clean-room AscendC emulator (C++ headers under include/, its data files, its C++ tests)."""
    return data_dir("emulator")


def emulator_include_dirs() -> tuple[Path, ...]:
    """The -I roots a kernel is compiled with: include/ (kernel_operator.h, adv_api/, lib/, host shims) and
    include/basic_api/, so the bare spelling `#include "kernel_tpipe.h"` resolves as with the real toolkit."""
    include = emulator_dir() / "include"
    return (include, include / "basic_api")


def package_data(relative: str) -> Path:
    """A file that lives inside the package itself (API lists, prompt templates, emulator headers)."""
    return _PACKAGE / relative
