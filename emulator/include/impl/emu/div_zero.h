// Integer division by zero in kernel code. The AI core's scalar unit does not trap on it (kernels rely on that:
// Catlass computes `startTileIdx % kLoopsNext` before it knows whether a next block exists, and uses the value only
// if one does); an x86 CPU raises SIGFPE and the program dies. On x86-64 the emulator catches the fault in a kernel
// thread, gives the `div` / `idiv` the result ARM's udiv / sdiv give (x / 0 = 0, so x % 0 = x: the device's value is
// not documented, this choice is ours), steps over the instruction and reports it once per core as a warning
// (`div_by_zero`), so a kernel whose output used the value is judged by its output as usual. Elsewhere (aarch64
// does not trap) nothing is needed. A fault outside a kernel, or one that is not a plain div, dies as before.
#pragma once
#include <cstdint>

#include "rt.h"
#include "runtime.h"

namespace cbemu {

// Faults stepped over by the current core (reported at its end); the address of the first.
inline uint32_t& div_zero_count() {
    thread_local uint32_t n = 0;
    return n;
}
inline uintptr_t& div_zero_pc() {
    thread_local uintptr_t pc = 0;
    return pc;
}

CBEMU_RT void install_div_zero_handler();

}  // namespace cbemu

#if CBEMU_RT_BODY
#if defined(__x86_64__) && defined(__linux__)
#include <csignal>
#include <ucontext.h>
#endif
namespace cbemu {

#if defined(__x86_64__) && defined(__linux__)
namespace detail_div {
// The length of a `div` / `idiv` (F6 / F7 with ModRM reg 6 or 7) at pc, with its operand size in bytes; 0 if it is not.
inline int div_length(const uint8_t* pc, int* size) {
    int n = 0;
    bool rex_w = false, opsize = false;
    for (;; ++n) {
        uint8_t b = pc[n];
        if (b == 0x66) opsize = true;
        else if (b == 0xF2 || b == 0xF3 || b == 0x2E || b == 0x3E || b == 0x26 || b == 0x64 || b == 0x65 || b == 0x36) {
        } else break;
    }
    if ((pc[n] & 0xF0) == 0x40) rex_w = (pc[n++] & 0x08) != 0;
    uint8_t op = pc[n++];
    if (op != 0xF6 && op != 0xF7) return 0;
    uint8_t modrm = pc[n++];
    int reg = (modrm >> 3) & 7, mod = modrm >> 6, rm = modrm & 7;
    if (reg != 6 && reg != 7) return 0;
    if (mod != 3) {
        if (rm == 4) {
            uint8_t sib = pc[n++];
            if (mod == 0 && (sib & 7) == 5) n += 4;
        } else if (mod == 0 && rm == 5) {
            n += 4;  // RIP-relative
        }
        n += mod == 1 ? 1 : mod == 2 ? 4 : 0;
    }
    *size = op == 0xF6 ? 1 : rex_w ? 8 : opsize ? 2 : 4;
    return n;
}

inline void on_fpe(int sig, siginfo_t* info, void* uctx) {
    ucontext_t* uc = (ucontext_t*)uctx;
    greg_t* r = uc->uc_mcontext.gregs;
    int size = 0;
    int len = info->si_code == FPE_INTDIV && ctx().sched ? div_length((const uint8_t*)r[REG_RIP], &size) : 0;
    if (len == 0) {  // not ours: die of it as without the handler
        signal(sig, SIG_DFL);
        return;  // the instruction faults again, now fatally
    }
    uint64_t a = (uint64_t)r[REG_RAX];
    if (size == 1) {
        r[REG_RAX] = (greg_t)(a & ~0xFFFFull);  // AL = 0, AH = 0 (the 16-bit dividend does not fit AH)
    } else if (size == 2) {
        r[REG_RAX] = (greg_t)(a & ~0xFFFFull);
        r[REG_RDX] = (greg_t)(((uint64_t)r[REG_RDX] & ~0xFFFFull) | (a & 0xFFFF));
    } else if (size == 4) {
        r[REG_RAX] = 0;
        r[REG_RDX] = (greg_t)(a & 0xFFFFFFFFull);
    } else {
        r[REG_RAX] = 0;
        r[REG_RDX] = (greg_t)a;
    }
    if (div_zero_count()++ == 0) div_zero_pc() = (uintptr_t)r[REG_RIP];
    r[REG_RIP] += len;
}
}  // namespace detail_div

CBEMU_RT void install_div_zero_handler() {
    static bool done = false;
    if (done) return;
    done = true;
    struct sigaction sa {};
    sa.sa_sigaction = detail_div::on_fpe;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGFPE, &sa, nullptr);
}
#else
CBEMU_RT void install_div_zero_handler() {}
#endif

}  // namespace cbemu
#endif  // CBEMU_RT_BODY
