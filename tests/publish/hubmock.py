"""A stand-in for the Hugging Face Hub's upload endpoints, served on 127.0.0.1 (the Hub itself cannot be reached here).

Only the routes huggingface_hub's `create_repo`, `preupload_lfs_files` and `create_commit` call are implemented (routes
read from huggingface_hub's source: hf_api.create_repo, _commit_api._fetch_upload_modes, lfs.post_lfs_batch_info,
lfs basic PUT transfer, the README metadata check api/validate-yaml, hf_api.create_commit's NDJSON payload including
deletedFile, and the file listing list_repo_files reads: GET /api/datasets/{repo}/tree/{revision}, one page).
Parquet files are answered as LFS like the real Hub
does; the Xet transfer protocol is not mocked (tests set HF_HUB_DISABLE_XET=1 so the client uses basic LFS).
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import yaml


class HubState:
    def __init__(self, conflicts: int = 0):
        self.repos: dict[str, dict[str, Any]] = {}
        self.lfs: dict[str, bytes] = {}  # oid -> uploaded bytes
        self.commits: list[dict[str, Any]] = []  # {repo, revision, header, files: {path: bytes}, lfs: {path: oid}}
        self.calls: list[tuple[str, str]] = []
        self.auth: set[str] = set()
        self.validated: list[str] = []
        self.conflicts_left = conflicts  # answer this many commits with 412 first (a moved branch)
        self.trees: dict[tuple[str, str], dict[str, int]] = {}  # (repo, revision) -> {path: size} after the commits


def _handler(state: HubState):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _body(self) -> bytes:
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def _json(self, code: int, payload: Any) -> None:
            data = json.dumps(payload).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            state.calls.append(("GET", self.path))
            parts = self.path.split("?", 1)[0].strip("/").split("/")
            if parts[:2] == ["api", "datasets"] and len(parts) == 6 and parts[4] == "tree":
                repo = f"{parts[2]}/{parts[3]}"
                if repo not in state.repos:
                    self.send_response(404)
                    self.send_header("X-Error-Code", "RepoNotFound")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                tree = state.trees.get((repo, parts[5]), {})
                return self._json(
                    200,
                    [
                        {"type": "file", "path": p, "size": n, "oid": hashlib.sha1(p.encode()).hexdigest()}
                        for p, n in sorted(tree.items())
                    ],
                )
            self._json(404, {"error": "no route"})

        def do_PUT(self) -> None:
            state.calls.append(("PUT", self.path))
            if self.path.startswith("/lfs-upload/"):
                oid = self.path.rsplit("/", 1)[1]
                body = self._body()
                assert hashlib.sha256(body).hexdigest() == oid
                state.lfs[oid] = body
                return self._json(200, {})
            self._json(404, {"error": "no route"})

        def do_POST(self) -> None:
            state.calls.append(("POST", self.path))
            state.auth.add(self.headers.get("authorization", ""))
            body = self._body()
            path = self.path.split("?", 1)[0]
            host = f"http://{self.headers['Host']}"
            if path == "/api/repos/create":
                req = json.loads(body)
                repo = f"{req.get('organization')}/{req['name']}" if req.get("organization") else req["name"]
                private = req.get("private") if "private" in req else req.get("visibility") == "private"
                state.repos.setdefault(repo, {"type": req.get("type"), "private": private})
                return self._json(200, {"url": f"{host}/datasets/{repo}", "name": repo, "id": "r1"})
            if path == "/api/validate-yaml":  # the card's metadata block, checked before the commit
                content = json.loads(body)["content"]
                state.validated.append(content)
                try:
                    meta = yaml.safe_load(content.split("---")[1]) if content.startswith("---") else None
                except yaml.YAMLError as exc:
                    return self._json(400, {"errors": [{"message": str(exc)}]})
                if not isinstance(meta, dict) or "license" not in meta:
                    return self._json(400, {"errors": [{"message": "metadata must be a mapping with a license"}]})
                return self._json(200, {"errors": [], "warnings": []})
            parts = path.strip("/").split("/")
            if parts[:2] == ["api", "datasets"] and len(parts) >= 6 and parts[4] == "preupload":
                files = json.loads(body)["files"]
                return self._json(
                    200,
                    {
                        "files": [
                            {
                                "path": f["path"],
                                "uploadMode": "lfs" if f["path"].endswith(".parquet") else "regular",
                                "shouldIgnore": False,
                            }
                            for f in files
                        ]
                    },
                )
            if path.endswith(".git/info/lfs/objects/batch"):
                req = json.loads(body)
                return self._json(
                    200,
                    {
                        "transfer": "basic",
                        "objects": [
                            {
                                "oid": o["oid"],
                                "size": o["size"],
                                "actions": {"upload": {"href": f"{host}/lfs-upload/{o['oid']}"}},
                            }
                            for o in req["objects"]
                            if o["oid"] not in state.lfs
                        ],
                    },
                )
            if parts[:2] == ["api", "datasets"] and len(parts) >= 6 and parts[4] == "commit":
                if state.conflicts_left:
                    state.conflicts_left -= 1
                    return self._json(412, {"error": "A commit has happened since. Please refresh and try again."})
                commit: dict[str, Any] = {
                    "repo": f"{parts[2]}/{parts[3]}",
                    "revision": parts[5],
                    "files": {},
                    "lfs": {},
                    "deleted": [],
                }
                for line in body.decode().splitlines():
                    item = json.loads(line)
                    if item["key"] == "header":
                        commit["header"] = item["value"]
                    elif item["key"] == "file":
                        commit["files"][item["value"]["path"]] = base64.b64decode(item["value"]["content"])
                    elif item["key"] == "lfsFile":
                        commit["lfs"][item["value"]["path"]] = item["value"]["oid"]
                    elif item["key"] == "deletedFile":
                        commit["deleted"].append(item["value"]["path"])
                tree = state.trees.setdefault((commit["repo"], commit["revision"]), {})
                for gone in commit["deleted"]:
                    if tree.pop(gone, None) is None:
                        return self._json(404, {"error": f"cannot delete {gone}: not in the repo"})
                tree.update({p: len(b) for p, b in commit["files"].items()})
                tree.update({p: len(state.lfs[o]) for p, o in commit["lfs"].items()})
                state.commits.append(commit)
                oid = hashlib.sha1(body).hexdigest()
                return self._json(
                    200,
                    {"commitUrl": f"{host}/datasets/{commit['repo']}/commit/{oid}", "commitOid": oid, "success": True},
                )
            self._json(404, {"error": f"no route {path}"})

    return Handler


class HubMock:
    def __init__(self, conflicts: int = 0):
        self.state = HubState(conflicts)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self.state))
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> HubMock:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
