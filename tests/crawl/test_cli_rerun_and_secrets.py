"""Through the CLI as a user runs it: an unchanged re-run clones and parses nothing and says so; secrets are redacted
(or the file dropped) and never reach the store, the cache outside the clone, or the output."""

from __future__ import annotations

import json
from pathlib import Path

from crawl_helpers import kernel, make_repo, rows

SECRET_TOKEN = "hf_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1JkLmNb"
SECRET_PASSWORD = "Vq7!tY3#pR8sWm2z"


def _snapshot(folder: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in folder.rglob("*")}


def test_unchanged_rerun_clones_nothing_parses_nothing_and_says_unchanged(tmp_path, cli, workspace):
    repo = make_repo(tmp_path / "repo", {"op/op.cpp": kernel("op"), "LICENSE": "Apache License\nVersion 2.0\n"})
    first = cli("crawl", "--source", repo.as_uri(), workspace=workspace)
    assert first.returncode == 0, first.stderr
    cache = workspace / "cache" / "git"
    before = _snapshot(cache)
    store_rows = rows(workspace, "SELECT file_id, crawled_at FROM files ORDER BY 1")
    second = cli("crawl", "--source", repo.as_uri(), workspace=workspace)
    assert second.returncode == 0, second.stderr
    assert "unchanged, skipped" in second.stderr
    assert _snapshot(cache) == before, "the clone cache must not be touched"
    assert rows(workspace, "SELECT file_id, crawled_at FROM files ORDER BY 1") == store_rows
    (last_run,) = rows(workspace, "SELECT counts FROM runs WHERE stage = 'crawl' ORDER BY started_at DESC LIMIT 1")
    counts = last_run["counts"]
    assert counts.get("sources unchanged") == 1 and "git clones" not in counts and "units" not in counts


def _secret_repo(tmp_path: Path) -> Path:
    host = (
        '#include "acl/acl.h"\nint main() {\n'
        f'    const char* password = "{SECRET_PASSWORD}";\n'
        f'    const char* hub = "{SECRET_TOKEN}";\n    return 0;\n}}\n'
    )
    return make_repo(
        tmp_path / "repo",
        {"op/op.cpp": kernel("op"), "op/main.cpp": host, "op/scripts/upload.py": f"TOKEN = '{SECRET_TOKEN}'\n"},
    )


def _assert_nowhere(workspace: Path, *outputs: str) -> None:
    for text in outputs:
        assert SECRET_TOKEN not in text and SECRET_PASSWORD not in text
    clone_dir = workspace / "cache" / "git"
    in_clone = [p for p in clone_dir.rglob("*") if p.is_file() and SECRET_TOKEN.encode() in p.read_bytes()]
    assert in_clone, "the scan below must be able to see the secret: the clone (the source as published) has it"
    for path in workspace.rglob("*"):
        if not path.is_file() or path.is_relative_to(clone_dir):
            continue  # the clone is the source itself; nothing derived from it is kept anywhere else
        data = path.read_bytes()
        assert SECRET_TOKEN.encode() not in data, path
        assert SECRET_PASSWORD.encode() not in data, path


def test_secrets_are_redacted_and_never_stored_or_printed(tmp_path, cli, workspace):
    repo = _secret_repo(tmp_path)
    proc = cli("crawl", "--source", str(repo), workspace=workspace)
    assert proc.returncode == 0, proc.stderr
    files = {r["path"]: r for r in rows(workspace, "SELECT path, text, secrets FROM files")}
    main = files["op/main.cpp"]
    assert "<REDACTED:Secret_Keyword>" in main["text"] and "<REDACTED:Hugging_Face_Token>" in main["text"]
    assert {"type": "Hugging Face Token", "line": 4} in main["secrets"]
    assert all(set(f) == {"type", "line"} for f in main["secrets"])
    assert files["op/op.cpp"]["secrets"] is None
    assert "secrets found" in proc.stderr
    query = cli("query", "SELECT * FROM files", "--json", workspace=workspace)
    units = cli("query", "SELECT * FROM units", "--json", workspace=workspace)
    _assert_nowhere(workspace, proc.stdout, proc.stderr, query.stdout, units.stdout)


def test_on_secret_drop_leaves_the_file_out_with_a_reason(tmp_path, cli, workspace):
    repo = _secret_repo(tmp_path)
    proc = cli("crawl", "--source", str(repo), "--on-secret", "drop", workspace=workspace)
    assert proc.returncode == 0, proc.stderr
    paths = {r["path"] for r in rows(workspace, "SELECT path FROM files")}
    assert paths == {"op/op.cpp"}
    (source,) = rows(workspace, "SELECT skipped FROM sources")
    dropped = {s["path"]: s["reason"] for s in source["skipped"] if "secrets" in s["reason"]}
    assert set(dropped) == {"op/main.cpp", "op/scripts/upload.py"}
    assert "dropped" in dropped["op/main.cpp"] and "Hugging Face Token" in dropped["op/main.cpp"]
    _assert_nowhere(workspace, proc.stdout, proc.stderr, json.dumps(source))


def test_a_file_whose_name_holds_a_secret_is_left_out_and_the_name_is_stored_nowhere(tmp_path, cli, workspace):
    token = "ghp_" + "Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1JkLmNbVc0"
    aws = "AKIA" + "Z7QW3ERTY5UIOP2A"
    repo = make_repo(
        tmp_path / "repo",
        {
            "op/op.cpp": kernel("op"),
            f"op/{token}.cpp": kernel("leak"),
            f"keys/{aws}/blob.cpp": b"\x00\x01binary",  # skipped for another reason: its path is still redacted
        },
    )
    proc = cli("crawl", "--source", str(repo), workspace=workspace)
    assert proc.returncode == 0, proc.stderr
    assert {r["path"] for r in rows(workspace, "SELECT path FROM files")} == {"op/op.cpp"}
    (source,) = rows(workspace, "SELECT skipped FROM sources")
    reasons = {s["path"]: s["reason"] for s in source["skipped"]}
    assert reasons["op/<REDACTED:GitHub_Token>.cpp"] == "secret in its name (GitHub Token): left out"
    assert any(p.startswith("keys/<REDACTED:AWS_Access_Key>/") for p in reasons)
    dump = cli("query", "SELECT * FROM sources, files, units", "--json", workspace=workspace).stdout
    for text in (proc.stdout, proc.stderr, dump):
        assert token not in text and aws not in text
    clone_dir = workspace / "cache" / "git"
    for path in workspace.rglob("*"):
        if path.is_file() and not path.is_relative_to(clone_dir):
            assert token.encode() not in path.read_bytes() and aws.encode() not in path.read_bytes(), path
