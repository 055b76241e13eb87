// The AI core's local memories besides UB: L1, L0A, L0B, L0C, the bias table (BT) and the fixpipe buffer (FB),
// one set per block, with their capacities per SoC and the TPosition -> memory map of the docs
// (SIMD-API/通用说明和约束.md, table 1; sizes from the same page's table and the platform constants).
//
// Each memory is a backing store larger than any SoC's capacity (so an overflow can be reported and the kernel still
// finishes, as for UB), filled with the poison byte 0xFF when the block first touches it: nothing on the chip clears
// local memory, so a kernel that reads L1/L0 it never wrote computes with NaN (floats) / -1 (integers).
#pragma once
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../basic_api/types.h"
#include "runtime.h"

namespace cbemu {

enum class Mem : uint8_t { UB = 0, L1, L0A, L0B, L0C, BT, FB, N };

struct MemSpec {
    const char* name;
    const char* overflow_kind;  // the diagnostic kind when allocations exceed the capacity
    size_t backing;             // bytes backing it per block (> every SoC's capacity)
    uint32_t align;             // start-address alignment of operands in it (通用说明和约束.md, table 2)
};
inline const MemSpec& mem_spec(Mem m) {
    static const MemSpec specs[] = {
        {"UB", "ub_overflow", kUbBacking, 32},
        {"L1", "l1_overflow", (size_t)2 << 20, 32},
        {"L0A", "l0a_overflow", (size_t)256 << 10, 512},
        {"L0B", "l0b_overflow", (size_t)256 << 10, 512},
        {"L0C", "l0c_overflow", (size_t)1 << 20, 64},
        {"BiasTable", "bt_overflow", (size_t)64 << 10, 64},
        {"Fixpipe buffer", "fb_overflow", (size_t)64 << 10, 64},
    };
    return specs[(int)m];
}

// Atlas inference (310P, dav-2002) has coupled AI cores: one core holds both units, C1 lives in UB, C2 in L0C
// and CO2 in UB. The A2 family (910B, dav-2201) separates cube (AIC) and vector (AIV) cores.
inline bool coupled_arch() {
    static bool v = [] {
        const char* s = std::getenv("COTBUILDER_SOC");
        std::string soc = s ? s : "";
        for (auto& c : soc) c = (char)std::tolower((unsigned char)c);
        return soc.rfind("ascend310p", 0) == 0;
    }();
    return v;
}

// Capacity per block in bytes: 910B L1 512 KB, L0A/L0B 64 KB, L0C 128 KB, BT 1 KB, FB 2 KB; 310P L1 1 MB,
// L0C 256 KB and no BT / FB (its bias lives in L0C).
inline size_t mem_capacity(Mem m) {
    bool p = coupled_arch();
    switch (m) {
        case Mem::UB: return soc_ub_bytes();
        case Mem::L1: return p ? (size_t)1 << 20 : (size_t)512 << 10;
        case Mem::L0A: case Mem::L0B: return (size_t)64 << 10;
        case Mem::L0C: return p ? (size_t)256 << 10 : (size_t)128 << 10;
        case Mem::BT: return p ? 0 : 1024;
        case Mem::FB: return p ? 0 : 2048;
        default: return 0;
    }
}

// Which memory a queue / buffer / hand-placed tensor at this position lives in.
inline Mem mem_of(AscendC::TPosition pos) {
    using P = AscendC::TPosition;
    switch (pos) {
        case P::A1: case P::B1: case P::TSCM: return Mem::L1;
        case P::C1: return coupled_arch() ? Mem::UB : Mem::L1;
        case P::A2: return Mem::L0A;
        case P::B2: return Mem::L0B;
        case P::CO1: return Mem::L0C;
        case P::C2: return coupled_arch() ? Mem::L0C : Mem::BT;
        case P::C2PIPE2GM: return Mem::FB;
        case P::SPM: return coupled_arch() ? Mem::L1 : Mem::UB;
        default: return Mem::UB;  // VECIN / VECOUT / VECCALC, and CO2 (GM on 910B: a queue there holds UB)
    }
}
inline bool is_cube_position(AscendC::TPosition pos) { return mem_of(pos) != Mem::UB; }

// This block's backing stores (UB is the runtime's: ctx().ub). A new block is a new thread, so each launch starts
// with fresh, poisoned memories; the thread's exit frees them.
struct LocalMems {
    uint8_t* base[(int)Mem::N] = {};
    ~LocalMems() {
        for (int i = 1; i < (int)Mem::N; ++i) std::free(base[i]);
    }
};
inline LocalMems& local_mems() {
    thread_local LocalMems m;
    return m;
}
CBEMU_RT uint8_t* mem_base(Mem m);
// The local memory that holds p (and p's byte offset in it); false for GM / host memory.
CBEMU_RT bool mem_find(const void* p, Mem& m, uint64_t& off);

}  // namespace cbemu

#if CBEMU_RT_BODY
namespace cbemu {

CBEMU_RT uint8_t* mem_base(Mem m) {
    if (m == Mem::UB) return ctx().ub;
    uint8_t*& p = local_mems().base[(int)m];
    if (!p) {
        size_t n = mem_spec(m).backing;
        p = (uint8_t*)std::aligned_alloc(4096, n);
        std::memset(p, 0xFF, n);
    }
    return p;
}

CBEMU_RT bool mem_find(const void* p, Mem& m, uint64_t& off) {
    const uint8_t* b = (const uint8_t*)p;
    for (int i = 0; i < (int)Mem::N; ++i) {
        const uint8_t* base = i == 0 ? ctx().ub : local_mems().base[i];
        if (base && b >= base && b < base + mem_spec((Mem)i).backing) {
            m = (Mem)i;
            off = (uint64_t)(b - base);
            return true;
        }
    }
    return false;
}

namespace hz {
CBEMU_RT bool cube_space_of(Core* c, const void* p, Space& sp, uint64_t& off) {
    const uint8_t* b = (const uint8_t*)p;
    for (int i = 1; i < (int)Mem::N; ++i) {
        const uint8_t* base = local_mems().base[i];
        if (!base || b < base || b >= base + mem_spec((Mem)i).backing) continue;
        sp = (Space)i;
        off = (uint64_t)(b - base);
        std::vector<Cell>& shadow = c->shadow[i];
        if (shadow.empty()) shadow.resize((mem_capacity((Mem)i) + 31) / 32);
        return true;
    }
    return false;
}
}  // namespace hz

}  // namespace cbemu
#endif  // CBEMU_RT_BODY
