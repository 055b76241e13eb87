"""One local Ray cluster (2 CPUs) per test run, shared by every xdist worker that needs it.

Starting Ray takes 10-20 s, so it is started once: the first worker to ask starts it (`ray.init(address="local")`,
owned by that worker's process) and writes its address under a file lock; the others connect to that address, and so
do the CLI subprocesses the tests run (`--ray-address`). Each worker holds a shared lock on `users` for as long as its
session lasts; the owner, at its session end, waits for the exclusive lock (every other user gone), withdraws the
address (a worker arriving later starts its own) and shuts the cluster down.

Ray (2.5x+) starts a local cluster with token authentication and, to connect to a given address, needs
RAY_AUTH_MODE=token and the token. The run makes its own token (in the run's temp dir, never ~/.ray) and puts both in
the environment of every test process, so the connecting workers and the CLI subprocesses present it.
"""

from __future__ import annotations

import fcntl
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest


def _use_token(path: Path) -> None:
    """Token authentication with the run's token, for this process and the processes it starts. Ray reads
    RAY_AUTH_MODE into its config when it is imported, so a Ray already imported re-reads it (as Ray itself does
    when it turns token mode on for a new local cluster)."""
    os.environ.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(path))
    from ray._raylet import AuthenticationTokenLoader, Config

    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()


@pytest.fixture(scope="session")
def ray_address(run_root: Path) -> Iterator[str]:
    import ray

    root = run_root / "ray-once"
    root.mkdir(parents=True, exist_ok=True)
    address_file = root / "address"
    users = open(root / "users", "w")  # noqa: SIM115 -- held (shared) until this session ends
    fcntl.flock(users, fcntl.LOCK_SH)
    owner = False
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        token = root / "auth-token"
        if not token.is_file():
            token.touch(mode=0o600)
            token.write_text(secrets.token_hex(32))
        _use_token(token)
        if address_file.is_file():
            address = address_file.read_text()
            ray.init(address=address, log_to_driver=False, logging_level="WARNING")
        else:
            ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="WARNING")
            address = ray.get_runtime_context().gcs_address
            address_file.write_text(address)
            owner = True
    try:
        yield address
    finally:
        if owner:
            fcntl.flock(users, fcntl.LOCK_EX)  # every other worker's session has ended
            with open(root / "lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                address_file.unlink(missing_ok=True)
        ray.shutdown()  # the owner's shutdown stops the cluster it started
        users.close()
