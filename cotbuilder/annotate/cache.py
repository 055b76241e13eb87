"""Persistent teacher-response cache in the workspace (`cache/annotate/<k[:2]>/<key>.json`).

Keyed by (provider, server endpoint, model, parameters, prompt hash incl. prompt version): a re-run with the same
config finds every answer here and sends no request. Files are written atomically (temporary file, fsync, rename), so
a kill leaves either a whole entry or none. Entries hold the answer and the request's non-secret settings, never
credentials.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..hashing import sha256_text, stable_json
from .client import ChatResponse


def cache_key(
    *,
    provider: str,
    model: str,
    params: dict[str, Any],
    messages: list[dict[str, str]],
    prompt_version: str,
    endpoint: str | None = None,
) -> str:
    """`endpoint`: the server (normalised base URL, see client.endpoint_of): two servers serving the same model name
    may run different weights or quantisations, so their answers are not interchangeable."""
    prompt_hash = sha256_text(stable_json({"prompt_version": prompt_version, "messages": messages}))
    return sha256_text(
        stable_json(
            {"provider": provider, "endpoint": endpoint, "model": model, "params": params, "prompt": prompt_hash}
        )
    )


_PARTIAL = ".tmp-"  # prefix of an entry being written (renamed into place once complete)


class ResponseCache:
    def __init__(self, root: Path):
        self.root = root
        self._remove_partial()

    def _remove_partial(self, older_than_s: float = 60.0) -> None:
        """A run killed between writing an entry and renaming it into place leaves its temporary file: never an
        entry (get() cannot find it), only litter. One writing process per workspace: old ones are nobody's."""
        import time

        if not self.root.is_dir():
            return
        now = time.time()
        for path in self.root.glob(f"*/{_PARTIAL}*"):
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime > older_than_s:
                    path.unlink()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> ChatResponse | None:
        path = self._path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        r = data["response"]
        return ChatResponse(
            text=r["text"],
            finish_reason=r.get("finish_reason"),
            usage=r.get("usage") or {},
            refusal=r.get("refusal"),
            model=r.get("model"),
        )

    def put(self, key: str, response: ChatResponse, meta: dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {
            "key": key,
            "meta": meta,
            "response": {
                "text": response.text,
                "finish_reason": response.finish_reason,
                "usage": response.usage,
                "refusal": response.refusal,
                "model": response.model,
            },
        }
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=_PARTIAL, suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(payload, ensure_ascii=False))
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def __len__(self) -> int:
        """Complete entries (not files still being written, or left half-written by a killed run)."""
        if not self.root.is_dir():
            return 0
        return sum(1 for p in self.root.glob("*/*.json") if not p.name.startswith(_PARTIAL))
