// The rules a TCubeTiling must satisfy (docs: 高阶API/矩阵计算/Matmul-Tiling类/TCubeTiling结构体.md, table 2) and the
// tiling the emulator's host GetTiling produces. Shared by the host tiling classes (tiling/matmul_tiling.h), which
// build a tiling, and the kernel Matmul (impl/adv_api/matmul.h), which checks the tiling it is given.
//
// The docs give the constraints, not the library's algorithm. OURS (documented in docs/emulator.md): split the
// output over the allowed cores, no core under 128 rows / columns unless the dimension is smaller, to minimise the
// largest per-core C block, ties to splits without partial base blocks inside a core, then to more cores along M
// while each keeps 128 rows (along N when the host fixed the base), then to more cores along N; base block
// (128, 256, 128 bytes of K) shrunk to the single-core shape and to L0A/L0B (double-buffered), L0C and the bias
// table; K fully staged in L1 when it fits (up to 4 base blocks deep, double-buffered); M-first iteration.
// COTBUILDER_MATMUL_TILING=random:SEED makes GetTiling draw a random tiling that obeys the same rules (core
// split, base block, steps, depths, double buffers, iteration order), so a verdict can be checked not to depend on
// our choices.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "../../kernel_tiling/kernel_tiling.h"
#include "../emu/local_mem.h"

namespace cbemu {
namespace mm {

inline int64_t ceil_div(int64_t a, int64_t b) { return b ? (a + b - 1) / b : 0; }
inline int64_t align_up(int64_t a, int64_t b) { return ceil_div(a, b) * b; }

// What the kernel's Matmul types say, for checking a tiling.
struct TypeInfo {
    uint32_t sA = 2, sB = 2, sBias = 4, sL0C = 4;  // element bytes (L0C: float / int32)
    bool transA = false, transB = false, bias = false;
};

// The first rule a tiling breaks, or "" (TCubeTiling结构体.md, table 2; usedCoreNum is checked by the launch).
inline std::string check_tiling(const AscendC::tiling::TCubeTiling& t, const TypeInfo& ty) {
    char buf[320];
    auto fail = [&](const char* fmt, auto... a) {
        std::snprintf(buf, sizeof buf, fmt, a...);
        return std::string(buf);
    };
    if (t.singleCoreM <= 0 || t.singleCoreN <= 0 || t.singleCoreK <= 0)
        return fail("singleCoreM/N/K must be > 0 (got %d, %d, %d)", t.singleCoreM, t.singleCoreN, t.singleCoreK);
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0)
        return fail("baseM/N/K must be > 0 (got %d, %d, %d)", t.baseM, t.baseN, t.baseK);
    if (t.stepM <= 0 || t.stepN <= 0 || t.stepKa <= 0 || t.stepKb <= 0 || t.depthA1 <= 0 || t.depthB1 <= 0)
        return fail("stepM/stepN/stepKa/stepKb/depthA1/depthB1 must be > 0");
    if (t.dbL0A < 1 || t.dbL0A > 2 || t.dbL0B < 1 || t.dbL0B > 2 || t.dbL0C < 1 || t.dbL0C > 2)
        return fail("dbL0A/dbL0B/dbL0C must be 1 or 2 (got %d, %d, %d)", t.dbL0A, t.dbL0B, t.dbL0C);
    if (t.iterateOrder != 0 && t.iterateOrder != 1) return fail("iterateOrder must be 0 or 1 (got %d)", t.iterateOrder);
    if (t.baseM % 16 || t.baseN % 16) return fail("baseM %d and baseN %d must be multiples of 16", t.baseM, t.baseN);
    int kal = (!ty.transA && ty.transB) ? (int)(32 / ty.sA) : 16;
    if (t.baseK % kal)
        return fail("baseK %d must be a multiple of %d for this transpose combination", t.baseK, kal);
    uint64_t l0a = (uint64_t)t.baseM * t.baseK * ty.sA * t.dbL0A, l0b = (uint64_t)t.baseN * t.baseK * ty.sB * t.dbL0B;
    uint64_t l0c = (uint64_t)t.baseM * t.baseN * ty.sL0C * t.dbL0C;
    if (l0a > mem_capacity(Mem::L0A))
        return fail("baseM * baseK * sizeof(A) * dbL0A = %llu bytes exceeds L0A (%zu)", (unsigned long long)l0a,
                    mem_capacity(Mem::L0A));
    if (l0b > mem_capacity(Mem::L0B))
        return fail("baseN * baseK * sizeof(B) * dbL0B = %llu bytes exceeds L0B (%zu)", (unsigned long long)l0b,
                    mem_capacity(Mem::L0B));
    if (l0c > mem_capacity(Mem::L0C))
        return fail("baseM * baseN * sizeof(L0C type) * dbL0C = %llu bytes exceeds L0C (%zu)",
                    (unsigned long long)l0c, mem_capacity(Mem::L0C));
    if (ty.bias && mem_capacity(Mem::BT) && (uint64_t)t.baseN * ty.sBias > mem_capacity(Mem::BT))
        return fail("baseN * sizeof(bias) = %llu bytes exceeds the bias table (%zu)",
                    (unsigned long long)t.baseN * ty.sBias, mem_capacity(Mem::BT));
    int a_db = t.depthA1 / (t.stepM * t.stepKa), b_db = t.depthB1 / (t.stepN * t.stepKb);
    if (t.depthA1 % (t.stepM * t.stepKa) || a_db < 1 || a_db > 2)
        return fail("depthA1 %d must be stepM * stepKa (%d) times 1 or 2", t.depthA1, t.stepM * t.stepKa);
    if (t.depthB1 % (t.stepN * t.stepKb) || b_db < 1 || b_db > 2)
        return fail("depthB1 %d must be stepN * stepKb (%d) times 1 or 2", t.depthB1, t.stepN * t.stepKb);
    uint64_t l1 = (uint64_t)t.baseM * t.baseK * t.depthA1 * ty.sA + (uint64_t)t.baseN * t.baseK * t.depthB1 * ty.sB +
                  (ty.bias ? (uint64_t)t.baseN * ty.sBias : 0);
    if (l1 > mem_capacity(Mem::L1))
        return fail("the A and B blocks staged in L1 (baseM*baseK*depthA1 + baseN*baseK*depthB1 elements, plus bias) "
                    "take %llu bytes; L1 has %zu", (unsigned long long)l1, mem_capacity(Mem::L1));
    return "";
}

// What the host set through the tiling class.
struct TilingSpec {
    int32_t orgM = -1, orgN = -1, orgKa = -1, orgKb = -1;
    int32_t shapeM = -1, shapeN = -1, shapeK = -1;
    int32_t singleM = -1, singleN = -1, singleK = -1;
    int32_t dim = 1;
    int32_t fixBaseM = -1, fixBaseN = -1, fixBaseK = -1;
    int32_t maxBaseM = -1, maxBaseN = -1, maxBaseK = -1, minBaseM = -1, minBaseN = -1, minBaseK = -1;
    TypeInfo ty;
    int64_t l1 = -1, l0c = -1, ub = -1, bt = -1;
    int traverse = 0;  // 0 not set, 1 M first, 2 N first
    bool dbA = true, dbB = true, dbC = false;
    bool multi_core = true;
};

// splitmix64: the random tilings' generator (same sequence everywhere).
struct Rng {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int64_t in(int64_t lo, int64_t hi) { return hi <= lo ? lo : lo + (int64_t)(next() % (uint64_t)(hi - lo + 1)); }
};

// COTBUILDER_MATMUL_TILING: "" / "ours" -> 0, "random:N" -> N (N > 0).
inline uint64_t tiling_seed() {
    const char* s = std::getenv("COTBUILDER_MATMUL_TILING");
    if (!s || std::strncmp(s, "random:", 7) != 0) return 0;
    uint64_t v = std::strtoull(s + 7, nullptr, 10);
    return v ? v : 1;
}

// Build a tiling (seed 0: ours; else a random valid one). Returns -1 when no valid tiling exists.
inline int64_t build_tiling(const TilingSpec& sp, AscendC::tiling::TCubeTiling& t, uint64_t seed) {
    Rng rng{seed * 0x2545F4914F6CDD1Dull + 7};
    const bool rnd = seed != 0;
    const TypeInfo& ty = sp.ty;
    int64_t M = sp.shapeM > 0 ? sp.shapeM : sp.orgM, N = sp.shapeN > 0 ? sp.shapeN : sp.orgN;
    int64_t K = sp.shapeK > 0 ? sp.shapeK : (sp.orgKa > 0 ? sp.orgKa : sp.orgKb);
    if (M <= 0 || N <= 0 || K <= 0) return -1;
    int64_t orgM = sp.orgM > 0 ? sp.orgM : M, orgN = sp.orgN > 0 ? sp.orgN : N;
    int64_t orgKa = sp.orgKa > 0 ? sp.orgKa : K, orgKb = sp.orgKb > 0 ? sp.orgKb : orgKa;
    int64_t dim = sp.multi_core ? (sp.dim > 0 ? sp.dim : 1) : 1;
    // ---- core split ----
    int64_t sM, sN, sK = sp.singleK > 0 ? sp.singleK : K;
    auto single_of = [](int64_t total, int64_t parts) {
        int64_t s = ceil_div(total, parts);
        return total <= 16 || parts == 1 ? total : align_up(s, 16);
    };
    // ours: a split never gives a core fewer than 128 rows / columns (one default base block) unless the whole
    // dimension is smaller: tiny problems stay on few cores
    // (a base the host fixed with SetFixSplit is the block instead)
    auto max_parts = [&](int64_t total, int64_t fixed) {
        return std::max<int64_t>(1, ceil_div(total, fixed > 0 ? fixed : 128));
    };
    if (sp.singleM > 0 && sp.singleN > 0) {
        sM = sp.singleM;
        sN = sp.singleN;
    } else {
        int64_t best_m = 1, best_n = 1, best_work = -1;
        int64_t m_parts = rnd ? ceil_div(M, 16) : max_parts(M, sp.fixBaseM);
        int64_t max_m = sp.singleM > 0 ? 1 : std::max<int64_t>(1, std::min<int64_t>(dim, m_parts));
        if (rnd) {
            int64_t md = rng.in(1, max_m);
            int64_t max_n = sp.singleN > 0 ? 1 : std::max<int64_t>(1, std::min<int64_t>(dim / md, ceil_div(N, 16)));
            best_m = md;
            best_n = rng.in(1, max_n);
        } else {
            // smallest per-core C block; then no partial base blocks inside a core (with the base the host
            // fixed, or the default one); then more cores along M while each keeps >= 128 rows (a default base
            // block), along N first when the host fixed the base; then more cores along N. (asc-devkit samples
            // that hard-code one split say so: matmul_advanced_api's 512 x 512 on 2 cores is split along M,
            // matmul_fused's 1024 x 640 with a fixed 256 x 128 base along M, matmul_leakyrelu_advanced_api's
            // 512 x 128 with a fixed 128 x 64 base along N.)
            int64_t best_tails = 0, best_m_score = INT64_MIN;
            for (int64_t md = 1; md <= max_m; ++md) {
                int64_t n_parts = std::min<int64_t>(dim / md, max_parts(N, sp.fixBaseN));
                int64_t max_n = sp.singleN > 0 ? 1 : std::max<int64_t>(1, n_parts);
                for (int64_t nd = 1; nd <= max_n; ++nd) {
                    int64_t smc = sp.singleM > 0 ? sp.singleM : single_of(M, md);
                    int64_t snc = sp.singleN > 0 ? sp.singleN : single_of(N, nd);
                    int64_t work = smc * snc;
                    int64_t bmc = sp.fixBaseM > 0 ? sp.fixBaseM : std::min<int64_t>(128, align_up(smc, 16));
                    int64_t bnc = sp.fixBaseN > 0 ? sp.fixBaseN : std::min<int64_t>(256, align_up(snc, 16));
                    int64_t tails = (smc % bmc != 0) + (snc % bnc != 0);
                    // splitting M counts only while each core keeps a whole default base block of rows
                    // (with a base the host fixed, N first: asc-devkit's matmul_leakyrelu_advanced_api, 512 x 128
                    // on 2 cores with SetFixSplit(128, 64, 128), is split along N)
                    int64_t m_score = sp.fixBaseN > 0 ? -md : (md == 1 || smc >= std::min<int64_t>(M, 128)) ? md : 0;
                    bool better = best_work < 0 || work < best_work ||
                                  (work == best_work &&
                                   (tails < best_tails ||
                                    (tails == best_tails &&
                                     (m_score > best_m_score || (m_score == best_m_score && nd > best_n)))));
                    if (better) {
                        best_work = work;
                        best_tails = tails;
                        best_m_score = m_score;
                        best_m = md;
                        best_n = nd;
                    }
                }
            }
        }
        sM = sp.singleM > 0 ? sp.singleM : single_of(M, best_m);
        sN = sp.singleN > 0 ? sp.singleN : single_of(N, best_n);
    }
    int64_t used = ceil_div(M, sM) * ceil_div(N, sN);
    if (used > dim && sp.multi_core && sp.singleM <= 0) return -1;
    // ---- base block ----
    int64_t kal = std::max<int64_t>({16, 32 / ty.sA, 32 / ty.sB});
    int64_t bm_cap = align_up(sM, 16), bn_cap = align_up(sN, 16), bk_cap = align_up(sK, kal);
    if (sp.maxBaseM > 0) bm_cap = std::min<int64_t>(bm_cap, sp.maxBaseM);
    if (sp.maxBaseN > 0) bn_cap = std::min<int64_t>(bn_cap, sp.maxBaseN);
    if (sp.maxBaseK > 0) bk_cap = std::min<int64_t>(bk_cap, sp.maxBaseK);
    int64_t bm, bn, bk;
    if (rnd) {
        bm = 16 * rng.in(1, std::max<int64_t>(1, std::min<int64_t>(bm_cap / 16, 16)));
        bn = 16 * rng.in(1, std::max<int64_t>(1, std::min<int64_t>(bn_cap / 16, 16)));
        bk = kal * rng.in(1, std::max<int64_t>(1, std::min<int64_t>(bk_cap / kal, 512 / (kal * ty.sA))));
    } else {
        bm = std::min<int64_t>(128, bm_cap);
        bn = std::min<int64_t>(256, bn_cap);
        // ours: baseK as deep as double-buffered L0A and L0B allow. With TCubeTiling.md's recommended base
        // (128, 256) that is its recommended baseK (64 for half, 128 for int8, 32 for float); a narrower block
        // goes deeper (asc-devkit matmul_callback's CopyA1 assumes a 128 x 512 half A block is copied in 4 K steps)
        int64_t by_l0 = std::min(mem_capacity(Mem::L0A) / (2 * bm * ty.sA), mem_capacity(Mem::L0B) / (2 * bn * ty.sB));
        bk = std::min<int64_t>(std::max<int64_t>(kal, by_l0 / kal * kal), bk_cap);
    }
    bm = std::max<int64_t>(16, align_up(bm, 16));
    bn = std::max<int64_t>(16, align_up(bn, 16));
    bk = std::max<int64_t>(kal, align_up(bk, kal));
    if (sp.fixBaseM > 0) bm = sp.fixBaseM;
    if (sp.fixBaseN > 0) bn = sp.fixBaseN;
    if (sp.fixBaseK > 0) bk = sp.fixBaseK;
    int64_t l0a = mem_capacity(Mem::L0A), l0b = mem_capacity(Mem::L0B);
    int64_t l0c_cap = sp.l0c > 0 ? std::min<int64_t>(sp.l0c, mem_capacity(Mem::L0C)) : mem_capacity(Mem::L0C);
    int64_t bt_cap = sp.bt > 0 ? sp.bt : mem_capacity(Mem::BT);
    int dbA = sp.dbA ? 2 : 1, dbB = sp.dbB ? 2 : 1, dbC = sp.dbC ? 2 : 1;
    if (rnd) {
        dbA = (int)rng.in(1, 2);
        dbB = (int)rng.in(1, 2);
        dbC = (int)rng.in(1, 2);
    }
    // shrink (never below one fractal) until L0A / L0B / L0C / bias table fit; the fixed sizes are kept
    for (int guard = 0; guard < 64; ++guard) {
        bool a_ok = bm * bk * ty.sA * dbA <= l0a, b_ok = bn * bk * ty.sB * dbB <= l0b;
        bool c_ok = bm * bn * ty.sL0C * dbC <= l0c_cap, bias_ok = !ty.bias || !bt_cap || bn * ty.sBias <= bt_cap;
        if (a_ok && b_ok && c_ok && bias_ok) break;
        if (!c_ok && dbC == 2) { dbC = 1; continue; }
        if ((!a_ok && dbA == 2) || (!b_ok && dbB == 2)) {
            if (!a_ok && dbA == 2) dbA = 1;
            if (!b_ok && dbB == 2) dbB = 1;
            continue;
        }
        if ((!a_ok || !b_ok) && bk > kal && sp.fixBaseK <= 0) { bk = align_up(bk / 2, kal); continue; }
        if ((!c_ok || !a_ok) && bm > 16 && sp.fixBaseM <= 0 && (bm >= bn || sp.fixBaseN > 0)) {
            bm = align_up(bm / 2, 16);
            continue;
        }
        if ((!c_ok || !b_ok || !bias_ok) && bn > 16 && sp.fixBaseN <= 0) { bn = align_up(bn / 2, 16); continue; }
        if (!c_ok && bm > 16 && sp.fixBaseM <= 0) { bm = align_up(bm / 2, 16); continue; }
        return -1;  // the fixed split cannot fit
    }
    // ---- L1 staging: K steps and depths ----
    int64_t l1_cap = sp.l1 > 0 ? std::min<int64_t>(sp.l1, mem_capacity(Mem::L1)) : mem_capacity(Mem::L1);
    int64_t k_blocks = ceil_div(sK, bk);
    int64_t stepKa = std::min<int64_t>(k_blocks, 4), stepKb = stepKa, stepM = 1, stepN = 1;
    int64_t l1dbA = 2, l1dbB = 2;
    if (rnd) {
        stepKa = rng.in(1, std::min<int64_t>(k_blocks, 8));
        stepKb = rng.in(1, std::min<int64_t>(k_blocks, 8));
        stepM = rng.in(1, std::min<int64_t>(2, ceil_div(sM, bm)));
        stepN = rng.in(1, std::min<int64_t>(2, ceil_div(sN, bn)));
        l1dbA = rng.in(1, 2);
        l1dbB = rng.in(1, 2);
    }
    auto l1_use = [&]() {
        return bm * bk * stepM * stepKa * l1dbA * ty.sA + bn * bk * stepN * stepKb * l1dbB * ty.sB +
               (ty.bias ? bn * ty.sBias : 0);
    };
    for (int guard = 0; guard < 64 && l1_use() > l1_cap; ++guard) {
        if (l1dbA == 2) l1dbA = 1;
        else if (l1dbB == 2) l1dbB = 1;
        else if (stepM > 1) stepM = 1;
        else if (stepN > 1) stepN = 1;
        else if (stepKa > 1 || stepKb > 1) {
            if (stepKa >= stepKb && stepKa > 1) stepKa--;
            else stepKb--;
        } else {
            return -1;
        }
    }
    std::memset((void*)&t, 0, sizeof t);
    t.usedCoreNum = (int32_t)used;
    t.M = (int32_t)orgM;
    t.N = (int32_t)orgN;
    t.Ka = (int32_t)orgKa;
    t.Kb = (int32_t)orgKb;
    t.singleCoreM = (int32_t)sM;
    t.singleCoreN = (int32_t)sN;
    t.singleCoreK = (int32_t)sK;
    t.baseM = (int32_t)bm;
    t.baseN = (int32_t)bn;
    t.baseK = (int32_t)bk;
    t.stepM = (int32_t)stepM;
    t.stepN = (int32_t)stepN;
    t.stepKa = (int32_t)stepKa;
    t.stepKb = (int32_t)stepKb;
    t.depthA1 = (int32_t)(stepM * stepKa * l1dbA);
    t.depthB1 = (int32_t)(stepN * stepKb * l1dbB);
    t.isBias = ty.bias ? 1 : 0;
    t.transLength = (int32_t)(bm * bn * ty.sL0C);
    t.iterateOrder = sp.traverse == 2 ? 1 : sp.traverse == 1 ? 0 : (rnd ? (int32_t)rng.in(0, 1) : 0);
    t.dbL0A = dbA;
    t.dbL0B = dbB;
    t.dbL0C = dbC;
    t.shareMode = 0;
    t.shareL1Size = (int32_t)l1_use();
    t.shareL0CSize = (int32_t)(bm * bn * ty.sL0C * dbC);
    t.shareUbSize = 0;
    t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
    t.BatchNum = 1;
    return check_tiling(t, ty).empty() ? 0 : -1;
}

}  // namespace mm
}  // namespace cbemu
