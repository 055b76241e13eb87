"""Which units annotate sends to the teacher: by default only those whose deciding verification passed (the ones push
can publish), --all every unit, --repair the failed ones; the units left out are counted by their status."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from chat_server import ChatServer  # noqa: E402
from units import add_unit, put_units  # noqa: E402

from cotbuilder.annotate.config import AnnotateConfig  # noqa: E402
from cotbuilder.annotate.stage import run  # noqa: E402
from cotbuilder.store import Store, utcnow  # noqa: E402


def _verification(unit_id: str, status: str, backend: str = "cpu-emulator") -> dict:
    return {
        "verification_id": hashlib.sha256(f"v:{unit_id}:{status}:{backend}".encode()).hexdigest(),
        "unit_id": unit_id,
        "backend": backend,
        "backend_version": "0.1",
        "soc": "ascend910b",
        "source_hash": hashlib.sha256(unit_id.encode()).hexdigest(),
        "status": status,
        "cases": [{"seed": 0, "ok": status == "passed"}],
        "diagnostics": [],
        "timings": {},
        "created_at": utcnow(),
    }


def _four_units(store: Store) -> dict[str, str]:
    """passed, wrong_answer, unsupported, and never verified; plus a unit that passed on one backend and failed on
    another (a failure on any backend decides: not verified)."""
    units = {name: add_unit(name) for name in ("ok", "wrong", "gap", "never", "split")}
    put_units(store, list(units.values()))
    ids = {name: u["unit_id"] for name, u in units.items()}
    store.insert(
        "verifications",
        [
            _verification(ids["ok"], "passed"),
            _verification(ids["wrong"], "wrong_answer"),
            _verification(ids["gap"], "unsupported"),
            _verification(ids["split"], "passed"),
            _verification(ids["split"], "failed_run", backend="npu"),
        ],
    )
    return ids


def test_a_unit_whose_verification_did_not_pass_is_not_sent_to_the_teacher(workspace, monkeypatch):
    """A real OpenAI-compatible server on 127.0.0.1 counts what reaches it."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-not-secret")
    with Store(workspace) as store, ChatServer() as srv:
        ids = _four_units(store)
        stats = run(store, AnnotateConfig(teacher="gpt-4o-mini", base_url=srv.url, progress=False, retry_base=0.05))
        asked = {e["unit"] for e in srv.log}
        annotated = {r["unit_id"] for r in store.rows("SELECT unit_id FROM annotations")}
    assert asked == {"ok"}, asked
    assert annotated == {ids["ok"]}
    assert stats.counts["kept"] == 1
    assert stats.reasons["skipped: verification wrong_answer (--all annotates it)"] == 1
    assert (
        stats.reasons["skipped: verification failed_run (--all annotates it)"] == 1
    )  # the npu failure outweighs the cpu pass
    assert stats.reasons["skipped: verification unsupported (--all annotates it)"] == 1
    assert stats.reasons["skipped: not verified (--all annotates it)"] == 1


def test_all_annotates_every_unit_with_the_static_teacher(workspace):
    with Store(workspace) as store:
        ids = _four_units(store)
        default = run(store, AnnotateConfig(progress=False))
        everything = run(store, AnnotateConfig(all_units=True, progress=False))
        annotated = {r["unit_id"] for r in store.rows("SELECT unit_id FROM annotations")}
    assert default.counts["kept"] == 1 and default.counts["skipped"] == 4
    assert everything.counts["kept"] == 4  # the passed unit is already annotated
    assert everything.reasons["skipped: already annotated"] == 1
    assert annotated == set(ids.values())


def test_all_with_repair_is_refused_before_anything_is_stored(workspace, cli):
    with Store(workspace) as store:
        _four_units(store)
    res = cli("annotate", "--teacher", "gpt-4o-mini", "--repair", "--all", workspace=workspace)
    assert res.returncode == 2
    assert "cannot be combined with --all" in res.stderr and "Traceback" not in res.stderr
    with Store(workspace, read_only=True) as store:
        assert not store.has_table("annotations") or store.count("annotations") == 0
        assert store.count("units") == 5
