"""A stored annotation is redone when what it was written from changed: the unit's facts (a verification that arrived
later), the static teacher's own code and data; and cached answers are never shared between two servers that serve
the same model name. Real DuckDB, real chat servers on 127.0.0.1."""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from chat_server import ChatServer  # noqa: E402
from units import add_unit, put_units  # noqa: E402

from cotbuilder.annotate.config import AnnotateConfig  # noqa: E402
from cotbuilder.annotate.stage import run  # noqa: E402
from cotbuilder.store import Store, utcnow  # noqa: E402

ANNOTATE_PKG = Path(__file__).resolve().parents[2] / "cotbuilder" / "annotate"


@pytest.fixture(autouse=True)
def _fake_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-not-secret")


def _passed(unit_id: str) -> dict:
    return {
        "verification_id": hashlib.sha256(f"v:{unit_id}".encode()).hexdigest(),
        "unit_id": unit_id,
        "backend": "cpu-emulator",
        "backend_version": "0.1",
        "soc": "ascend910b",
        "source_hash": hashlib.sha256(unit_id.encode()).hexdigest(),
        "status": "passed",
        "cases": [{"seed": 0, "ok": True}, {"seed": 1, "ok": True}, {"seed": 2, "ok": True}],
        "diagnostics": [],
        "timings": {},
        "created_at": utcnow(),
    }


def static_prompt_version(*args):
    from cotbuilder.annotate.static_teacher import static_prompt_version as version

    return version(*args)


def _steps(row: dict) -> dict[str, str]:
    return {s["step"]: s["text"] for s in row["rationale"]}


def test_static_annotation_is_redone_in_place_when_the_unit_is_verified_later(workspace):
    unit = add_unit()
    with Store(workspace) as store:
        put_units(store, [unit])
        run(store, AnnotateConfig(all_units=True, progress=False))
        before = store.rows("SELECT * FROM annotations")
        assert "verification" not in _steps(before[0])

        store.insert("verifications", [_passed(unit["unit_id"])])
        again = run(store, AnnotateConfig(all_units=True, progress=False))
        after = store.rows("SELECT * FROM annotations")
        third = run(store, AnnotateConfig(all_units=True, progress=False))

    assert again.counts["planned"] == 1 and again.counts["kept"] == 1 and again.counts["stale_redone"] == 1
    # one current annotation per (unit, sample, lang, kind, teacher): the row is replaced, not duplicated
    assert len(after) == 1 and after[0]["annotation_id"] == before[0]["annotation_id"]
    assert _steps(after[0])["verification"] == (
        "Verified on cpu-emulator for ascend910b with seeds 0, 1 and 2: 3 cases, all passed."
    )
    assert after[0]["facts_hash"] and after[0]["facts_hash"] != before[0]["facts_hash"]
    assert third.counts["planned"] == 0 and third.reasons["skipped: already annotated"] == 1


def test_llm_annotation_is_asked_again_with_the_verification_once_it_arrives(workspace):
    unit = add_unit()
    with Store(workspace) as store, ChatServer() as srv:
        put_units(store, [unit])
        cfg = AnnotateConfig(all_units=True, teacher="gpt-4o-mini", base_url=srv.url, progress=False, retry_base=0.05)
        run(store, cfg)
        store.insert("verifications", [_passed(unit["unit_id"])])
        second = run(store, cfg)
        third = run(store, cfg)
        rows = store.rows("SELECT annotation_id FROM annotations")
    assert len(srv.log) == 2 and second.counts["requests_sent"] == 1 and third.counts["requests_sent"] == 0
    first_prompt, second_prompt = (str(e["body"]["messages"]) for e in srv.log)
    assert "cpu-emulator" not in first_prompt and "cpu-emulator" in second_prompt
    assert len(rows) == 1


def test_rows_written_before_facts_were_tracked_are_redone(workspace):
    """A row from an older cotbuilder (no facts_hash) is not trusted to match the unit's current facts."""
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        run(store, AnnotateConfig(all_units=True, progress=False))
        store.execute("UPDATE annotations SET facts_hash = NULL")
        again = run(store, AnnotateConfig(all_units=True, progress=False))
        assert again.counts["kept"] == 1 and store.count("annotations") == 1
        assert store.scalar("SELECT facts_hash FROM annotations") is not None
    with Store(workspace) as store:  # a workspace whose annotations table predates the column
        store.execute("ALTER TABLE annotations DROP COLUMN facts_hash")
    with Store(workspace) as store:
        again = run(store, AnnotateConfig(all_units=True, progress=False))
        assert again.counts["kept"] == 1 and store.count("annotations") == 1
        assert store.scalar("SELECT facts_hash FROM annotations") is not None


def test_static_prompt_version_is_a_digest_of_the_static_teachers_code_and_data(workspace, tmp_path):
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        run(store, AnnotateConfig(all_units=True, progress=False))
        version = store.scalar("SELECT teacher->>'prompt_version' FROM annotations")
    assert version == static_prompt_version()
    assert version.startswith("static-") and len(version) == len("static-") + 8

    copy = tmp_path / "annotate"
    shutil.copytree(ANNOTATE_PKG, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert static_prompt_version(copy) == version
    for edited in ("static_teacher.py", "gates.py", "data/gates.toml", "data/static_en.toml"):
        shutil.rmtree(copy)
        shutil.copytree(ANNOTATE_PKG, copy, ignore=shutil.ignore_patterns("__pycache__"))
        with (copy / edited).open("a", encoding="utf-8") as fh:
            fh.write("\n# edited\n")
        assert static_prompt_version(copy) != version, edited


def test_static_annotation_from_an_older_static_teacher_is_replaced_not_kept_beside(workspace):
    with Store(workspace) as store:
        put_units(store, [add_unit()])
        run(store, AnnotateConfig(all_units=True, progress=False))
        # as if written by an earlier version of static_teacher.py
        store.execute(
            "UPDATE annotations SET teacher = json_object('provider', 'static', 'model', 'static', "
            "'prompt_version', 'static-00000000', 'params', json_object('lang', 'en'))"
        )
        again = run(store, AnnotateConfig(all_units=True, progress=False))
        rows = store.rows("SELECT teacher FROM annotations")
    assert again.counts["kept"] == 1
    assert [r["teacher"]["prompt_version"] for r in rows] == [static_prompt_version()]


def test_two_servers_serving_the_same_model_name_do_not_share_cached_answers(workspace, tmp_path):
    with ChatServer() as one, ChatServer() as two:
        with Store(tmp_path / "a") as store:
            put_units(store, [add_unit()])
            run(
                store,
                AnnotateConfig(all_units=True, teacher="same-model", base_url=one.url, progress=False, retry_base=0.05),
            )
            shared_cache = store.cache_dir
        with Store(workspace) as store:
            put_units(store, [add_unit()])
            shutil.copytree(shared_cache, store.cache_dir, dirs_exist_ok=True)
            # the same server again: its answer comes from the cache
            first = run(store, AnnotateConfig(all_units=True, teacher="same-model", base_url=one.url, progress=False))
            store.execute("DELETE FROM annotations")
            # another server with the same model name: asked itself
            second = run(store, AnnotateConfig(all_units=True, teacher="same-model", base_url=two.url, progress=False))
            # credentials in the URL and a trailing slash do not make it another server
            store.execute("DELETE FROM annotations")
            port = two.url.split(":")[2].split("/")[0]
            third = run(
                store,
                AnnotateConfig(
                    all_units=True,
                    teacher="same-model",
                    base_url=f"http://user:pw@127.0.0.1:{port}/v1/",
                    progress=False,
                ),
            )
    assert first.counts["cache_hits"] == 1 and first.counts["requests_sent"] == 0
    assert second.counts["requests_sent"] == 1 and len(two.log) == 1
    assert third.counts["cache_hits"] == 1 and third.counts["requests_sent"] == 0 and len(two.log) == 1
    assert len(one.log) == 1
    for path in (workspace / "cache").rglob("*.json"):
        assert "pw@" not in path.read_text(encoding="utf-8")
