"""`cotbuilder serve` as a real server on 127.0.0.1: 200 concurrent requests get the scores direct calls give, bad
bodies get 4xx, SIGTERM stops it cleanly."""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cotbuilder.reward import Scorer
from cotbuilder.tasks.toml_loader import load_file

from .conftest import COMPILE_ERROR, REPO, RIGHT, TASK_TOML, WRONG, cache_root

REPO_TASKS = REPO / "examples" / "tasks"

COMPARED = ("status", "reward", "compiled", "correct", "errors", "cases", "task_id", "code_hash", "backend")
MAX_BODY = 100_000


def _task_dir(tmp: Path) -> Path:
    """add_fp16 with one seed, as a task.toml folder the server loads."""
    text = TASK_TOML.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^answer = .*$", "", text).replace("seeds = [0, 1]", "seeds = [0]")
    folder = tmp / "tasks" / "add_fp16"
    folder.mkdir(parents=True)
    (folder / "task.toml").write_text(text, encoding="utf-8")
    return tmp / "tasks"


@pytest.fixture
def server(tmp_path, shared_build_cache):
    """A real `cotbuilder serve` process; yields (port, process, tasks dir)."""
    tasks = _task_dir(tmp_path)
    ws = tmp_path / "ws"
    cache_root(ws, shared_build_cache)
    cmd = [sys.executable, "-m", "cotbuilder.cli", "--workspace", str(ws), "serve", "--port", "0", "--tasks",
           str(tasks), "--concurrency", "2", "--max-body", str(MAX_BODY), "--max-batch", "8"]  # fmt: skip
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env={**os.environ, "COLUMNS": "200"})
    deadline, line = time.monotonic() + 60, ""
    while time.monotonic() < deadline and "serving" not in line:
        ready, _, _ = select.select([proc.stderr], [], [], 1.0)
        if ready:
            line = proc.stderr.readline()
            if not line and proc.poll() is not None:
                break
    m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    assert m, f"server did not start: {line!r} {proc.poll()}"
    try:
        yield int(m.group(1)), proc, tasks
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _post(port: int, path: str, body: bytes | dict, timeout: float = 600) -> tuple[int, dict]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        conn.request("POST", path, body=data, headers={"Content-Type": "application/json"})
        resp = conn.getresponse()
        return resp.status, json.loads(resp.read())
    finally:
        conn.close()


def _raw(port: int, request: bytes) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(request)
        return s.recv(65536).decode()


def _same(served: dict, direct) -> bool:
    return all(served[k] == getattr(direct, k) for k in COMPARED)


def test_200_concurrent_requests_get_the_scores_of_direct_calls(server, tmp_path, shared_build_cache):
    port, proc, tasks = server
    task = load_file(tasks / "add_fp16" / "task.toml")
    direct_scorer = Scorer(cache_root(tmp_path / "direct", shared_build_cache))  # its own score cache
    answers = [RIGHT, WRONG, COMPILE_ERROR, ""]
    direct = [direct_scorer.score(a, task) for a in answers]
    assert [d.reward for d in direct] == [1.0, 0.1, 0.0, 0.0]

    def request(i: int) -> list[tuple[int, dict]]:
        if i % 10 == 9:  # every tenth request is a batch of three
            items = [{"task": "add_fp16", "code": answers[(i + k) % 4]} for k in range(3)]
            status, body = _post(port, "/score_batch", {"items": items})
            return [(status, s | {"_answer": (i + k) % 4}) for k, s in enumerate(body["scores"])]
        key = task.task_id if i % 2 else "add_fp16"  # by id or by name
        status, body = _post(port, "/score", {"task": key, "code": answers[i % 4]})
        return [(status, body | {"_answer": i % 4})]

    with ThreadPoolExecutor(max_workers=50) as pool:
        results = [r for rs in pool.map(request, range(200)) for r in rs]
    assert len(results) == 180 + 20 * 3
    assert all(status == 200 for status, _ in results)
    for _, served in results:
        assert _same(served, direct[served["_answer"]]), served
    # the concurrency limit held: identical answers were computed once, the rest came from the score cache
    assert sum(not s["cached"] for _, s in results if s["status"] != "unparseable") <= 3

    status, health = 0, {}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/health")
    resp = conn.getresponse()
    status, health = resp.status, json.loads(resp.read())
    assert status == 200 and health["ok"] and health["tasks"] == 1

    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 0
    assert "stopped" in proc.stderr.read()


def test_oversize_and_malformed_bodies_get_4xx(server):
    port, proc, _ = server
    cases = [
        ("/score", b"{not json", 400, "not JSON"),
        ("/score", b"[1, 2]", 400, "JSON object"),
        ("/score", {"task": "add_fp16"}, 400, '"code" must be'),
        ("/score", {"task": "add_fp16", "code": 7}, 400, '"code" must be'),
        ("/score", {"task": "nope", "code": RIGHT}, 404, "unknown task"),
        ("/score_batch", {"items": []}, 400, "at least one item"),
        ("/score_batch", {"items": [{"task": "add_fp16", "code": ""}] * 9}, 413, "at most 8"),
        ("/score_batch", {"items": ["add_fp16"]}, 400, "an item is"),
        ("/elsewhere", {}, 404, "no such endpoint"),
        ("/score", b"\xff\xfe", 400, "not JSON"),
    ]
    for path, body, want, text in cases:
        status, answer = _post(port, path, body, timeout=30)
        assert (status, text in answer["error"]) == (want, True), (path, body, answer)
    # a declared body above --max-body is refused before a byte of it is read
    head = f"POST /score HTTP/1.1\r\nHost: x\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n".encode()
    assert _raw(port, head).startswith("HTTP/1.0 413")
    assert _raw(port, b"POST /score HTTP/1.1\r\nHost: x\r\n\r\n").startswith("HTTP/1.0 411")
    # and the server still serves
    status, answer = _post(port, "/score", {"task": "add_fp16", "code": ""}, timeout=30)
    assert (status, answer["status"]) == (200, "unparseable")
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 0


def test_serve_without_tasks_refuses_with_one_line(tmp_path, cli):
    res = cli("serve", "--port", "0", workspace=tmp_path / "ws")
    assert res.returncode == 2 and "no tasks" in res.stderr


def test_served_tasks_come_from_the_store_and_from_folders(tmp_path, cli):
    from cotbuilder.reward.server import load_tasks

    ws = tmp_path / "ws"
    assert cli("tasks", str(REPO_TASKS), workspace=ws).returncode == 0
    extra = _task_dir(tmp_path)  # add_fp16 with one seed: another task of the same name
    index = load_tasks(ws, [extra])
    stored = load_file(REPO_TASKS / "add_fp16" / "task.toml")
    assert stored.task_id in index and index[stored.task_id].name == "add_fp16"
    assert index["add_fp16"].cases[0]["seeds"] == [0]  # the folder's task wins the name
    assert "swish_custom" in index
