// The multi-core launch: a deterministic, seeded scheduler over the blocks of a kernel launch.
//
// Every block runs on its own thread (so a block blocked in SyncAll or on a GM flag keeps its stack), but only one
// block runs at a time: it holds the baton and hands it on at scheduling points (between instructions) after a
// quantum drawn from a seeded generator (COTBUILDER_SCHEDULE_SEED, default 0). Same seed, same interleaving, same
// output; `verify --schedules N` runs N seeds, and a kernel whose output depends on the order fails.
//
// As on hardware, at most `cores` blocks are resident (the SoC's vector cores; cube cores for AIC-mode kernels): the
// others start when a resident one ends (multi-round scheduling). So a SyncAll with more blocks than cores hangs
// (SyncAll.md: numBlocks must not exceed the cores, "否则框架进行多轮调度时会插入异常同步，导致Kernel卡死"), and so
// does a wait on a flag that only a block never started could set. Both are reported as `sync_deadlock`.
//
// The scheduler's blocks are the launch's cores (cores.h): one per logical core for a plain kernel, the AIC core and
// its AIV cores for a mixed one (planned at launch for `__mix__`, or added when a block learns its kernel is mixed:
// mixed.h). Residency counts logical cores: the next one starts when every core of a resident one has ended. SyncAll
// meets per group (SyncAll<true>: the vector cores, or the AIC cores when an AIC calls it; SyncAll<false>: every core).
#pragma once
#include <array>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core_builds.h"
#include "cores.h"
#include "div_zero.h"

namespace cbemu {

struct Sched {
    enum St : uint8_t { NOT_STARTED, READY, IN_BARRIER, SPINNING, DONE };
    enum Group : uint8_t { G_ALL = 0, G_VEC, G_CUBE, NG };
    struct Block {
        St st = NOT_STARTED;
        std::condition_variable cv;
        uint64_t seen_progress = 0;  // the progress count when this spinner last polled in vain
        CoreId id;
        int waiting_group = -1;  // the SyncAll group it waits in
    };
    // One SyncAll group: the cores expected over the launch, arrivals of the current round, cores that returned (no
    // longer awaited), and the cross-core clock joined over the arrivals (each core adopts it when the round ends).
    struct Round {
        int expected = 0, arrived = 0, departed = 0;
        std::vector<uint32_t> join_clock, released_clock;
    };
    std::mutex m;
    std::condition_variable host_cv;
    std::vector<std::unique_ptr<Block>> blocks;  // every core of the launch, by slot
    std::vector<std::thread> threads;
    std::function<void()> body;
    std::function<void()> body_aiv;  // a kernel built once per core type (core_builds.h): what the AIV cores run
    const char* name = "kernel";
    int nblocks = 0;       // blocks.size()
    int nlogical = 0;      // numBlocks of the launch
    int clock_slots = 0;   // the size of each core's cross-core clock: at most 1 AIC + 2 AIV per logical core
    int cores = 0;         // resident logical cores
    int next_logical = 0;  // the first logical core not started yet
    std::vector<int> live_of_logical;
    std::vector<std::vector<int>> slots_of_logical;
    int done = 0, running = -1;
    uint64_t rng = 0, progress = 0;
    uint32_t quantum = 1;
    Round rounds[NG];
    // cross-core clocks published through GM flag words (IBSet, NotifyNextBlock, GroupBarrier::Arrive, atomics)
    std::map<uintptr_t, std::vector<uint32_t>> published;
    // CrossCore flags (mixed.h): counters per core and flag id, pending mode-0/1/2 arrivals, the clocks the sets
    // published towards each core, the cores that have returned
    std::map<uint64_t, std::array<int, 16>> counters;
    std::map<uint64_t, int> arrivals;
    std::map<uint64_t, std::vector<uint32_t>> flag_clocks;
    std::map<uint64_t, bool> ended;

    static uint64_t key(CoreKind k, int logical, int sub) {
        return ((uint64_t)k << 40) | ((uint64_t)(uint32_t)logical << 8) | (uint64_t)(sub & 0xFF);
    }
    static int group_of(const CoreId& id) { return id.kind == CoreKind::AIC ? G_CUBE : G_VEC; }

    // The last awaited core of group g arrived: everyone waiting in it may go on. Returns false when the round
    // completed only because some cores had already returned (they never called this SyncAll: hangs on hardware).
    bool complete_round(int g);

    uint64_t next_random() {  // splitmix64: small, fast, and the same sequence on every platform
        uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t draw_quantum() { return 1 + (uint32_t)(next_random() % 48); }

    // A block that may take the baton: READY or SPINNING (a spinner polls again). `except` is skipped if any other
    // candidate exists. -1 when there is none.
    int pick(int except);
    // Hand the baton from `me` to `next` and wait (lock held) until it comes back.
    void hand_over(std::unique_lock<std::mutex>& lk, int me, int next);
};

inline Sched*& current_sched() {
    static Sched* s = nullptr;
    return s;
}

inline uint64_t schedule_seed() {
    const char* s = std::getenv("COTBUILDER_SCHEDULE_SEED");
    return s && *s ? std::strtoull(s, nullptr, 0) : 0;
}

// Resident cores: vector cores, or cube cores when the host asked for AIC mode (SetKernelMode).
inline int resident_cores() {
    // KernelMode: MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1
    return (int)(kernel_mode() == 1 ? soc().aic_cores : soc().aiv_cores);
}

namespace hz {
// A write another block may be polling for just happened (a GM flag, an atomic): spinners must look again.
inline void note_progress() {
    if (Sched* s = ctx().sched) s->progress++;
}
}  // namespace hz

[[noreturn]] CBEMU_RT void deadlock(const SrcLoc& loc, const char* what);

// SyncAll: every core of the group arrives before any leaves; the pipes are drained and the cross-core clocks
// joined (hazard model: accesses before the barrier on any core are ordered before accesses after it on any core).
// all_cores: SyncAll<false> (AIC and AIV cores together); else the caller's own kind (SyncAll<true>).
CBEMU_RT void barrier_wait(const SrcLoc& loc, bool all_cores = false);

// Cross-core release / acquire through a GM word (IBSet -> IBWait, NotifyNextBlock -> WaitPreBlock, ...): what this
// core did before the release is ordered before what the acquiring core does after the acquire.
CBEMU_RT void publish(const void* word);
CBEMU_RT void acquire_published(const void* word);

// Poll pred() until it holds, as a core spinning on a GM flag does, letting the other blocks run in between. If no
// block can make progress any more (all others ended, wait in SyncAll, or spin without anything happening), nobody
// can ever make pred() true: the hardware would hang, so this is a fatal sync_deadlock.
// `what`: the diagnostic when it can never hold (default: a GM flag no running block can set).
template <typename P>
inline void spin_until(P pred, const SrcLoc& loc, const char* api, const char* what = nullptr) {
    BlockCtx& c = ctx();
    Sched* s = c.sched;
    while (!pred()) {
        char msg[320];
        if (what)
            std::snprintf(msg, sizeof msg, "%s", what);
        else
            std::snprintf(msg, sizeof msg, "%s waits for a GM flag that no running block can set any more (hangs on "
                          "hardware)", api);
        if (!s || s->nblocks == 1) deadlock(loc, msg);
        std::unique_lock<std::mutex> lk(s->m);
        int me = c.slot;
        Sched::Block& mine = *s->blocks[me];
        mine.st = Sched::SPINNING;
        mine.seen_progress = s->progress;
        bool stuck = true;
        for (int b = 0; b < s->nblocks; ++b) {
            auto& other = *s->blocks[b];
            // blocks not started yet cannot help: they start only when a resident block ends
            if (other.st == Sched::READY || (other.st == Sched::SPINNING && other.seen_progress != s->progress))
                stuck = false;
        }
        if (stuck) {
            if (std::getenv("CBEMU_DEBUG_SCHED"))
                for (int b = 0; b < s->nblocks; ++b)
                    std::fprintf(stderr, "block %d st %d seen %llu progress %llu\n", b, (int)s->blocks[b]->st,
                                 (unsigned long long)s->blocks[b]->seen_progress, (unsigned long long)s->progress);
            deadlock(loc, msg);
        }
        int next = s->pick(me);
        if (next >= 0 && next != me) s->hand_over(lk, me, next);
        mine.st = Sched::READY;
    }
}

namespace detail_launch {
CBEMU_RT void core_main(Sched* s, int slot);

// Start a planned core (lock held): it takes the baton when the scheduler picks it.
CBEMU_RT void start_core(Sched* s, int slot);
CBEMU_RT void start_logical(Sched* s, int logical);
// Plan a core of the launch (lock held, or before any thread runs); returns its slot.
CBEMU_RT int plan_core(Sched* s, const CoreId& id);

// At the end of a core: flags set towards it that it never waited for (CrossCoreSetFlag / CrossCoreWaitFlag pair).
CBEMU_RT void cross_core_end_checks(Sched* s);

}  // namespace detail_launch

// Run body() once per core of a launch of block_dim logical cores (the kernel's `__mix__` ratio, if any, in mix) under
// the scheduler (plain blocks, or the AIC and AIV cores of a mixed kernel); returns when every core has ended.
// `body_aiv`, when set, is what the AIV cores run instead (a kernel built once per core type).
CBEMU_RT void launch_cores(const char* name, std::function<void()> body, uint32_t block_dim, MixRatio mix,
                           std::function<void()> body_aiv = {});

// Run func(args...) once per core under the scheduler; returns when every core has ended. A kernel built once per
// core type (core_builds.h) runs its AIC build on the AIC cores and its AIV build on the AIV cores.
template <typename F, typename... Args>
void run_kernel(const char* name, F func, uint32_t block_dim, Args... args) {
    if constexpr (std::is_pointer<F>::value && std::is_function<typename std::remove_pointer<F>::type>::value) {
        CoreBuilds cb = core_builds_of((const void*)func);
        if (cb.aic || cb.aiv) {
            F aic = (F)cb.aic, aiv = (F)cb.aiv;
            std::function<void()> on_aic, on_aiv;
            if (aic) on_aic = [=]() { aic(args...); };
            if (aiv) on_aiv = [=]() { aiv(args...); };
            launch_cores(name, aic ? on_aic : on_aiv, block_dim, split_mix(mix_ratio_of(func), cb), on_aiv);
            return;
        }
    }
    launch_cores(name, [=]() { func(args...); }, block_dim, mix_ratio_of(func));
}

}  // namespace cbemu

#if CBEMU_RT_BODY
namespace cbemu {

CBEMU_RT bool Sched::complete_round(int g) {
    Round& r = rounds[g];
    bool whole = r.arrived >= r.expected;
    r.arrived = 0;
    r.released_clock = r.join_clock;
    r.join_clock.assign(r.join_clock.size(), 0);
    for (auto& b : blocks)
        if (b->st == IN_BARRIER && b->waiting_group == g) b->st = READY, b->waiting_group = -1;
    return whole;
}

CBEMU_RT int Sched::pick(int except) {
    int n = 0, only = -1;
    nblocks = (int)blocks.size();
    for (int b = 0; b < nblocks; ++b) {
        St st = blocks[b]->st;
        if ((st == READY || st == SPINNING) && b != except) n++, only = b;
    }
    if (n == 0) {
        if (except >= 0 && (blocks[except]->st == READY || blocks[except]->st == SPINNING)) return except;
        return -1;
    }
    if (n == 1) return only;
    uint64_t k = next_random() % (uint64_t)n;
    for (int b = 0; b < nblocks; ++b) {
        St st = blocks[b]->st;
        if ((st == READY || st == SPINNING) && b != except && k-- == 0) return b;
    }
    return only;
}

CBEMU_RT void Sched::hand_over(std::unique_lock<std::mutex>& lk, int me, int next) {
    running = next;
    if (next >= 0) blocks[next]->cv.notify_one();
    if (me >= 0 && blocks[me]->st != DONE) blocks[me]->cv.wait(lk, [&] { return running == me; });
}

namespace hz {
// A scheduling point: another block may run now.
CBEMU_RT void sched_tick() {
    Sched* s = ctx().sched;
    if (!s) return;
    s->progress++;
    if (s->nblocks == 1 || --s->quantum > 0) return;
    std::unique_lock<std::mutex> lk(s->m);
    s->quantum = s->draw_quantum();
    int me = ctx().slot;
    int next = s->pick(-1);
    if (next >= 0 && next != me) s->hand_over(lk, me, next);
}
}  // namespace hz

[[noreturn]] CBEMU_RT void deadlock(const SrcLoc& loc, const char* what) {
    report("sync_deadlock", Sev::fatal, loc, "%s", what);
    std::_Exit(3);
}

CBEMU_RT void barrier_wait(const SrcLoc& loc, bool all_cores) {
    BlockCtx& c = ctx();
    Sched* s = c.sched;
    if (!s) return;
    if (s->nlogical > s->cores) {
        char msg[320];
        std::snprintf(msg, sizeof msg,
                      "SyncAll with %d blocks on a SoC with %d cores: blocks beyond the %d resident ones start only "
                      "when a resident one ends, which never happens (hangs on hardware; SyncAll.md)",
                      s->nlogical, s->cores, s->cores);
        deadlock(loc, msg);
    }
    hz::barrier(-1);
    std::unique_lock<std::mutex> lk(s->m);
    int g = all_cores ? Sched::G_ALL : Sched::group_of(core_id());
    Sched::Round& r = s->rounds[g];
    s->progress++;
    if (c.hz) {
        if (r.join_clock.size() != c.hz->cvc.size()) r.join_clock.assign(c.hz->cvc.size(), 0);
        for (size_t i = 0; i < c.hz->cvc.size(); ++i) r.join_clock[i] = std::max(r.join_clock[i], c.hz->cvc[i]);
    }
    int me = c.slot;
    if (++r.arrived + r.departed >= r.expected) {
        if (!s->complete_round(g)) {
            lk.unlock();
            report("syncall_mismatch", Sev::error, loc,
                   "SyncAll completes only because %d core(s) already returned without calling it (hangs on "
                   "hardware: every core must reach each SyncAll)", r.departed);
            lk.lock();
        }
    } else {
        s->blocks[me]->st = Sched::IN_BARRIER;
        s->blocks[me]->waiting_group = g;
        int next = s->pick(me);
        if (next < 0)
            deadlock(loc, "SyncAll: every other core is waiting too and none can arrive (hangs on hardware)");
        s->hand_over(lk, me, next);
    }
    if (c.hz) {
        for (size_t i = 0; i < c.hz->cvc.size() && i < r.released_clock.size(); ++i)
            c.hz->cvc[i] = std::max(c.hz->cvc[i], r.released_clock[i]);
        c.hz->cvc[me]++;
    }
}

CBEMU_RT void publish(const void* word) {
    BlockCtx& c = ctx();
    if (!c.sched || !c.hz) return;
    hz::drain_all(c.hz);
    auto& v = c.sched->published[(uintptr_t)word];
    if (v.size() != c.hz->cvc.size()) v.assign(c.hz->cvc.size(), 0);
    for (size_t i = 0; i < v.size(); ++i) v[i] = std::max(v[i], c.hz->cvc[i]);
    c.hz->cvc[c.slot]++;
}

CBEMU_RT void acquire_published(const void* word) {
    BlockCtx& c = ctx();
    if (!c.sched || !c.hz) return;
    auto it = c.sched->published.find((uintptr_t)word);
    if (it != c.sched->published.end())
        for (size_t i = 0; i < it->second.size() && i < c.hz->cvc.size(); ++i)
            c.hz->cvc[i] = std::max(c.hz->cvc[i], it->second[i]);
    hz::drain_all(c.hz);  // the real GM-flag waits end with PipeBarrier<PIPE_ALL>
}

namespace detail_launch {
CBEMU_RT void start_core(Sched* s, int slot) {
    Sched::Block& b = *s->blocks[slot];
    b.st = Sched::READY;
    s->live_of_logical[b.id.logical]++;
    s->threads.emplace_back(core_main, s, slot);
}

CBEMU_RT void start_logical(Sched* s, int logical) {
    for (int slot : s->slots_of_logical[logical])
        if (s->blocks[slot]->st == Sched::NOT_STARTED) start_core(s, slot);
}

CBEMU_RT int plan_core(Sched* s, const CoreId& id) {
    int slot = (int)s->blocks.size();
    s->blocks.emplace_back(new Sched::Block());
    s->blocks[slot]->id = id;
    s->nblocks = (int)s->blocks.size();
    s->slots_of_logical[id.logical].push_back(slot);
    s->rounds[Sched::G_ALL].expected++;
    s->rounds[Sched::group_of(id)].expected++;
    return slot;
}

CBEMU_RT void cross_core_end_checks(Sched* s) {
    const CoreId& id = core_id();
    auto it = s->counters.find(Sched::key(id.kind, id.logical, id.sub));
    if (it == s->counters.end()) return;
    for (int f = 0; f < 16; ++f)
        if (it->second[f] > 0)
            report("cross_core_unpaired", Sev::error, SrcLoc{s->name, 0},
                   "%s %d ended with %d CrossCoreSetFlag(%d) it never waited for: a CrossCoreWaitFlag(%d) is missing, "
                   "so its reads were not ordered after the other core's writes",
                   core_kind_name(id.kind), block_index_of(id), it->second[f], f, f);
}

CBEMU_RT void core_main(Sched* s, int slot) {
    {
        std::unique_lock<std::mutex> lk(s->m);
        s->blocks[slot]->cv.wait(lk, [&] { return s->running == slot; });
        core_id() = s->blocks[slot]->id;
    }
    BlockCtx& c = ctx();
    c = BlockCtx{};
    c.ctrl = launch_ctrl();
    c.block = block_index_of(core_id());
    c.slot = slot;
    c.block_num = s->nlogical;
    c.sched = s;
    ::block_idx = c.block;
    ::block_num = s->nlogical;
    c.ub = (uint8_t*)std::aligned_alloc(256, kUbBacking);
    // stale UB content: nothing on the chip clears UB, so unwritten bytes read as the poison (NaN / -1)
    std::memset(c.ub, poison_byte(), kUbBacking);
    std::unique_ptr<hz::Core> core;
    if (hz::enabled()) {
        core.reset(new hz::Core());
        core->block = slot;
        core->nblocks = s->clock_slots;
        core->auto_sync = hz::auto_sync_default();
        core->ub_cap = soc_ub_bytes() < kUbBacking ? soc_ub_bytes() : kUbBacking;
        core->ub_backing = kUbBacking;
        core->shadow[(int)hz::Space::UB].resize(core->ub_cap / 32);
        core->cvc.assign(s->clock_slots, 0);
        core->cvc[slot] = 1;
        c.hz = core.get();
    }
    (core_id().kind == CoreKind::AIV && s->body_aiv ? s->body_aiv : s->body)();
    if (uint32_t n = div_zero_count()) {
        report("div_by_zero", Sev::warning, SrcLoc{s->name, 0},
               "%s %d divided an integer by zero %u time(s) (first at code address %p): the device does not trap; "
               "here x / 0 = 0 and x %% 0 = x (the device's value is not documented)", core_kind_name(core_id().kind),
               block_index_of(core_id()), n, (void*)div_zero_pc());
        div_zero_count() = 0;
    }
    if (c.hz) hz::end_checks(c.hz);
    c.hz = nullptr;
    core.reset();
    std::free(c.ub);
    c.ub = nullptr;
    {
        std::unique_lock<std::mutex> lk(s->m);
        const CoreId id = core_id();  // its kind may have changed since launch (mixed.h: become)
        cross_core_end_checks(s);
        s->ended[Sched::key(id.kind, id.logical, id.sub)] = true;
        s->blocks[slot]->st = Sched::DONE;
        s->done++;
        s->progress++;
        // a core that returns is no longer awaited by SyncAll, so the others are not stuck forever
        for (int g : {(int)Sched::G_ALL, Sched::group_of(id)}) {
            Sched::Round& r = s->rounds[g];
            r.departed++;
            if (r.arrived > 0 && r.arrived + r.departed >= r.expected) {
                s->complete_round(g);
                lk.unlock();
                report("syncall_mismatch", Sev::error, SrcLoc{s->name, 0},
                       "%s %d returned while other cores wait in SyncAll (hangs on hardware)", core_kind_name(id.kind),
                       block_index_of(id));
                lk.lock();
            }
        }
        // a logical core is free when all its cores ended: the next one of the launch starts on it
        if (--s->live_of_logical[id.logical] == 0 && s->next_logical < s->nlogical)
            start_logical(s, s->next_logical++);
        int next = s->pick(slot);
        if (next < 0 && s->done < s->nblocks) {
            lk.unlock();
            report("sync_deadlock", Sev::fatal, SrcLoc{s->name, 0},
                   "%s %d ended and every remaining core waits for something no core can do any more "
                   "(hangs on hardware)", core_kind_name(id.kind), block_index_of(id));
        }
        s->running = next;
        if (next >= 0) s->blocks[next]->cv.notify_one();
        if (s->done == s->nblocks) s->host_cv.notify_all();
    }
    c.block = -1;
    c.slot = -1;
    c.sched = nullptr;
    core_id() = CoreId{};
}
}  // namespace detail_launch

CBEMU_RT void launch_cores(const char* name, std::function<void()> body, uint32_t block_dim, MixRatio mix,
                           std::function<void()> body_aiv) {
    // A kernel unit test's data-generation pass (cotbuilder verify) runs the test with its kernels switched off: the
    // goldens are made before any kernel runs, in a step of their own.
    if (std::getenv("COTBUILDER_SKIP_KERNELS")) {
        std::fprintf(stderr, "COTBUILDER_STAGE {\"stage\":\"kernel_skipped\"}\n");
        return;
    }
    install_exit_hook();
    install_div_zero_handler();
    if (block_dim == 0) {
        report("bad_launch", Sev::fatal, SrcLoc{name, 0}, "kernel %s launched with blockDim 0", name);
    }
    CoreKind plain = CoreKind::PLAIN;
    if (mix.aic == 0 && mix.aiv == 0) {  // not declared __mix__: the CPU-debug host's SetKernelMode, if any
        int mode = kernel_mode();
        if (mode == 0) mix = {1, 2};
        else if (mode == 3) mix = {1, 1};
        else if (mode == 1) plain = CoreKind::AIC;
        else if (mode == 2) plain = CoreKind::AIV;
    }
    Sched s;
    s.name = name;
    s.body = std::move(body);
    s.body_aiv = std::move(body_aiv);
    s.nlogical = (int)block_dim;
    s.clock_slots = 3 * (int)block_dim;
    s.live_of_logical.assign(block_dim, 0);
    s.slots_of_logical.resize(block_dim);
    for (int b = 0; b < (int)block_dim; ++b) {
        CoreId id;
        id.logical = b;
        if (mix.aic == 0 && mix.aiv == 0) {
            id.kind = plain;
            detail_launch::plan_core(&s, id);
            continue;
        }
        id.aiv_per = mix.aiv;
        id.has_aic = mix.aic > 0;
        if (mix.aic) {
            id.kind = CoreKind::AIC;
            detail_launch::plan_core(&s, id);
        }
        for (int sub = 0; sub < mix.aiv; ++sub) {
            id.kind = CoreKind::AIV;
            id.sub = sub;
            detail_launch::plan_core(&s, id);
        }
    }
    int aic = (int)soc().aic_cores, aiv = (int)soc().aiv_cores;
    if (mix.aiv) s.cores = std::min(aic, aiv / mix.aiv);
    else if (mix.aic || plain == CoreKind::AIC) s.cores = aic;
    else s.cores = resident_cores();
    s.cores = std::max(1, s.cores);
    s.rng = schedule_seed();
    s.quantum = s.draw_quantum();
    hz::launch_gen()++;
    current_sched() = &s;
    {
        std::unique_lock<std::mutex> lk(s.m);
        int resident = std::min(s.nlogical, s.cores);
        for (int b = 0; b < resident; ++b) detail_launch::start_logical(&s, b);
        s.next_logical = resident;
        s.running = s.pick(-1);
        s.blocks[s.running]->cv.notify_one();
        s.host_cv.wait(lk, [&] { return s.done == s.nblocks; });
    }
    // threads may still be appended by the last cores until done == nblocks; all are joinable now
    for (auto& t : s.threads) t.join();
    current_sched() = nullptr;
}

}  // namespace cbemu
#endif  // CBEMU_RT_BODY
