"""--repair: a unit whose latest verification failed is sent with its diagnostics; the corrected kernel becomes a new
unit (parent's files, kernel file replaced, parent_unit_id set, same layout) with the repair annotation linked to it."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from chat_server import ChatServer  # noqa: E402
from units import add_unit, put_units  # noqa: E402

from cotbuilder.annotate.config import AnnotateConfig  # noqa: E402
from cotbuilder.annotate.stage import run  # noqa: E402
from cotbuilder.store import Store, utcnow  # noqa: E402


def test_repair_stores_the_fixed_kernel_as_a_linked_unit_with_its_annotation(workspace, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    good = add_unit()
    broken = add_unit("add_broken", suffix="broken")
    broken_kernel = broken["files"][0]["text"].replace("AscendC::Add(zLocal", "AscendC::Sub(zLocal")
    broken["files"][0]["text"] = broken["kernel_code"] = broken_kernel
    broken["features"]["apis"] = {**{k: v for k, v in broken["features"]["apis"].items() if k != "Add"}, "Sub": 1}
    fixed_kernel = broken_kernel.replace("AscendC::Sub(zLocal", "AscendC::Add(zLocal")

    def answer(name, body):
        prompt = body["messages"][1]["content"]
        assert "wrong_answer" in prompt and "max_abs_err" in prompt and "AscendC::Sub(zLocal" in prompt
        return json.dumps(
            {
                "task": "Write an AscendC kernel named add_broken that adds two half-precision tensors x and y into z.",
                "rationale": [
                    {
                        "step": "diagnosis",
                        "title": "Diagnosis",
                        "text": "Every output differs from the golden sum: the compute stage subtracts instead of adding.",
                    },
                    {
                        "step": "fix",
                        "title": "Fix",
                        "text": "Compute now calls `Add` on the two input tiles, so z = x + y.",
                    },
                    {
                        "step": "api_choice",
                        "title": "API choice",
                        "text": "`Add` is the element-wise vector sum; `DataCopy` still moves the tiles.",
                    },
                    {
                        "step": "pipeline",
                        "title": "Pipeline",
                        "text": "CopyIn, Compute and CopyOut are unchanged; only the instruction inside Compute changes.",
                    },
                ],
                "fixed_kernel": "```cpp\n" + fixed_kernel + "```",
            }
        )

    def verification(unit_id, status):
        return {
            "verification_id": hashlib.sha256(f"{unit_id}{status}".encode()).hexdigest(),
            "unit_id": unit_id,
            "backend": "cpu-emulator",
            "backend_version": "0.1",
            "soc": "ascend910b",
            "source_hash": hashlib.sha256(unit_id.encode()).hexdigest(),
            "status": status,
            "cases": [
                {
                    "seed": 0,
                    "ok": False,
                    "outputs": [
                        {
                            "name": "z",
                            "dtype": "float16",
                            "max_abs_err": 199.0,
                            "max_rel_err": 2.0,
                            "atol": 1e-3,
                            "rtol": 1e-3,
                            "mismatches": 16384,
                            "n": 16384,
                        }
                    ],
                }
            ],
            "diagnostics": [
                {"kind": "wrong_answer", "message": "z: 16384 of 16384 elements differ, max_abs_err 199.0"}
            ],
            "timings": {},
            "created_at": utcnow(),
        }

    with ChatServer(answer=answer) as srv, Store(workspace) as store:
        put_units(store, [good, broken])
        store.insert(
            "verifications", [verification(good["unit_id"], "passed"), verification(broken["unit_id"], "wrong_answer")]
        )
        stats = run(store, AnnotateConfig(teacher="gpt-4o-mini", base_url=srv.url, repair=True, progress=False))
        assert len(srv.log) == 1 and stats.counts["repaired_units"] == 1
        child = store.rows("SELECT * FROM units WHERE parent_unit_id IS NOT NULL")
        ann = store.rows("SELECT * FROM annotations")
        again = run(store, AnnotateConfig(teacher="gpt-4o-mini", base_url=srv.url, repair=True, progress=False))
        assert len(srv.log) == 1 and again.reasons["skipped: already annotated"] == 1
    assert len(child) == 1
    child = child[0]
    assert child["parent_unit_id"] == broken["unit_id"] and child["layout"] == broken["layout"]
    assert child["unit_id"] not in (good["unit_id"], broken["unit_id"])
    assert [f["path"] for f in child["files"]] == [f["path"] for f in broken["files"]]
    assert child["files"][0]["text"] == fixed_kernel and child["files"][1:] == broken["files"][1:]
    assert "AscendC::Add(zLocal" in child["kernel_code"] and "Sub(" not in child["kernel_code"]
    assert child["features"]["apis"].get("Add") == 1 and "Sub" not in child["features"]["apis"]
    assert len(ann) == 1 and ann[0]["kind"] == "repair" and ann[0]["unit_id"] == child["unit_id"]
    assert ann[0]["source_unit_id"] == broken["unit_id"] and ann[0]["status"] == "ok"
    assert [s["step"] for s in ann[0]["rationale"]][:2] == ["diagnosis", "fix"]
    assert ann[0]["gates_passed"], ann[0]["gates"]
