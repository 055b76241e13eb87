// Operand checks of the cube path: which memory a LocalTensor lies in (a Mmad operand outside L0A, a LoadData
// destination outside L0A/L0B), start-address alignment per memory (512 B in L0A/L0B, 64 B in L0C / BT / FB,
// 32 B in L1 and UB), and the bytes an instruction touches against the tensor's buffer. Every finding names the
// caller's line; an instruction whose operands fail is skipped (the hardware would fault or corrupt memory).
#pragma once
#include <cstdint>

#include "../emu/local_mem.h"
#include "tensor.h"

namespace cbemu {

constexpr uint32_t mem_bit(Mem m) { return 1u << (uint32_t)m; }
constexpr uint32_t kAnyLocal = 0x7Fu;

inline const char* mem_list(uint32_t mask) {
    static thread_local char buf[96];
    buf[0] = 0;
    for (int i = 0; i < (int)Mem::N; ++i)
        if (mask & mem_bit((Mem)i)) {
            if (buf[0]) std::strncat(buf, "/", sizeof buf - std::strlen(buf) - 1);
            std::strncat(buf, mem_spec((Mem)i).name, sizeof buf - std::strlen(buf) - 1);
        }
    return buf;
}

// A cube operand: lies in one of `allowed` memories, starts at `align` bytes (0: the memory's own alignment) and
// bytes [lo, hi) from its start are inside its buffer. Reports and returns false otherwise.
template <typename T>
inline bool cube_operand(const AscendC::LocalTensor<T>& t, uint32_t allowed, uint64_t lo, uint64_t hi,
                         const SrcLoc& loc, const char* api, const char* role, uint32_t align = 0) {
    if (!t.addr_) report("invalid_tensor", Sev::fatal, loc, "%s: %s LocalTensor was never allocated", api, role);
    Mem m;
    uint64_t off = 0;
    if (!mem_find(t.addr_, m, off)) {
        report("bad_position", Sev::error, loc, "%s: %s is not in local memory (it must be in %s)", api, role,
               mem_list(allowed));
        return false;
    }
    if (!(allowed & mem_bit(m))) {
        report("bad_position", Sev::error, loc, "%s: %s is in %s; it must be in %s", api, role, mem_spec(m).name,
               mem_list(allowed));
        return false;
    }
    uint32_t a = align ? align : mem_spec(m).align;
    if (off % a) {
        report(a >= 512 ? "misaligned_fractal" : "misaligned_local", Sev::error, loc,
               "%s: %s starts at %s byte %llu, not %u-byte aligned", api, role, mem_spec(m).name,
               (unsigned long long)off, a);
        return false;
    }
    const uint8_t* b = (const uint8_t*)t.addr_;
    if (hi > lo && (b + lo < t.buf_ || b + hi > t.buf_ + t.buf_len_)) {
        report("local_out_of_bounds", Sev::error, loc,
               "%s: %s bytes [%lld, %lld) fall outside its %u-byte %s buffer", api, role,
               (long long)(b + lo - t.buf_), (long long)(b + hi - t.buf_), t.buf_len_, mem_spec(m).name);
        return false;
    }
    if (hi > lo && off + hi > mem_spec(m).backing) {
        report("local_out_of_bounds", Sev::fatal, loc, "%s: %s reaches beyond the %s", api, role, mem_spec(m).name);
        return false;
    }
    return true;
}

// The memory a tensor lies in (UB when it is not local memory at all: the caller's own check reports that).
template <typename T>
inline Mem mem_of_tensor(const AscendC::LocalTensor<T>& t) {
    Mem m = Mem::UB;
    uint64_t off = 0;
    mem_find(t.addr_, m, off);
    return m;
}

inline void cube_bad_params(const SrcLoc& loc, const char* api, const char* what) {
    report("cube_bad_params", Sev::error, loc, "%s: %s", api, what);
}

}  // namespace cbemu
