"""`cotbuilder verify`'s settings: kept apart from the stage so the CLI can build them without importing the
harnesses (numpy and friends) at start-up."""

from __future__ import annotations

from dataclasses import dataclass, field

SOCS = ("ascend910b", "ascend310p")


@dataclass
class VerifyConfig:
    device: str = "cpu"  # cpu | npu:N | cann-cpu
    soc: str = "ascend910b"
    jobs: int = 1
    limit: int | None = None  # verify at most this many (not yet verified) units
    unit: str | None = None  # only this unit (id or unique id prefix)
    layouts: list[str] = field(default_factory=lambda: ["kernel_launch", "op_project", "snippet"])
    seeds: list[int] = field(default_factory=lambda: [0, 1])
    cpu_s: int = 60  # sandbox limits for generators, kernels, checkers
    wall_s: float = 120.0
    memory_mb: int = 4096
    pch: bool = True  # precompiled emulator header
    build_cache: bool = True
    opt: str = "-O1"
    keep_workdirs: bool = False
    progress: bool = True
