"""A real OpenAI-compatible chat-completions server on 127.0.0.1 for the tests and the benchmark.

Threaded (one thread per connection, HTTP/1.1 keep-alive), with scripted replies consumed in order and a default
reply after that, a fixed latency, and a log of every request it received (time, unit, body).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_UNIT_RE = re.compile(r'unit "([^"]+)"|单元 "([^"]+)"')


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # assistant text (None: the default good answer)
    finish_reason: str = "stop"
    refusal: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (a timeout test makes this long)
    error: str = "scripted error"
    usage: dict[str, int] | None = None
    raw: bytes | None = None  # the whole body as is (a proxy's HTML page, broken JSON), sent with `content_type`
    content_type: str = "application/json"


def good_answer(name: str) -> str:
    """A valid annotation for the add-style test units: no numbers, only APIs the add kernel uses."""
    return json.dumps(
        {
            "task": f"Write an AscendC kernel named {name} that adds two half-precision tensors x and y element by "
            "element and writes the sum to z, for the Ascend AI Core.",
            "rationale": [
                {
                    "step": "operator_analysis",
                    "title": "Operator analysis",
                    "text": "The operator is a plain element-wise sum of two equally shaped inputs; there is no reduction "
                    "and no data dependence between elements.",
                },
                {
                    "step": "multi_core_split",
                    "title": "Multi-core split",
                    "text": "Every AI core takes its own contiguous slice, found from `GetBlockIdx`, so cores never touch "
                    "the same data.",
                },
                {
                    "step": "pipeline",
                    "title": "Pipeline",
                    "text": "Each tile goes through CopyIn, Compute and CopyOut; `DataCopy` moves tiles between global "
                    "memory and the Unified Buffer, and queues hand them between the stages.",
                },
                {
                    "step": "api_choice",
                    "title": "API choice",
                    "text": "The sum itself is a single vector `Add` on the local tensors of one tile.",
                },
            ],
        }
    )


def completion_body(
    model: str, content: str | None, finish_reason: str, refusal: str | None, usage: dict[str, int]
) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {
                "index": 0,
                "finish_reason": finish_reason,
                "message": {"role": "assistant", "content": content, "refusal": refusal},
            }
        ],
        "usage": {**usage, "total_tokens": usage["prompt_tokens"] + usage["completion_tokens"]},
    }


class ChatServer:
    def __init__(
        self,
        *,
        latency: float = 0.0,
        usage: dict[str, int] | None = None,
        answer: Callable[[str, dict[str, Any]], str] | None = None,
        reject_json_schema: bool = False,
    ):
        self.latency = latency
        self.usage = usage or {"prompt_tokens": 1000, "completion_tokens": 500}
        self.answer = answer or (lambda name, body: good_answer(name))
        self.reject_json_schema = reject_json_schema
        self.script: list[Reply] = []
        self.log: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:  # noqa: N802  -- /stats: how many requests arrived (for a server in a subprocess)
                data = json.dumps({"requests": len(server.log)}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                server._handle(self, body)

        class Server(ThreadingHTTPServer):
            request_queue_size = 256  # the default backlog of 5 refuses bursts of concurrent connections

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def start(self) -> ChatServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self) -> ChatServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def answered(self) -> list[dict[str, Any]]:
        """Requests the server answered with 200 (completed requests)."""
        return [e for e in self.log if e["status"] == 200 and e.get("delivered")]

    # -- handling ---------------------------------------------------------------------------------------------
    def _handle(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        prompt = "\n".join(m.get("content") or "" for m in body.get("messages", []))
        m = _UNIT_RE.search(prompt)
        name = (m.group(1) or m.group(2)) if m else "?"
        with self._lock:
            reply = self.script.pop(0) if self.script else Reply()
            entry = {
                "t": time.monotonic(),
                "unit": name,
                "body": body,
                "status": reply.status,
                "auth": handler.headers.get("Authorization"),
                "delivered": False,
            }
            self.log.append(entry)
        if self.reject_json_schema and (body.get("response_format") or {}).get("type") == "json_schema":
            reply = Reply(status=400, error="response_format json_schema is not supported")
            entry["status"] = 400
        time.sleep(self.latency + reply.delay)
        if reply.raw is not None:
            data = reply.raw
        elif reply.status != 200:
            payload = {"error": {"message": reply.error, "type": "test", "code": reply.status}}
        else:
            content = (
                reply.content if reply.content is not None else (None if reply.refusal else self.answer(name, body))
            )
            payload = completion_body(
                body.get("model", "?"), content, reply.finish_reason, reply.refusal, reply.usage or self.usage
            )
        if reply.raw is None:
            data = json.dumps(payload).encode()
        try:
            handler.send_response(reply.status)
            handler.send_header("Content-Type", reply.content_type)
            handler.send_header("Content-Length", str(len(data)))
            for k, v in reply.headers.items():
                handler.send_header(k, v)
            handler.end_headers()
            handler.wfile.write(data)
            handler.wfile.flush()
            entry["delivered"] = True
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout test)


def serve_in_subprocess(latency: float, port_queue) -> None:
    """Entry point for multiprocessing: a server in its own process (its threads then do not compete with the client
    for the GIL, as with a real remote server). Sends its URL through `port_queue`, serves until terminated."""
    srv = ChatServer(latency=latency).start()
    port_queue.put(srv.url)
    threading.Event().wait()
