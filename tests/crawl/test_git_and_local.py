"""Crawling real git repositories (made here, several commits, tags, branches) and plain folders."""

from __future__ import annotations

import os
from pathlib import Path

from crawl_helpers import commit_all, crawl, git, kernel, make_repo, rows, write_files

APACHE = "Apache License\nVersion 2.0, January 2004\n(terms written elsewhere)\n"
MIT = "Permission is hereby granted, free of charge, to any person obtaining a copy of this software...\n"
CANN2 = "CANN Open Software License Agreement Version 2.0\n"


def _repo(tmp_path: Path) -> Path:
    repo = make_repo(
        tmp_path / "repo",
        {
            "LICENSE": APACHE,
            "kernels/scale/scale.cpp": kernel("one"),
            "kernels/scale/CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\n",
            "kernels/scale/run.sh": "#!/bin/bash\nset -e\n",
            "kernels/scale/scripts/gen_data.py": "import numpy as np\n",
            "contrib/LICENSE": MIT,
            "contrib/helper.h": "#pragma once\ninline int helper() { return 1; }\n",
            "cann/kernel.cpp": "/*\n * " + CANN2 + " */\n" + kernel("cann"),
            "third_party/lib/vendored.cpp": "int vendored;\n",
            "build/generated.cpp": "int generated;\n",
            "docs/readme.md": "# not crawled from a code source\n",
            "image.png": b"\x89PNG\r\n\x1a\n",
            "ops/AddCustom/op_kernel/add_custom.cpp": kernel("add"),
            "ops/AddCustom/add_custom.json": '[{"op": "AddCustom"}]\n',
            "ops/AddCustom/verify_spec.toml": 'entry = "scale_add"\n',
            "config/settings.json": "{}\n",
        },
    )
    git(repo, "tag", "v1")
    write_files(repo, {"kernels/scale/scale.cpp": kernel("two")})
    commit_all(repo, "second")
    git(repo, "checkout", "-q", "-b", "feature")
    write_files(repo, {"kernels/extra/extra.cpp": kernel("extra")})
    commit_all(repo, "on a branch")
    git(repo, "checkout", "-q", "main")
    return repo


def test_git_file_url_crawl_records_commit_filtered_files_and_licences(tmp_path, workspace):
    repo = _repo(tmp_path)
    head = git(repo, "rev-parse", "HEAD")
    stats = crawl(workspace, sources=[repo.as_uri()])
    assert stats.counts["failed"] == 0
    (source,) = rows(workspace, "SELECT * FROM sources")
    assert (source["kind"], source["commit"], source["fingerprint"], source["status"]) == ("git", head, head, "ok")
    files = {r["path"]: r for r in rows(workspace, "SELECT * FROM files")}
    assert set(files) == {
        "kernels/scale/scale.cpp",
        "kernels/scale/CMakeLists.txt",
        "kernels/scale/run.sh",
        "kernels/scale/scripts/gen_data.py",
        "contrib/helper.h",
        "cann/kernel.cpp",
        "ops/AddCustom/op_kernel/add_custom.cpp",
        "ops/AddCustom/add_custom.json",
        "ops/AddCustom/verify_spec.toml",
    }  # op JSON only inside op projects
    assert "scale_two" in files["kernels/scale/scale.cpp"]["text"]
    assert files["kernels/scale/scale.cpp"]["commit"] == head
    # blob sha = what git itself says for the stored bytes
    assert files["kernels/scale/scale.cpp"]["blob_sha"] == git(repo, "rev-parse", "HEAD:kernels/scale/scale.cpp")
    assert (files["kernels/scale/scale.cpp"]["license"], files["kernels/scale/scale.cpp"]["license_method"]) == (
        "Apache-2.0",
        "license-file:LICENSE",
    )
    assert (files["contrib/helper.h"]["license"], files["contrib/helper.h"]["license_method"]) == (
        "MIT",
        "license-file:contrib/LICENSE",
    )
    assert (files["cann/kernel.cpp"]["license"], files["cann/kernel.cpp"]["license_method"]) == (
        "LicenseRef-CANN-Open-Software-License-2.0",
        "header:cann/kernel.cpp",
    )
    languages = {p: f["language"] for p, f in files.items()}
    assert languages["kernels/scale/CMakeLists.txt"] == "cmake" and languages["kernels/scale/run.sh"] == "shell"
    units = rows(workspace, "SELECT * FROM units")
    assert units and all(u["source_id"] == source["source_id"] for u in units)
    # every unit file points at a stored file
    file_ids = {f["file_id"] for f in files.values()}
    assert all(m["file_id"] in file_ids for u in units for m in u["files"] if m.get("file_id"))


def test_git_ref_selects_tag_branch_or_sha_of_a_local_repo_path(tmp_path, workspace):
    repo = _repo(tmp_path)
    tag_commit = git(repo, "rev-parse", "v1^{commit}")
    branch_commit = git(repo, "rev-parse", "feature")
    crawl(workspace, sources=[f"{repo}@v1", f"{repo}@feature", f"{repo.as_uri()}@{tag_commit}"])
    by_ref = {r["ref"]: r for r in rows(workspace, "SELECT * FROM sources")}
    assert by_ref["v1"]["commit"] == tag_commit
    assert by_ref["feature"]["commit"] == branch_commit
    assert by_ref[tag_commit]["commit"] == tag_commit
    texts = {(r["source_id"], r["path"]): r["text"] for r in rows(workspace, "SELECT * FROM files")}
    assert "scale_one" in texts[(by_ref["v1"]["source_id"], "kernels/scale/scale.cpp")]
    assert (by_ref["feature"]["source_id"], "kernels/extra/extra.cpp") in texts
    assert (by_ref["v1"]["source_id"], "kernels/extra/extra.cpp") not in texts


def test_changed_repo_is_recrawled_and_deleted_files_leave_the_store(tmp_path, workspace):
    repo = _repo(tmp_path)
    crawl(workspace, sources=[str(repo)])
    git(repo, "rm", "-q", "contrib/helper.h")
    write_files(repo, {"kernels/new/new.cpp": kernel("new")})
    new_head = commit_all(repo, "third")
    stats = crawl(workspace, sources=[str(repo)])
    assert stats.counts["sources crawled"] == 1 and stats.counts["git clones"] == 1
    paths = {r["path"] for r in rows(workspace, "SELECT path FROM files")}
    assert "kernels/new/new.cpp" in paths and "contrib/helper.h" not in paths
    assert rows(workspace, "SELECT commit FROM sources")[0]["commit"] == new_head


def test_local_folder_fingerprint_follows_file_changes(tmp_path, workspace):
    folder = tmp_path / "corpus"
    write_files(folder, {"k/k.cpp": kernel("k"), "k/CMakeLists.txt": "project(k)\n", "notes.txt": "x"})
    crawl(workspace, sources=[str(folder)])
    first = rows(workspace, "SELECT fingerprint, kind, n_files FROM sources")[0]
    assert first["kind"] == "local" and first["n_files"] == 2 and first["fingerprint"].startswith("stat:")
    again = crawl(workspace, sources=[str(folder)])
    assert again.counts["sources unchanged"] == 1
    (folder / "k" / "k.cpp").write_text(kernel("changed"))
    os.utime(folder / "k" / "k.cpp", ns=(1, 1))  # a different mtime whatever the clock resolution
    changed = crawl(workspace, sources=[str(folder)])
    assert changed.counts["sources crawled"] == 1
    assert "scale_changed" in rows(workspace, "SELECT text FROM files WHERE path = 'k/k.cpp'")[0]["text"]


def test_parallel_jobs_give_the_same_store_as_one_job(tmp_path):
    sources = []
    for i in range(3):
        folder = tmp_path / f"src{i}"
        write_files(folder, {f"op{i}/op{i}.cpp": kernel(f"op{i}"), "LICENSE": MIT})
        sources.append(str(folder))
    crawl(tmp_path / "ws1", sources=sources, jobs=1)
    crawl(tmp_path / "ws2", sources=sources, jobs=3)
    q = "SELECT file_id, license FROM files ORDER BY 1"
    assert rows(tmp_path / "ws1", q) == rows(tmp_path / "ws2", q)
    q = "SELECT unit_id FROM units ORDER BY 1"
    assert rows(tmp_path / "ws1", q) == rows(tmp_path / "ws2", q)
