"""The build cache under concurrency: real g++, the real sandbox, real files; two builds of identical sources race."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

from cotbuilder.verify import build as buildmod

from .conftest import copy_run_pch

# A large .data section makes the cached binary big, so a copy over it takes long enough to be seen half-done.
BIG_PROGRAM = "static volatile char blob[48 << 20] = {1};\nint main() { return blob[0] == 1 ? 0 : 3; }\n"


def _build(workdir: Path, cache: Path) -> buildmod.BuildResult:
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "k.cpp").write_text(BIG_PROGRAM, encoding="utf-8")
    return buildmod.build(
        workdir, ["k.cpp"], [], "ascend910b", cache, sources_digest="same-sources", pch=None, opt="-O0"
    )


def test_a_second_store_of_the_same_key_never_exposes_done_with_a_partial_binary(tmp_path):
    """Two units with identical sources both miss the cache and both store the entry (as under --jobs 2): while the
    second one writes, a reader that trusts `done` must always find the complete binary."""
    cache = tmp_path / "cache"
    first = _build(tmp_path / "a", cache)
    assert first.ok and not first.cached, first.log
    [entry] = list((cache / "builds").iterdir())
    full = (entry / "bin").stat().st_size
    assert full > 40 << 20
    # the second builder missed the cache before the first one finished: hide `done` while it checks, then restore it
    # as the first builder would have written it, while the second one is still compiling
    (entry / "done").rename(tmp_path / "done.first")
    second: list[buildmod.BuildResult] = []
    writer = threading.Thread(target=lambda: second.append(_build(tmp_path / "b", cache)))
    writer.start()
    time.sleep(0.05)
    (tmp_path / "done.first").rename(entry / "done")
    partial_seen = []
    while writer.is_alive():
        try:
            if (entry / "done").is_file() and os.stat(entry / "bin").st_size != full:
                partial_seen.append(os.stat(entry / "bin").st_size)
        except FileNotFoundError:
            partial_seen.append(-1)  # `done` without any binary is as wrong as a truncated one
    writer.join()
    assert second and second[0].ok and not second[0].cached, second and second[0].log
    assert not partial_seen, f"done was visible with bin sizes {sorted(set(partial_seen))[:5]} (full {full})"
    assert not [p.name for p in entry.iterdir() if ".tmp" in p.name]  # no temp files left behind
    third = _build(tmp_path / "c", cache)
    assert third.cached and third.ok and len(third.binary) == full
    rundir = buildmod.sandbox.default_session().new_dir("run-")
    (rundir / "prog").write_bytes(third.binary)
    (rundir / "prog").chmod(0o755)
    assert buildmod.sandbox.run(["./prog"], rundir, buildmod.COMPILE_LIMITS).ok


def test_a_copied_workspace_cache_still_hits_though_its_precompiled_header_lives_elsewhere(
    tmp_path, shared_verify_cache
):
    """The PCH path is part of every compile command; the cache key names the PCH by its key, so a workspace that is
    moved or copied (cache included) rebuilds nothing. A PCH built with other flags is still another key.
    The first workspace's PCHs (both levels) are the run's, copied in: what is tested is where they live, not how
    they were built (ensure_pch finds them in this cache; building them here took two PCH builds)."""
    import shutil

    for opt in ("-O1", "-O0"):
        copy_run_pch(shared_verify_cache, tmp_path / "ws1" / "cache", opt)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "k.cpp").write_text("int main() { return 0; }\n", encoding="utf-8")

    def build_in(cache: Path, workdir: Path, opt: str = "-O1") -> buildmod.BuildResult:
        pch = buildmod.ensure_pch(cache, "ascend910b", opt)
        assert pch.header is not None and str(pch.header).startswith(str(cache.resolve())), pch.error
        return buildmod.build(workdir, ["k.cpp"], [], "ascend910b", cache, "one-source", pch, opt=opt)

    first = build_in(tmp_path / "ws1" / "cache", tmp_path / "a")
    assert first.ok and not first.cached, first.log
    shutil.copytree(tmp_path / "ws1", tmp_path / "ws2")
    shutil.rmtree(tmp_path / "ws1")  # the first workspace's paths no longer exist
    again = build_in(tmp_path / "ws2" / "cache", tmp_path / "a")
    assert again.ok and again.cached
    other_flags = build_in(tmp_path / "ws2" / "cache", tmp_path / "a", opt="-O0")
    assert other_flags.ok and not other_flags.cached
