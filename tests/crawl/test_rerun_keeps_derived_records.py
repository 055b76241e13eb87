"""Re-crawls keep what they must: a licence file change is noticed without --refresh, and units derived from crawled
ones (`annotate --repair` children, which carry the parent's source_id) survive a re-crawl of that source."""

from __future__ import annotations

import os

from crawl_helpers import crawl, kernel, rows, write_files

from cotbuilder.hashing import sha256_text
from cotbuilder.store import Store

MIT = "MIT License\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software\n"


def _licences(workspace):
    return {r["path"]: (r["license"], r["license_method"]) for r in rows(workspace, "SELECT * FROM files")}


def test_adding_changing_and_removing_a_licence_file_recrawls_a_local_folder(tmp_path, workspace):
    root = tmp_path / "kernels"
    write_files(root, {"scale/scale.cpp": kernel("one")})
    crawl(workspace, sources=[str(root)])
    assert _licences(workspace) == {"scale/scale.cpp": ("NOASSERTION", "none")}

    write_files(root, {"LICENSE": MIT})  # no crawled file changed, only the licence appeared
    stats = crawl(workspace, sources=[str(root)])
    assert stats.counts.get("sources unchanged", 0) == 0
    assert _licences(workspace) == {"scale/scale.cpp": ("MIT", "license-file:LICENSE")}

    write_files(root, {"scale/COPYING": "Apache License\nVersion 2.0, January 2004\n"})  # nearer, in a sub-folder
    crawl(workspace, sources=[str(root)])
    assert _licences(workspace) == {"scale/scale.cpp": ("Apache-2.0", "license-file:scale/COPYING")}

    os.remove(root / "scale" / "COPYING")
    os.remove(root / "LICENSE")
    crawl(workspace, sources=[str(root)])
    assert _licences(workspace) == {"scale/scale.cpp": ("NOASSERTION", "none")}

    stats = crawl(workspace, sources=[str(root)])  # and nothing changed: still skipped
    assert stats.counts.get("sources unchanged") == 1


def test_recrawl_keeps_repaired_units_of_the_source(tmp_path, workspace):
    root = tmp_path / "kernels"
    write_files(root, {"scale/scale.cpp": kernel("one"), "other/other.cpp": kernel("two")})
    crawl(workspace, sources=[str(root)])
    with Store(workspace) as store:
        (parent,) = store.rows("SELECT * FROM units WHERE root = 'scale'")
        child = {
            **parent,
            "unit_id": sha256_text("repaired " + parent["unit_id"]),
            "parent_unit_id": parent["unit_id"],
            "kernel_code": parent["kernel_code"] + "\n// repaired\n",
        }
        store.insert("units", [child])
    os.remove(root / "other" / "other.cpp")  # a stale crawled unit does go
    stats = crawl(workspace, sources=[str(root)], refresh=True)
    assert stats.counts["failed"] == 0
    units = {u["unit_id"]: u["parent_unit_id"] for u in rows(workspace, "SELECT unit_id, parent_unit_id FROM units")}
    assert units == {parent["unit_id"]: None, child["unit_id"]: parent["unit_id"]}
