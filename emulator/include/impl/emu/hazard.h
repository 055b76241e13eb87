// The pipe-hazard model: every instruction runs on one pipe of its core (S, V, M, MTE1, MTE2, MTE3, FIX),
// pipes run concurrently, and only the syncs the hardware docs list order them (asc-devkit docs/zh/api/SIMD-API/
// 基础API/同步控制/核内同步/关键特性说明.md, 核内同步能力概述.md, PipeBarrier(ISASI).md, SetFlag-WaitFlag.md):
//
//   - SetFlag<SRC_DST>(id) / WaitFlag<SRC_DST>(id): DST's later instructions start after SRC's earlier ones end;
//   - PipeBarrier<P>: P's later instructions start after P's earlier ones end ("同一流水中虽然指令是顺序执行，但并不
//     意味着后一条指令开始执行时前一条指令执行结束"); PipeBarrier<PIPE_ALL> drains every pipe;
//   - the TPipe/TQue framework: EnQue/DeQue order the queue's producer pipe before its consumer (read-after-write),
//     FreeTensor/AllocTensor order the consumer before the next producer write (write-after-read), with the pipes
//     its positions imply (VECIN: MTE2 -> V, VECOUT: V -> MTE3, VECIN -> VECOUT: MTE2 -> MTE3) -- tables 1-2;
//   - --cce-auto-sync=on (the default for <<<>>> and op-project builds): the compiler orders S<->V, S<->MTE2,
//     S<->MTE3 and V->V, for the scalar APIs it knows (LocalTensor GetValue/SetValue/operator(), GlobalTensor
//     GetValue/operator(), the reduce / sort result registers) -- table 3; never MTE2->V, never MTE2->MTE2 or
//     MTE3->MTE3 with overlapping addresses;
//   - the scalar unit issues every instruction: what the scalar has waited for, later instructions of every pipe
//     are ordered after (the scalar's own stores are not: S->V needs a sync, as table 3 lists).
//
// Each core keeps a vector clock per pipe (know[P][Q]: every Q instruction with an epoch <= know[P][Q] has ended
// before P's next one starts) and, per 32-byte block of its UB, the last write and read of every pipe. An access
// that conflicts (read-after-write, write-after-write, write-after-read across pipes) with an access it is not
// ordered after is a `race` diagnostic naming both source lines and the missing sync. GM is tracked the same way
// across cores: cores are ordered only by SyncAll, the GM-flag syncs (IBSet/IBWait, WaitPreBlock/NotifyNextBlock,
// GroupBarrier) and scalar atomics; DMA atomic writes (SetAtomicAdd/Max/Min) do not conflict with each other.
//
// THE HOOK for other units (the Cube pipes MTE1 / M / FIX): open an instruction with
//     cbemu::hz::Scope op(cbemu::hz::P_M, loc, "Mmad");
// and attribute each operand: op.read(ptr, bytes) / op.write(ptr, bytes) for UB or GM pointers, or
// op.local(cbemu::hz::Space::L0A, byte_offset, bytes, /*write=*/true) for the other local buffers. Reads first,
// then writes. Syncs: hz::set_flag / wait_flag / barrier (below) take pipe indices.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "diag.h"

namespace cbemu {
namespace hz {

// Pipe indices (pipe_t minus PIPE_ALL; PIPE_V2 counts as V).
enum Pipe : uint8_t { P_S = 0, P_V, P_M, P_MTE1, P_MTE2, P_MTE3, P_FIX, NP };
inline const char* pipe_name(int p) {
    static const char* names[NP] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
    return p >= 0 && p < NP ? names[p] : "?";
}
// pipe_t: PIPE_S=0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX, PIPE_V2
inline int from_pipe_t(int p) {
    switch (p) {
        case 0: return P_S;
        case 1: case 8: return P_V;
        case 2: return P_M;
        case 3: return P_MTE1;
        case 4: return P_MTE2;
        case 5: return P_MTE3;
        case 7: return P_FIX;
        default: return -1;  // PIPE_ALL
    }
}

// Local buffers other than UB have their own shadow (the Cube issue's L1 / L0A / L0B / L0C / bias / fixpipe).
enum class Space : uint8_t { UB = 0, L1, L0A, L0B, L0C, BT, FB, N };

inline const char* space_name(Space sp) {
    static const char* names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BiasTable", "Fixpipe buffer"};
    return names[(int)sp];
}

using Clock = std::array<uint32_t, NP>;
inline void join(Clock& a, const Clock& b) {
    for (int i = 0; i < NP; ++i) a[i] = std::max(a[i], b[i]);
}

// Access flags.
constexpr uint8_t F_AUTO = 1;    // a scalar access the compiler's auto-sync knows (GetValue/SetValue/operator())
constexpr uint8_t F_ATOMIC = 2;  // a DMA atomic write (SetAtomicAdd/Max/Min), or a scalar GM atomic
constexpr uint8_t F_SYNC = 4;    // a GM word used as a flag by a sync primitive: never a data race

// ---- source locations, interned (a record keeps 4 bytes instead of a pointer and a line) ----
struct Site {
    const char* file;
    int line;
    const char* api;
};
inline std::vector<Site>& sites() {
    static std::vector<Site> v{{"", 0, ""}};
    return v;
}
struct SiteKey {
    const char* file;
    int line;
    const char* api;
    bool operator==(const SiteKey& o) const { return file == o.file && line == o.line && api == o.api; }
};
struct SiteKeyHash {
    size_t operator()(const SiteKey& k) const {
        return std::hash<const void*>()(k.file) ^ (std::hash<int>()(k.line) * 31) ^ (std::hash<const void*>()(k.api) * 131);
    }
};
// By pointer: the same file seen through two translation units gets two entries, which only costs a little memory.
inline std::unordered_map<SiteKey, uint32_t, SiteKeyHash>& site_index() {
    static std::unordered_map<SiteKey, uint32_t, SiteKeyHash> index;
    return index;
}
CBEMU_RT uint32_t intern(const SrcLoc& loc, const char* api);
CBEMU_RT std::string where(uint32_t site);

// ---- per-core state ----
struct Rec {
    uint32_t epoch = 0;  // 0: none
    uint32_t site = 0;
    uint32_t mask = 0;  // bytes of the 32-byte block
    uint8_t flags = 0;
};
struct Cell {
    Rec w[NP], r[NP];
    uint8_t wpipes = 0, rpipes = 0;
};
// A SetFlag that lands while its flag is still set merges into it (the flag is one bit, SetFlag-WaitFlag.md), so
// set, set, wait, wait on one id (FetchEventID.md's two-FetchEventID case) either hangs or, when the first wait came
// between the sets, orders the k-th wait after the k-th set: the sets are kept in order (up to kSets) and each wait
// takes the oldest, the ordering every run that does not hang has. `merged` counts the sets that may have merged.
constexpr int kSets = 4;
struct Flag {
    uint8_t queued = 0, merged = 0;
    bool pending = false;
    Clock clocks[kSets]{};
    uint32_t site = 0;
};
constexpr int kEvents = 40, kEventIds = 8;

struct Core {
    int block = 0, nblocks = 1;
    bool auto_sync = true;
    uint32_t cnt[NP] = {};
    Clock know[NP] = {};
    std::vector<Cell> shadow[(int)Space::N];
    size_t ub_cap = 0, ub_backing = 0;  // the SoC's UB; the emulator's larger backing (buffers InitBuffer placed past it)
    bool ub_beyond_reported = false;
    Flag flags[kEvents][kEventIds];
    // cross-core order: cvc[b] = the epoch of core b this core is ordered after; own epoch in cvc[block]
    std::vector<uint32_t> cvc;
    // CrossCoreSetFlag in a group this core waits on too (modes 0 and 1): what the set's pipe had done when the
    // set went out, per flag id; the matching CrossCoreWaitFlag orders every pipe after it (mixed.h)
    Clock cross_own[16] = {};
    uint16_t cross_own_mask = 0;
};

// Which (earlier pipe, later pipe) pairs --cce-auto-sync=on orders: table 3 (AIV, NPU arch 2201).
inline bool auto_pair(int from, int to) {
    if (from == P_V && to == P_V) return true;
    if (from == P_S) return to == P_V || to == P_MTE2 || to == P_MTE3;
    if (to == P_S) return from == P_V || from == P_MTE2 || from == P_MTE3;
    return false;
}
inline const char* event_name(int from, int to) {
    static thread_local char buf[32];
    std::snprintf(buf, sizeof buf, "%s_%s", pipe_name(from), pipe_name(to));
    return buf;
}

// The model is on unless COTBUILDER_HAZARDS=0 (for measuring its cost; verify never turns it off).
inline bool enabled() {
    static bool on = [] {
        const char* s = std::getenv("COTBUILDER_HAZARDS");
        return !(s && (std::strcmp(s, "0") == 0 || std::strcmp(s, "off") == 0));
    }();
    return on;
}
// --cce-auto-sync: on unless the build said off (COTBUILDER_CCE_AUTO_SYNC=0 in the environment, or the macro).
inline bool auto_sync_default() {
    const char* s = std::getenv("COTBUILDER_CCE_AUTO_SYNC");
    if (s) return !(std::strcmp(s, "0") == 0 || std::strcmp(s, "off") == 0);
#if defined(COTBUILDER_CCE_AUTO_SYNC) && !COTBUILDER_CCE_AUTO_SYNC
    return false;
#else
    return true;
#endif
}

inline Core* core();  // this block's model (runtime.h); nullptr outside a kernel or with the model off
CBEMU_RT void sched_tick();  // a scheduling point between instructions (sched.h)

// The clock a SetFlag on `src` publishes: what src knows, what the scalar had waited for when it issued the
// SetFlag, and every src instruction issued so far (minus `exclude`, an instruction still being issued).
inline Clock release_clock(Core* c, int src, uint32_t exclude = 0) {
    Clock k = c->know[src];
    if (src != P_S)
        for (int q = 0; q < NP; ++q)
            if (q != P_S) k[q] = std::max(k[q], c->know[P_S][q]);
    k[src] = exclude ? exclude - 1 : c->cnt[src];
    return k;
}
inline void acquire(Core* c, int dst, const Clock& k) {
    join(c->know[dst], k);
    if (dst == P_S) c->know[P_S][P_S] = c->cnt[P_S];
}

// ---- the current instruction ----
struct Op {
    Core* c = nullptr;
    int pipe = 0;
    uint32_t epoch = 0, site = 0;
    uint8_t flags = 0;
};
inline Op*& current_op() {
    thread_local Op* op = nullptr;
    return op;
}

CBEMU_RT void report_race(Core* c, const Op& op, const char* what, int other_pipe, uint32_t other_site,
                          const char* space, uint64_t lo, uint64_t hi, bool cross_core, int other_core);

// A conflicting earlier access (pipe q, epoch e, flags f) that this op is not ordered after: the compiler may
// order it (auto-sync); else it is a race. Either way a sync is recorded so one missing sync is reported once.
CBEMU_RT void unordered(Core* c, const Op& op, int q, const Rec& r, const char* what, Space sp, uint64_t lo,
                        uint64_t hi);

// `data`: the bytes a write is about to store (when the caller has them). A write-after-write or write-after-read
// that stores exactly the bytes already there cannot change the result whatever the order (several cores writing
// the same broadcast result, a bias copied again into the bias table): it is not reported.
inline bool same_bytes(const void* data, const uint8_t* dst, uint64_t n) { return data && std::memcmp(data, dst, n) == 0; }
// The same, over the bytes of one 32-byte block in `m` only (the bytes an earlier unordered access touched): `data`
// and `dst` point at the block's byte 0. A write that leaves every byte the other access read (or wrote) as it was
// cannot change what that access saw (or left), whatever it does to the block's other bytes.
inline bool same_bytes_in(const uint8_t* data, const uint8_t* dst, uint32_t m) {
    for (; m; m &= m - 1) {
        int b = __builtin_ctz(m);
        if (data[b] != dst[b]) return false;
    }
    return true;
}

CBEMU_RT void local_access(const Op& op, Space sp, uint64_t off, uint64_t n, bool write, const void* data = nullptr,
                           const uint8_t* base = nullptr);

// ---- GM: shared by all cores of a launch, one shadow per GmAlloc/aclrtMalloc allocation ----
struct GmEnt {
    uint32_t epoch = 0, cepoch = 0, site = 0, mask = 0, gen = 0;
    uint16_t core = 0;
    uint8_t pipe = 0, flags = 0;
    bool write = false;
};
struct GmCell {
    std::vector<GmEnt> ents;
};
struct GmShadow {
    uintptr_t base = 0;
    size_t size = 0;
    std::vector<GmCell> cells;
};
constexpr size_t kGmShadowCap = (size_t)256 << 20;  // larger allocations are not tracked (memory)
inline std::map<uintptr_t, GmShadow>& gm_shadows() {
    static std::map<uintptr_t, GmShadow> m;
    return m;
}
inline uint32_t& launch_gen() {
    static uint32_t g = 1;
    return g;
}
inline void gm_forget(uintptr_t base) { gm_shadows().erase(base); }

CBEMU_RT bool gm_allocation(const void* p, uintptr_t& base, size_t& size);  // runtime.h

CBEMU_RT void gm_access(const Op& op, const void* p, uint64_t n, bool write, const void* data = nullptr);

inline uint8_t* ub_base();  // runtime.h
// The cube memory (L1 / L0A / L0B / L0C / BT / FB) that holds p, its offset there, and that memory's shadow made
// ready (local_mem.h: a core's cube shadows are sized on first use, so vector kernels never pay for them).
CBEMU_RT bool cube_space_of(Core* c, const void* p, Space& sp, uint64_t& off);

CBEMU_RT void access(const Op& op, const void* p, uint64_t n, bool write, const void* data = nullptr);
// An API touching UB past the SoC's capacity (a buffer InitBuffer placed beyond it): the error is the access, not the
// InitBuffer - nothing on the chip checks where InitBuffer puts a buffer that no API touches.
CBEMU_RT void ub_beyond(const Op& op, uint64_t off, uint64_t n);

// An instruction: opens on construction (a scheduling point, the issue rule), attributes accesses, closes on
// destruction. A Scope opened inside another (a library API calling basic ones) joins the outer instruction.
class Scope {
public:
    Scope(int pipe, const SrcLoc& loc, const char* api, uint8_t flags = 0);
    ~Scope() {
        if (outer_) current_op() = nullptr;
    }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    void read(const void* p, uint64_t n) {
        if (op_) access(*op_, p, n, false);
    }
    void write(const void* p, uint64_t n, const void* data = nullptr) {
        if (op_) access(*op_, p, n, true, data);
    }
    void local(Space sp, uint64_t off, uint64_t n, bool write) {
        if (op_ && op_->c && !op_->c->shadow[(int)sp].empty()) local_access(*op_, sp, off, n, write);
    }
    bool active() const { return op_ != nullptr; }

private:
    Op own_;
    Op* op_ = nullptr;
    bool outer_ = false;
};

// ---- syncs ----
CBEMU_RT void set_flag(int src, int dst, int evt, int id, const SrcLoc& loc);
CBEMU_RT void wait_flag(int src, int dst, int evt, int id, const SrcLoc& loc);
// Every pipe drained: every later instruction comes after every earlier one (PipeBarrier<PIPE_ALL>, SyncAll).
inline void drain_all(Core* c) {
    for (int p = 0; p < NP; ++p)
        for (int q = 0; q < NP; ++q) c->know[p][q] = std::max(c->know[p][q], c->cnt[q]);
}
CBEMU_RT void barrier(int pipe);
// The scalar's stores are visible to every pipe (data cache clean-and-invalidate).
CBEMU_RT void scalar_stores_visible();

// At the end of a block: a flag never consumed, or a wait never satisfied.
CBEMU_RT void end_checks(Core* c);

}  // namespace hz
}  // namespace cbemu

#if CBEMU_RT_BODY
namespace cbemu {
namespace hz {

CBEMU_RT uint32_t intern(const SrcLoc& loc, const char* api) {
    auto& index = site_index();
    SiteKey key{loc.file ? loc.file : "", loc.line, api};
    auto it = index.find(key);
    if (it != index.end()) return it->second;
    sites().push_back({key.file, key.line, api});
    return index[key] = (uint32_t)(sites().size() - 1);
}

CBEMU_RT std::string where(uint32_t site) {
    const Site& s = sites()[site];
    const char* base = std::strrchr(s.file, '/');
    return std::string(s.api) + " at " + (base ? base + 1 : s.file) + ":" + std::to_string(s.line);
}

CBEMU_RT void unordered(Core* c, const Op& op, int q, const Rec& r, const char* what, Space sp, uint64_t lo,
                        uint64_t hi) {
    bool scalar_ok = (q != P_S || (r.flags & F_AUTO)) && (op.pipe != P_S || (op.flags & F_AUTO));
    if (!(c->auto_sync && auto_pair(q, op.pipe) && scalar_ok))
        report_race(c, op, what, q, r.site, space_name(sp), lo, hi, false, -1);
    acquire(c, op.pipe, release_clock(c, q, q == op.pipe ? op.epoch : 0));
}

CBEMU_RT void local_access(const Op& op, Space sp, uint64_t off, uint64_t n, bool write, const void* data,
                           const uint8_t* base) {
    Core* c = op.c;
    std::vector<Cell>& shadow = c->shadow[(int)sp];
    uint64_t end = off + n;
    if (end > shadow.size() * 32) end = shadow.size() * 32;
    for (uint64_t blk = off / 32; blk * 32 < end; ++blk) {
        uint32_t lo = (uint32_t)(std::max<uint64_t>(off, blk * 32) - blk * 32);
        uint32_t hi = (uint32_t)(std::min<uint64_t>(end, blk * 32 + 32) - blk * 32);
        uint32_t mask = (hi - lo == 32) ? ~0u : (((1u << (hi - lo)) - 1u) << lo);
        Cell& cell = shadow[blk];
        const Clock& k = c->know[op.pipe];
        // the write's bytes and the block's current ones, both at the block's byte 0 (only bytes in `mask` are read)
        const uint8_t* wblk = data ? (const uint8_t*)data + ((int64_t)(blk * 32) - (int64_t)off) : nullptr;
        const uint8_t* cur = base ? base + blk * 32 : nullptr;
        for (uint8_t ps = cell.wpipes; ps; ps &= (uint8_t)(ps - 1)) {
            int q = __builtin_ctz(ps);
            const Rec& r = cell.w[q];
            if (!(r.mask & mask) || k[q] >= r.epoch || (q == op.pipe && r.epoch == op.epoch)) continue;
            if (write && wblk && cur && same_bytes_in(wblk, cur, r.mask & mask)) continue;
            unordered(c, op, q, r, write ? "write-after-write" : "read-after-write", sp, blk * 32 + lo,
                      blk * 32 + hi);
        }
        if (write) {
            for (uint8_t ps = cell.rpipes; ps; ps &= (uint8_t)(ps - 1)) {
                int q = __builtin_ctz(ps);
                const Rec& r = cell.r[q];
                // a pipe reads its operands in issue order: a later write on the same pipe cannot overtake them
                if (q == op.pipe || !(r.mask & mask) || k[q] >= r.epoch) continue;
                // a write that leaves the bytes the reader reads as they were cannot change what it sees (a bias
                // copied again into the bias table each K step; a Gather that spreads each block's first element
                // over the block while a DataCopyPad still copies out those first elements)
                if (wblk && cur && same_bytes_in(wblk, cur, r.mask & mask)) continue;
                unordered(c, op, q, r, "write-after-read", sp, blk * 32 + lo, blk * 32 + hi);
            }
        }
        Rec& mine = write ? cell.w[op.pipe] : cell.r[op.pipe];
        // an older record of this pipe on bytes the new one does not cover stays covered (conservatively)
        mine.mask = (mine.epoch && (mine.mask & ~mask)) ? (mine.mask | mask) : mask;
        mine.epoch = op.epoch;
        mine.site = op.site;
        mine.flags = op.flags;
        (write ? cell.wpipes : cell.rpipes) |= (uint8_t)(1u << op.pipe);
    }
}

CBEMU_RT void gm_access(const Op& op, const void* p, uint64_t n, bool write, const void* data) {
    uintptr_t base = 0;
    size_t size = 0;
    if (!gm_allocation(p, base, size) || size > kGmShadowCap) return;
    GmShadow& sh = gm_shadows()[base];
    if (sh.cells.empty()) {
        sh.base = base;
        sh.size = size;
        sh.cells.resize((size + 31) / 32);
    }
    Core* c = op.c;
    uint64_t off = (uintptr_t)p - base, end = std::min<uint64_t>(off + n, size);
    uint32_t gen = launch_gen(), me = (uint32_t)c->block;
    for (uint64_t blk = off / 32; blk * 32 < end; ++blk) {
        uint32_t lo = (uint32_t)(std::max<uint64_t>(off, blk * 32) - blk * 32);
        uint32_t hi = (uint32_t)(std::min<uint64_t>(end, blk * 32 + 32) - blk * 32);
        uint32_t mask = (hi - lo == 32) ? ~0u : (((1u << (hi - lo)) - 1u) << lo);
        GmCell& cell = sh.cells[blk];
        bool all_before = true;  // this write is ordered after every record of the cell: it replaces them
        GmEnt* mine = nullptr;
        for (GmEnt& e : cell.ents) {
            if (e.gen != gen) { e.epoch = 0; continue; }  // an earlier launch ended before this one began
            if (e.core == me && e.pipe == op.pipe && e.write == write) { mine = &e; }
            if (!e.epoch) continue;
            bool same_core = e.core == me;
            bool ordered = same_core ? c->know[op.pipe][e.pipe] >= e.epoch : c->cvc[e.core] >= e.cepoch;
            if (ordered || (same_core && e.pipe == op.pipe && e.epoch == op.epoch)) continue;
            all_before = false;
            if (!(e.mask & mask) || (!write && !e.write)) continue;
            if ((e.flags & F_SYNC) || (op.flags & F_SYNC)) continue;
            if ((e.flags & F_ATOMIC) && (op.flags & F_ATOMIC) && e.write && write) continue;  // atomics commute
            if (same_core && !e.write && e.pipe == op.pipe) continue;  // in-order reads of one pipe
            if (write && e.write &&
                same_bytes((const uint8_t*)data + (blk * 32 + lo - off), (const uint8_t*)base + blk * 32 + lo, hi - lo))
                continue;
            const char* what = write ? (e.write ? "write-after-write" : "write-after-read") : "read-after-write";
            if (same_core) {
                Rec r;
                r.epoch = e.epoch;
                r.site = e.site;
                r.flags = e.flags;
                bool scalar_ok = (e.pipe != P_S || (e.flags & F_AUTO)) && (op.pipe != P_S || (op.flags & F_AUTO));
                if (!(c->auto_sync && auto_pair(e.pipe, op.pipe) && scalar_ok))
                    report_race(c, op, what, e.pipe, e.site, "GM", blk * 32 + lo, blk * 32 + hi, false, -1);
                acquire(c, op.pipe, release_clock(c, e.pipe, e.pipe == op.pipe ? op.epoch : 0));
            } else {
                report_race(c, op, what, e.pipe, e.site, "GM", blk * 32 + lo, blk * 32 + hi, true, e.core);
                c->cvc[e.core] = std::max(c->cvc[e.core], e.cepoch);  // reported once
            }
        }
        if (write && all_before && !(op.flags & F_ATOMIC)) {
            cell.ents.clear();
            mine = nullptr;
        }
        if (!mine) {
            for (GmEnt& e : cell.ents)
                if (!e.epoch) { mine = &e; break; }
            if (!mine) { cell.ents.emplace_back(); mine = &cell.ents.back(); }
            mine->mask = 0;
        }
        mine->mask = (mine->epoch && mine->gen == gen) ? (mine->mask | mask) : mask;
        mine->epoch = op.epoch;
        mine->cepoch = c->cvc[me];
        mine->site = op.site;
        mine->gen = gen;
        mine->core = (uint16_t)me;
        mine->pipe = (uint8_t)op.pipe;
        mine->flags = op.flags;
        mine->write = write;
    }
}

CBEMU_RT void access(const Op& op, const void* p, uint64_t n, bool write, const void* data) {
    if (!op.c || !p || n == 0) return;
    const uint8_t* b = (const uint8_t*)p;
    const uint8_t* ub = ub_base();
    if (ub && b >= ub && b < ub + op.c->ub_cap) {
        if (b + n > ub + op.c->ub_cap) ub_beyond(op, b - ub, n);
        local_access(op, Space::UB, (uint64_t)(b - ub), n, write, data, data ? ub : nullptr);
        return;
    }
    if (ub && b >= ub && b < ub + op.c->ub_backing) {
        ub_beyond(op, b - ub, n);
        return;
    }
    Space sp;
    uint64_t off;
    if (cube_space_of(op.c, p, sp, off)) {
        local_access(op, sp, off, n, write, data, data ? b - off : nullptr);
        return;
    }
    gm_access(op, p, n, write, data);
}

CBEMU_RT void ub_beyond(const Op& op, uint64_t off, uint64_t n) {
    if (op.c->ub_beyond_reported) return;
    op.c->ub_beyond_reported = true;
    const Site& s = sites()[op.site];
    report("ub_overflow", Sev::error, SrcLoc{s.file, s.line},
           "%s touches UB bytes [%llu, %llu), past the SoC's %zu-byte UB (a buffer InitBuffer placed beyond it)",
           s.api, (unsigned long long)off, (unsigned long long)(off + n), op.c->ub_cap);
}

CBEMU_RT Scope::Scope(int pipe, const SrcLoc& loc, const char* api, uint8_t flags) {
    if (current_op()) { op_ = current_op(); return; }
    Core* c = core();
    if (!c) return;
    sched_tick();
    own_.c = c;
    own_.pipe = pipe;
    own_.epoch = ++c->cnt[pipe];
    own_.site = intern(loc, api);
    own_.flags = flags;
    if (pipe == P_S) {
        c->know[P_S][P_S] = own_.epoch - 1;
    } else {
        for (int q = 0; q < NP; ++q)
            if (q != P_S) c->know[pipe][q] = std::max(c->know[pipe][q], c->know[P_S][q]);
    }
    op_ = &own_;
    current_op() = op_;
    outer_ = true;
}

CBEMU_RT void set_flag(int src, int dst, int evt, int id, const SrcLoc& loc) {
    Core* c = core();
    if (!c || src < 0 || dst < 0) return;
    sched_tick();
    Flag& f = c->flags[evt % kEvents][id & (kEventIds - 1)];
    if (f.pending) {  // a WaitFlag issued earlier on dst was waiting for this SetFlag
        f.pending = false;
        acquire(c, dst, release_clock(c, src));
        return;
    }
    if (f.queued) {
        report("sync", Sev::warning, loc,
               "SetFlag<HardEvent::%s>(%d) while the flag set by %s may still be unconsumed: the flag is one bit, "
               "so if it is, one WaitFlag consumes both and the next one waits for a later SetFlag or hangs "
               "(FetchEventID.md: two SetFlag on one id before their WaitFlag is undefined)",
               event_name(src, dst), id, where(f.site).c_str());
        if (f.queued == kSets) return;
        ++f.merged;
    }
    f.clocks[f.queued++] = release_clock(c, src);
    f.site = intern(loc, "SetFlag");
}

CBEMU_RT void wait_flag(int src, int dst, int evt, int id, const SrcLoc& loc) {
    Core* c = core();
    if (!c || src < 0 || dst < 0) return;
    sched_tick();
    Flag& f = c->flags[evt % kEvents][id & (kEventIds - 1)];
    if (f.queued) {
        acquire(c, dst, f.clocks[0]);
        std::copy(f.clocks + 1, f.clocks + f.queued, f.clocks);
        if (--f.queued == 0) f.merged = 0;
        return;
    }
    if (dst == P_S) {
        report("sync", Sev::fatal, loc,
               "WaitFlag<HardEvent::%s>(%d) with no SetFlag<HardEvent::%s>(%d) before it: the scalar pipe waits "
               "for a flag only it could still set (hangs on hardware; SetFlag-WaitFlag.md: they must be paired)",
               event_name(src, dst), id, event_name(src, dst), id);
    }
    f.pending = true;
    f.site = intern(loc, "WaitFlag");
}

CBEMU_RT void barrier(int pipe) {
    Core* c = core();
    if (!c) return;
    sched_tick();
    if (pipe < 0) {
        drain_all(c);
        return;
    }
    c->know[pipe][pipe] = c->cnt[pipe];
}

CBEMU_RT void scalar_stores_visible() {
    Core* c = core();
    if (!c) return;
    for (int p = 0; p < NP; ++p) c->know[p][P_S] = std::max(c->know[p][P_S], c->cnt[P_S]);
}

CBEMU_RT void end_checks(Core* c) {
    for (int e = 0; e < kEvents; ++e)
        for (int i = 0; i < kEventIds; ++i) {
            Flag& f = c->flags[e][i];
            const Site& s = sites()[f.site];
            // sets left over that may have merged into an earlier one were warned about where they were set
            if (f.queued > f.merged)
                report("sync", Sev::error, SrcLoc{s.file, s.line},
                       "SetFlag(%d) here is never consumed by a WaitFlag (SetFlag-WaitFlag.md: they must be paired)", i);
            if (f.pending)
                report("sync", Sev::error, SrcLoc{s.file, s.line},
                       "WaitFlag(%d) here is never satisfied by a SetFlag: its pipe waits forever (hangs on hardware)", i);
            f.queued = f.merged = 0;
            f.pending = false;
        }
}

CBEMU_RT void report_race(Core* c, const Op& op, const char* what, int other_pipe, uint32_t other_site,
                          const char* space, uint64_t lo, uint64_t hi, bool cross_core, int other_core) {
    const Site& s = sites()[op.site];
    std::string fix;
    if (cross_core) {
        fix = "no SyncAll (or GM-flag sync) orders the two cores";
    } else if (other_pipe == op.pipe) {
        fix = std::string("missing PipeBarrier<PIPE_") + pipe_name(op.pipe) + ">()";
    } else {
        fix = std::string("missing SetFlag/WaitFlag<HardEvent::") + event_name(other_pipe, op.pipe) + ">";
        if (other_pipe == P_MTE2 && op.pipe == P_V) fix += " (or EnQue/DeQue through a TQue<VECIN>)";
        if (other_pipe == P_V && op.pipe == P_MTE3) fix += " (or EnQue/DeQue through a TQue<VECOUT>)";
        if (!c->auto_sync && auto_pair(other_pipe, op.pipe)) fix += "; the unit builds with --cce-auto-sync=off";
    }
    char other[48] = "";
    if (cross_core) std::snprintf(other, sizeof other, " on block %d", other_core);
    report("race", Sev::error, SrcLoc{s.file, s.line},
           "%s on %s bytes [%llu, %llu): %s (pipe %s) and %s (pipe %s%s) are not ordered: %s", what, space,
           (unsigned long long)lo, (unsigned long long)hi, where(op.site).c_str(), pipe_name(op.pipe),
           where(other_site).c_str(), pipe_name(other_pipe), other, fix.c_str());
}

}  // namespace hz
}  // namespace cbemu
#endif  // CBEMU_RT_BODY
