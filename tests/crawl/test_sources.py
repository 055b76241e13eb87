"""How --source strings and manifests become sources (kind, location, ref)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cotbuilder.crawl.sources import SourceError, load_manifest, parse_source, resolve_manifest_path
from cotbuilder.paths import data_dir


@pytest.mark.parametrize(
    "text, kind, url, ref",
    [
        ("https://gitcode.com/cann/ops-math.git", "git", "https://gitcode.com/cann/ops-math.git", None),
        ("https://gitcode.com/cann/ops-math.git@v1.2", "git", "https://gitcode.com/cann/ops-math.git", "v1.2"),
        ("https://github.com/owner/repo@feature/x", "git", "https://github.com/owner/repo", "feature/x"),
        ("git@gitee.com:ascend/samples.git", "git", "git@gitee.com:ascend/samples.git", None),
        ("git@gitee.com:ascend/samples.git@master", "git", "git@gitee.com:ascend/samples.git", "master"),
        ("ssh://git@host/x/y.git@0123abc", "git", "ssh://git@host/x/y.git", "0123abc"),
        # the @ of user info is no ref; user info may be a token (https://ghp_...@host), so it is never stored
        ("https://user@host.example/docs/index.html", "docs", "https://host.example/docs/index.html", None),
        (
            "https://www.hiascend.com/document/detail/zh/x.html",
            "docs",
            "https://www.hiascend.com/document/detail/zh/x.html",
            None,
        ),
        ("docs+https://github.com/owner/repo", "docs", "https://github.com/owner/repo", None),
    ],
)
def test_source_strings_resolve_to_kind_url_and_ref(text, kind, url, ref):
    spec = parse_source(text)
    assert (spec.kind, spec.url, spec.ref) == (kind, url, ref)


def test_local_paths_are_git_local_or_docs_by_what_is_there(tmp_path):
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    (tmp_path / "plain").mkdir()
    (tmp_path / "page.md").write_text("# x\n")
    assert parse_source(str(tmp_path / "repo") + "@main").kind == "git"
    assert parse_source(str(tmp_path / "repo") + "@main").ref == "main"
    assert parse_source(str(tmp_path / "plain")).kind == "local"
    assert parse_source(str(tmp_path / "page.md")).kind == "docs"
    with pytest.raises(SourceError, match="no such file"):
        parse_source(str(tmp_path / "missing"))
    with pytest.raises(SourceError, match="only git sources take a ref"):
        parse_source(str(tmp_path / "plain") + "@v1")


def test_manifest_paths_resolve_against_the_manifest_folder(tmp_path):
    (tmp_path / "corpus").mkdir()
    (tmp_path / "m").mkdir()
    manifest = tmp_path / "m" / "x.toml"
    manifest.write_text('[[source]]\nkind = "local"\nurl = "../corpus"\nlicense = "MIT"\nexclude = ["*.py"]\n')
    (spec,) = load_manifest(manifest)
    assert Path(spec.url) == (tmp_path / "corpus").resolve()
    assert (spec.kind, spec.license, spec.exclude, spec.manifest) == ("local", "MIT", ["*.py"], str(manifest))


def test_bad_manifests_are_usage_errors(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[source]]\nurl = "https://x/y.git"\ncolour = "red"\n')
    with pytest.raises(SourceError, match="unknown key"):
        load_manifest(bad)
    bad.write_text("not toml [[[")
    with pytest.raises(SourceError, match="not valid TOML"):
        load_manifest(bad)


@pytest.mark.parametrize(
    "line, message",
    [
        ('include = "math/*"', '`include` must be a list of glob strings (e.g. include = ["math/*"]), not a string'),
        ('exclude = "*/tests/*"', "`exclude` must be a list of glob strings"),
        ("include = [1, 2]", "`include` must be a list of glob strings"),
        ('include = ["ok/*", ""]', "`include` must be a list of glob strings"),
        ('max_pages = "10"', "`max_pages` must be a non-negative integer, not '10'"),
        ("max_depth = true", "`max_depth` must be a non-negative integer"),
        ('rate_limit = "fast"', "`rate_limit` must be a non-negative number of seconds"),
        ("license = 7", "`license` must be a string, not an integer (7)"),
    ],
)
def test_manifest_values_of_the_wrong_type_are_errors_not_guesses(tmp_path, line, message):
    (tmp_path / "corpus").mkdir()
    bad = tmp_path / "bad.toml"
    bad.write_text(f'[[source]]\nkind = "local"\nurl = "corpus"\n{line}\n')
    with pytest.raises(SourceError, match=re.escape(message)):
        load_manifest(bad)


def test_a_string_include_in_a_manifest_exits_2_and_keeps_what_is_stored(tmp_path, cli, workspace):
    corpus = tmp_path / "corpus"
    (corpus / "math").mkdir(parents=True)
    (corpus / "math" / "k.cpp").write_text('#include "kernel_operator.h"\n')
    good = tmp_path / "good.toml"
    good.write_text('[[source]]\nkind = "local"\nurl = "corpus"\ninclude = ["math/*"]\n')
    assert cli("crawl", "--manifest", str(good), workspace=workspace).returncode == 0
    before = cli("query", "SELECT path FROM files", "--json", workspace=workspace).stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('[[source]]\nkind = "local"\nurl = "corpus"\ninclude = "math/*"\n')
    proc = cli("crawl", "--manifest", str(bad), workspace=workspace)
    assert proc.returncode == 2, proc.stderr
    assert "`include` must be a list of glob strings" in " ".join(proc.stderr.split())
    assert cli("query", "SELECT path FROM files", "--json", workspace=workspace).stdout == before
    assert '"path": "math/k.cpp"' in before


def test_shipped_manifests_load_and_demo_points_at_the_examples_corpus():
    demo = load_manifest(resolve_manifest_path("demo"))
    assert [(s.kind, Path(s.url), s.license) for s in demo] == [("local", data_dir("examples").resolve(), "Apache-2.0")]
    public = load_manifest(resolve_manifest_path("ascend-public"))
    names = {s.name for s in public}
    assert {
        "asc-devkit",
        "ops-math",
        "ops-nn",
        "ops-transformer",
        "cann-samples",
        "Ascend samples",
        "cann-ops",
        "op-plugin",
        "Ascend C docs",
    } <= names
    assert all(s.license for s in public if s.kind == "git")
    assert {s.kind for s in public} == {"git", "docs"}
