"""`cotbuilder serve`: the reward over HTTP, JSON in and out, for RL trainers (docs/reward.md).

The standard library's ThreadingHTTPServer: one thread per request is plenty for a service whose every request waits
on g++ and sandboxed runs, and it adds no dependency to the package. Scoring itself goes through one pool of
`concurrency` workers (the machine's cores are the limit, not the sockets); bodies above `max_body` are refused
with 413 before they are read, malformed ones with 400.

POST /score        {"task": name | task_id, "code": str | {path: text}} or {"task", "completion": str} -> Score
POST /score_batch  {"items": [{"task", "code" | "completion"}, ...]}                         -> {"scores": [Score]}
GET  /health       {"ok": true, "tasks": n, "backend": ...}
GET  /tasks        {"tasks": [{"name", "task_id", "layout"}]}
"""

from __future__ import annotations

import json
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..tasks.task import Task
from .scoring import Scorer


class ServeError(RuntimeError):
    """The server cannot start (no tasks, port taken, sandbox missing): one line for the CLI, exit 2."""


class BadRequest(ValueError):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


class RewardServer(ThreadingHTTPServer):
    daemon_threads = False  # server_close() waits for requests in flight: a clean shutdown answers them
    request_queue_size = 1024  # a trainer opens many connections at once; the listen backlog must hold them

    def __init__(
        self,
        address: tuple[str, int],
        scorer: Scorer,
        tasks: dict[str, Task],
        *,
        concurrency: int = 2,
        max_body: int = 1_000_000,
        max_batch: int = 256,
        max_pending: int = 4096,
    ):
        super().__init__(address, Handler)
        self.scorer, self.tasks = scorer, tasks
        self.max_body, self.max_batch, self.max_pending = max_body, max_batch, max_pending
        self.pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="score")
        self._pending = 0
        self._lock = threading.Lock()

    def task(self, key: Any) -> Task:
        if not isinstance(key, str) or key not in self.tasks:
            raise BadRequest(404, f"unknown task {key!r} (GET /tasks lists them)")
        return self.tasks[key]

    def score_all(self, items: list[tuple[Any, Task]]) -> list[dict[str, Any]]:
        """Score (code, task) pairs through the pool; 503 when too much is already waiting."""
        with self._lock:
            if self._pending + len(items) > self.max_pending:
                raise BadRequest(503, f"busy: {self._pending} scores waiting (limit {self.max_pending})")
            self._pending += len(items)
        try:
            futures = [self.pool.submit(self.scorer.score, code, task) for code, task in items]
            return [f.result().as_dict() for f in futures]
        finally:
            with self._lock:
                self._pending -= len(items)

    def close(self) -> None:
        self.server_close()  # joins the request threads (their scores finish first)
        self.pool.shutdown(wait=True)


class Handler(BaseHTTPRequestHandler):
    server: RewardServer
    protocol_version = "HTTP/1.0"  # one request per connection: nothing idles across a shutdown
    timeout = 60  # seconds a client may take to send its body

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        if self.path == "/health":
            self._send(200, {"ok": True, "tasks": len({t.task_id for t in self.server.tasks.values()}),
                             "backend": self.server.scorer.backend})  # fmt: skip
        elif self.path == "/tasks":
            seen = {t.task_id: t for t in self.server.tasks.values()}
            self._send(200, {"tasks": [{"name": t.name, "task_id": t.task_id, "layout": t.layout}
                                       for t in sorted(seen.values(), key=lambda t: t.name)]})  # fmt: skip
        else:
            self._send(404, {"error": f"no such endpoint: GET {self.path}"})

    def do_POST(self) -> None:  # noqa: N802
        try:
            if self.path not in ("/score", "/score_batch"):
                raise BadRequest(404, f"no such endpoint: POST {self.path}")
            body = self._body()
            if self.path == "/score":
                self._send(200, self.server.score_all([self._item(body)])[0])
            else:
                items = body.get("items")
                if not isinstance(items, list) or not items:
                    raise BadRequest(400, 'a batch is {"items": [{"task", "code"}, ...]} with at least one item')
                if len(items) > self.server.max_batch:
                    raise BadRequest(413, f"batch of {len(items)} items; at most {self.server.max_batch}")
                self._send(200, {"scores": self.server.score_all([self._item(i) for i in items])})
        except BadRequest as exc:
            self._send(exc.code, {"error": str(exc)})
        except Exception as exc:  # a bug of ours: the client gets JSON and a 500, the server keeps serving
            self._send(500, {"error": f"{type(exc).__name__}: {exc}"})

    def _body(self) -> dict[str, Any]:
        length = self.headers.get("Content-Length")
        if length is None:
            raise BadRequest(411, "Content-Length is required")
        try:
            n = int(length)
        except ValueError as exc:
            raise BadRequest(400, "Content-Length is not a number") from exc
        if n < 0 or n > self.server.max_body:
            self.close_connection = True  # the body is not read: the connection cannot be reused
            raise BadRequest(413, f"body of {n} bytes; at most {self.server.max_body}")
        raw = self.rfile.read(n)
        if len(raw) != n:
            raise BadRequest(400, f"body ended after {len(raw)} of {n} bytes")
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise BadRequest(400, f"body is not JSON: {exc}") from exc
        if not isinstance(body, dict):
            raise BadRequest(400, "body must be a JSON object")
        return body

    def _item(self, item: Any) -> tuple[Any, Task]:
        if not isinstance(item, dict):
            raise BadRequest(400, 'an item is {"task": ..., "code": ...}')
        task = self.server.task(item.get("task"))
        code = item.get("code", item.get("completion"))
        if isinstance(code, str) or (isinstance(code, dict) and all(isinstance(v, str) for v in code.values())):
            return code, task
        raise BadRequest(400, '"code" must be a string or {path: text} ("completion": a model\'s text)')

    def _send(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - one line per request is noise here
        pass


def load_tasks(workspace: Path, task_dirs: list[Path]) -> dict[str, Task]:
    """{name: task, task_id: task} from the workspace's `tasks` table and the given task.toml folders (a folder's
    task wins over a stored one of the same name)."""
    from ..store import Store, StoreError
    from ..tasks.stored import load_all
    from ..tasks.toml_loader import TaskError, load_folder

    found: list[Task] = []
    if (workspace / "store.duckdb").exists():
        try:
            with Store(workspace, read_only=True) as store:
                found += load_all(store)
        except StoreError as exc:
            raise ServeError(str(exc)) from exc
    for folder in task_dirs:
        try:
            tasks, errors = load_folder(folder)
        except TaskError as exc:
            raise ServeError(str(exc)) from exc
        if errors:
            raise ServeError(errors[0].message)
        found += tasks
    index: dict[str, Task] = {}
    for t in found:
        index[t.name] = index[t.task_id] = t
    return index


def serve_forever(
    workspace: Path | None,
    host: str,
    port: int,
    task_dirs: list[Path],
    concurrency: int,
    max_body: int,
    max_batch: int,
    soc: str,
    allow_weak_sandbox: bool = False,
    log: Callable[[str], None] = print,
) -> None:
    from ..store import resolve_workspace
    from ..verify import sandbox

    if concurrency < 1 or max_body < 1 or max_batch < 1:
        raise ServeError("--concurrency, --max-body and --max-batch must be at least 1")
    ws = resolve_workspace(workspace)
    tasks = load_tasks(ws, task_dirs)
    if not tasks:
        raise ServeError(f"no tasks in {ws}: import some with `cotbuilder tasks DIR`, or pass --tasks DIR")
    try:
        sandbox.check_isolation(allow_weak_sandbox)
    except sandbox.IsolationMissing as exc:
        raise ServeError(str(exc)) from exc
    (ws / "cache").mkdir(parents=True, exist_ok=True)
    sandbox.cleanup_dead_runs(ws / "sandbox")
    session = sandbox.open_session(ws / "sandbox", allow_missing=allow_weak_sandbox)
    try:
        scorer = Scorer(ws / "cache", soc=soc, session=session)
        try:
            server = RewardServer(
                (host, port), scorer, tasks, concurrency=concurrency, max_body=max_body, max_batch=max_batch
            )
        except OSError as exc:
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
        stop = threading.Event()

        def on_signal(signum: int, _frame: Any) -> None:
            if not stop.is_set():
                stop.set()
                threading.Thread(target=server.shutdown, daemon=True).start()  # shutdown() waits for the loop

        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        n = len({t.task_id for t in tasks.values()})
        log(f"serving {n} tasks on http://{host}:{server.server_address[1]} (concurrency {concurrency})")
        try:
            server.serve_forever(poll_interval=0.2)
        finally:
            server.close()
            for s, handler in previous.items():
                signal.signal(s, handler)
        log("stopped")
    finally:
        sandbox.close_session(session)
