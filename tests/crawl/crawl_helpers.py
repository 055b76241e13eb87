"""Helpers shared by the crawl tests (imported by name: tests/crawl is put on sys.path by conftest.py)."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "Test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}

# Small AscendC kernel written for these tests.
KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ half *)x, n);
        yGm.SetGlobalBuffer((__gm__ half *)y, n);
        pipe.InitBuffer(inQ, BUFFER_NUM, n * sizeof(half));
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    GlobalTensor<half> xGm, yGm;
};

extern "C" __global__ __aicore__ void scale_{name}(GM_ADDR x, GM_ADDR y)
{
    KernelScale op;
    op.Init(x, y, 1024);
}
"""


def kernel(name: str = "a") -> str:
    return KERNEL.replace("{name}", name)


def git(repo: Path, *args: str) -> str:
    proc = subprocess.run(
        ["git", *args], cwd=repo, capture_output=True, text=True, env={**os.environ, **GIT_ENV}, check=True
    )
    return proc.stdout.strip()


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


def commit_all(repo: Path, message: str) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def make_repo(root: Path, files: dict[str, str | bytes], message: str = "first") -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    write_files(root, files)
    commit_all(root, message)
    return root


def crawl(workspace: Path, **config):
    """Run the crawl stage in-process; return (stats, store) with the store re-opened read-only for checks."""
    from cotbuilder.crawl.stage import CrawlConfig, run
    from cotbuilder.store import Store

    with Store(workspace) as store:
        stats = run(store, CrawlConfig(**config))
    return stats


def rows(workspace: Path, sql: str, params=None):
    from cotbuilder.store import Store

    with Store(workspace, read_only=True) as store:
        return store.rows(sql, params)


def closed_port() -> int:
    """A port on 127.0.0.1 nobody listens on (bound then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
