"""A legality refusal is the kernel's fault only on the hardware it is written for: a sample whose CMake builds only
for an architecture the emulator does not model (dav-3510, Ascend 950) and that uses a type the verified SoC's docs
refuse is `unsupported`, naming its architecture; the same code offered for the verified SoC's architecture stays
`failed_compile`. Real g++, the real sandbox and store, the demo's abs_fp16 with one illegal call added."""

from __future__ import annotations

import shutil
from pathlib import Path

from cotbuilder.store import Store
from cotbuilder.verify.stage import VerifyConfig, run

from .unitdir import add_units, unit_from_dir

DEMO = Path(__file__).resolve().parents[2] / "examples" / "kernel_launch" / "abs_fp16"
ILLEGAL = (
    "        LocalTensor<half> xLocal = inQueue.DeQue<half>();\n"
    "        LocalTensor<int32_t> asInt = xLocal.ReinterpretCast<int32_t>();\n"
    "        AscendC::Abs(asInt, asInt, 16);  // Abs on int32: not in the A2 docs' supported types\n"
)


def _sample(tmp_path: Path, arch: str) -> dict:
    folder = tmp_path / f"abs_{arch}"
    shutil.copytree(DEMO, folder)
    kernel = folder / "abs_fp16.cpp"
    text = kernel.read_text(encoding="utf-8")
    assert "        LocalTensor<half> xLocal = inQueue.DeQue<half>();\n" in text
    kernel.write_text(text.replace("        LocalTensor<half> xLocal = inQueue.DeQue<half>();\n", ILLEGAL, 1), "utf-8")
    cmake = folder / "CMakeLists.txt"
    cmake.write_text(
        cmake.read_text(encoding="utf-8")
        + f'set(CMAKE_ASC_ARCHITECTURES "{arch}" CACHE STRING "NPU architecture: {arch}")\n',
        "utf-8",
    )
    return unit_from_dir(folder, name=f"abs_{arch}")


def test_a_legality_refusal_of_a_sample_written_for_an_unmodelled_arch_is_unsupported(verify_workspace, tmp_path):
    add_units(verify_workspace, _sample(tmp_path, "dav-3510"), _sample(tmp_path, "dav-2201"))
    with Store(verify_workspace) as store:
        run(store, VerifyConfig(progress=False, jobs=2))
        rows = {
            r["name"]: r for r in store.rows("SELECT u.name, v.* FROM verifications v JOIN units u USING (unit_id)")
        }
    foreign, native = rows["abs_dav-3510"], rows["abs_dav-2201"]
    assert native["status"] == "failed_compile", native["reason"]
    assert "cotbuilder legality: Abs" in native["reason"], native["reason"]
    assert foreign["status"] == "unsupported", foreign["reason"]
    assert foreign["reason"].startswith("legality of dav-3510 not modelled"), foreign["reason"]
    assert "cotbuilder legality: Abs" in foreign["reason"], foreign["reason"]
