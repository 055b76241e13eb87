"""A local OpenAI-protocol chat-completions server on 127.0.0.1 that answers from a script: per task (found by its
entry name in the prompt) and per request seed (cotbuilder sends the sample index as the seed), one reply. It
records every request, so a test sees what was asked how often. Real HTTP, real `openai` client on the other side."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ScriptedTeacher:
    def __init__(self, script: dict[str, list[str]], *, delay: float = 0.0, repairs: dict[str, str] | None = None):
        self.script = script  # task entry name -> reply per seed
        self.repairs = repairs or {}  # task entry name -> reply to a repair prompt
        self.delay = delay
        self.requests: Counter[tuple[str, int | None, bool]] = Counter()
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> ScriptedTeacher:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def reply(self, body: dict) -> str:
        prompt = "\n".join(m["content"] for m in body["messages"])
        repair = "failed verification" in body["messages"][-1]["content"]
        seed = body.get("seed")
        task = next((name for name in self.script if f"void {name}(" in prompt or f"`{name}(" in prompt), None)
        with self._lock:
            self.requests[(task or "?", seed, repair)] += 1
        if task is None:
            return "I do not know this task."
        if repair:
            return self.repairs.get(task, "No idea how to fix it.")
        replies = self.script[task]
        return replies[(seed or 0) % len(replies)]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        teacher = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if teacher.delay:
                    time.sleep(teacher.delay)
                text = teacher.reply(body)
                payload = json.dumps({
                    "id": "cmpl-1", "object": "chat.completion", "created": 0, "model": body["model"],
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 100, "completion_tokens": len(text) // 4,
                              "total_tokens": 100 + len(text) // 4},
                }).encode()  # fmt: skip
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        return Handler
