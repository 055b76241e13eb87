"""TilingData::SetDataPtr (TilingData结构定义.md lists it as a reserved interface): a tiling function that points its
TilingData at the context's raw tiling buffer and never calls SaveToBuffer still fills that buffer - fields, arrays
and nested structs, by the time it asks GetDataSize and at the latest when the object is destroyed; an object that
never called it writes nowhere. A real g++ build of a host program written here, with the emulator's shim."""

from __future__ import annotations

import subprocess

_HOST = r"""
#include "register/tilingdata_base.h"
#include <cstdio>
#include <cstring>
namespace optiling {
BEGIN_TILING_DATA_DEF(RowTiling)
TILING_DATA_FIELD_DEF(uint32_t, rows);
END_TILING_DATA_DEF;
BEGIN_TILING_DATA_DEF(ScanTiling)
TILING_DATA_FIELD_DEF(uint32_t, total);
TILING_DATA_FIELD_DEF_ARR(int16_t, 3, steps);
TILING_DATA_FIELD_DEF_STRUCT(RowTiling, row);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Scan, ScanTiling)
}  // namespace optiling

struct ScanTiler {  // the style of a tiling class that holds its TilingData and writes the context's buffer
    optiling::ScanTiling data;
    explicit ScanTiler(void* raw) { data.SetDataPtr(raw); }
    size_t Run() {
        data.set_total(40);
        const int16_t steps[3] = {-2, 5, 11};
        data.set_steps(steps);
        data.get_row().set_rows(7);
        return data.GetDataSize();
    }
};

static uint32_t total_in(const unsigned char* raw) { uint32_t v; std::memcpy(&v, raw, 4); return v; }

int main() {
    alignas(8) unsigned char raw[64];
    std::memset(raw, 0xAB, sizeof raw);
    size_t n = 0;
    {
        ScanTiler tiler(raw);
        n = tiler.Run();
        std::printf("%zu %u ", n, total_in(raw));  // written by the time the size is asked
        tiler.data.set_total(99);                   // a later change reaches the buffer at destruction
    }
    std::printf("%u ", total_in(raw));
    {
        optiling::ScanTiling other;  // never pointed anywhere: the buffer stays as it was
        other.set_total(5);
        (void)other.GetDataSize();
    }
    int16_t steps[3];
    std::memcpy(steps, raw + offsetof(optiling::ScanTiling, steps), sizeof steps);
    uint32_t rows;
    std::memcpy(&rows, raw + offsetof(optiling::ScanTiling, row), 4);
    std::printf("%u %d %d %d %u %d\n", total_in(raw), steps[0], steps[1], steps[2], rows, raw[n] == 0xAB);
    return 0;
}
"""


def test_set_data_ptr_fills_the_raw_buffer_without_save_to_buffer(toolchain, tmp_path):
    src = tmp_path / "host.cpp"
    src.write_text(_HOST, encoding="utf-8")
    exe = toolchain.build(src, tmp_path / "host")
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    # size 16 (4 + 3*2 + pad 2 + 4); 40 at GetDataSize, 99 after destruction, `other` changed nothing; the byte
    # after the struct untouched
    assert proc.stdout.split() == ["16", "40", "99", "99", "-2", "5", "11", "7", "1"]
