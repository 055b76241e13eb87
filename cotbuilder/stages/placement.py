"""What the executor placed on this process: the accelerators a Ray task was given (none on the local executor).

Light on purpose (imported by stages): Ray is looked up only if this process already imported and initialised it,
which a Ray worker always has and a local pool worker never has.
"""

from __future__ import annotations

import sys


def assigned_accelerators(name: str) -> list[str]:
    """The ids of the `name` accelerators ("NPU", "GPU") Ray assigned to the running task; [] outside Ray."""
    ray = sys.modules.get("ray")
    if ray is None or not ray.is_initialized():
        return []
    try:
        ids = ray.get_runtime_context().get_accelerator_ids().get(name)
    except Exception:  # noqa: BLE001 -- the driver process, or an older Ray: nothing assigned
        return []
    return [str(i) for i in ids or []]


def on_ray_worker() -> bool:
    """True inside a Ray worker process (a task or an actor), which may run on another machine than the driver."""
    ray = sys.modules.get("ray")
    if ray is None or not ray.is_initialized():
        return False
    try:
        return ray.get_runtime_context().worker.mode == ray.WORKER_MODE
    except Exception:  # noqa: BLE001 -- an older Ray without these names: the driver is the only case we can tell
        return False
