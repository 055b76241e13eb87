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
#pragma once
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace cbemu {

struct Sched {
    enum St : uint8_t { NOT_STARTED, READY, IN_BARRIER, SPINNING, DONE };
    struct Block {
        St st = NOT_STARTED;
        std::condition_variable cv;
        uint64_t seen_progress = 0;  // the progress count when this spinner last polled in vain
    };
    std::mutex m;
    std::condition_variable host_cv;
    std::vector<std::unique_ptr<Block>> blocks;
    std::vector<std::thread> threads;
    int nblocks = 0, cores = 0, started = 0, done = 0, running = -1;
    uint64_t rng = 0, progress = 0;
    uint32_t quantum = 1;
    // SyncAll: arrivals of the current round, blocks that returned (no longer awaited), and the cross-core clock
    // joined over the arrivals (each block adopts it when the round completes)
    int arrived = 0, departed = 0;
    std::vector<uint32_t> join_clock, released_clock;
    // cross-core clocks published through GM flag words (IBSet, NotifyNextBlock, GroupBarrier::Arrive, atomics)
    std::map<uintptr_t, std::vector<uint32_t>> published;

    // The last awaited block arrived: everyone in SyncAll may go on. Returns false when the round completed only
    // because some blocks had already returned (they never called this SyncAll: hangs on hardware).
    bool complete_round() {
        bool whole = arrived >= nblocks;
        arrived = 0;
        released_clock = join_clock;
        join_clock.assign(join_clock.size(), 0);
        for (auto& b : blocks)
            if (b->st == IN_BARRIER) b->st = READY;
        return whole;
    }

    uint64_t next_random() {  // splitmix64: small, fast, and the same sequence on every platform
        uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t draw_quantum() { return 1 + (uint32_t)(next_random() % 48); }

    // A block that may take the baton: READY or SPINNING (a spinner polls again). `except` is skipped if any other
    // candidate exists. -1 when there is none.
    int pick(int except) {
        int n = 0, only = -1;
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
    // Hand the baton from `me` to `next` and wait (lock held) until it comes back.
    void hand_over(std::unique_lock<std::mutex>& lk, int me, int next) {
        running = next;
        if (next >= 0) blocks[next]->cv.notify_one();
        if (me >= 0 && blocks[me]->st != DONE) blocks[me]->cv.wait(lk, [&] { return running == me; });
    }
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
// A scheduling point: another block may run now.
inline void sched_tick() {
    Sched* s = ctx().sched;
    if (!s) return;
    s->progress++;
    if (s->nblocks == 1 || --s->quantum > 0) return;
    std::unique_lock<std::mutex> lk(s->m);
    s->quantum = s->draw_quantum();
    int me = ctx().block;
    int next = s->pick(-1);
    if (next >= 0 && next != me) s->hand_over(lk, me, next);
}
// A write another block may be polling for just happened (a GM flag, an atomic): spinners must look again.
inline void note_progress() {
    if (Sched* s = ctx().sched) s->progress++;
}
}  // namespace hz

[[noreturn]] inline void deadlock(const SrcLoc& loc, const char* what) {
    report("sync_deadlock", Sev::fatal, loc, "%s", what);
    std::_Exit(3);
}

// SyncAll: every block of the launch arrives before any leaves; the pipes are drained and the cross-core clocks
// joined (hazard model: accesses before the barrier on any core are ordered before accesses after it on any core).
inline void barrier_wait(const SrcLoc& loc) {
    BlockCtx& c = ctx();
    Sched* s = c.sched;
    if (!s) return;
    if (s->nblocks > s->cores) {
        char msg[320];
        std::snprintf(msg, sizeof msg,
                      "SyncAll with %d blocks on a SoC with %d cores: blocks beyond the %d resident ones start only "
                      "when a resident one ends, which never happens (hangs on hardware; SyncAll.md)",
                      s->nblocks, s->cores, s->cores);
        deadlock(loc, msg);
    }
    hz::barrier(-1);
    std::unique_lock<std::mutex> lk(s->m);
    s->progress++;
    if (c.hz) {
        if (s->join_clock.size() != c.hz->cvc.size()) s->join_clock.assign(c.hz->cvc.size(), 0);
        for (size_t i = 0; i < c.hz->cvc.size(); ++i) s->join_clock[i] = std::max(s->join_clock[i], c.hz->cvc[i]);
    }
    int me = c.block;
    if (++s->arrived + s->departed >= s->nblocks) {
        if (!s->complete_round()) {
            lk.unlock();
            report("syncall_mismatch", Sev::error, loc,
                   "SyncAll completes only because %d block(s) already returned without calling it (hangs on "
                   "hardware: every block must reach each SyncAll)", s->departed);
            lk.lock();
        }
    } else {
        s->blocks[me]->st = Sched::IN_BARRIER;
        int next = s->pick(me);
        if (next < 0)
            deadlock(loc, "SyncAll: every other block is waiting too and none can arrive (hangs on hardware)");
        s->hand_over(lk, me, next);
    }
    if (c.hz) {
        for (size_t i = 0; i < c.hz->cvc.size() && i < s->released_clock.size(); ++i)
            c.hz->cvc[i] = std::max(c.hz->cvc[i], s->released_clock[i]);
        c.hz->cvc[me]++;
    }
}

// Cross-core release / acquire through a GM word (IBSet -> IBWait, NotifyNextBlock -> WaitPreBlock, ...): what this
// core did before the release is ordered before what the acquiring core does after the acquire.
inline void publish(const void* word) {
    BlockCtx& c = ctx();
    if (!c.sched || !c.hz) return;
    hz::drain_all(c.hz);
    auto& v = c.sched->published[(uintptr_t)word];
    if (v.size() != c.hz->cvc.size()) v.assign(c.hz->cvc.size(), 0);
    for (size_t i = 0; i < v.size(); ++i) v[i] = std::max(v[i], c.hz->cvc[i]);
    c.hz->cvc[c.block]++;
}
inline void acquire_published(const void* word) {
    BlockCtx& c = ctx();
    if (!c.sched || !c.hz) return;
    auto it = c.sched->published.find((uintptr_t)word);
    if (it != c.sched->published.end())
        for (size_t i = 0; i < it->second.size() && i < c.hz->cvc.size(); ++i)
            c.hz->cvc[i] = std::max(c.hz->cvc[i], it->second[i]);
    hz::drain_all(c.hz);  // the real GM-flag waits end with PipeBarrier<PIPE_ALL>
}

// Poll pred() until it holds, as a core spinning on a GM flag does, letting the other blocks run in between. If no
// block can make progress any more (all others ended, wait in SyncAll, or spin without anything happening), nobody
// can ever make pred() true: the hardware would hang, so this is a fatal sync_deadlock.
template <typename P>
inline void spin_until(P pred, const SrcLoc& loc, const char* api) {
    BlockCtx& c = ctx();
    Sched* s = c.sched;
    while (!pred()) {
        char msg[256];
        std::snprintf(msg, sizeof msg, "%s waits for a GM flag that no running block can set any more (hangs on "
                      "hardware)", api);
        if (!s || s->nblocks == 1) deadlock(loc, msg);
        std::unique_lock<std::mutex> lk(s->m);
        int me = c.block;
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
template <typename F, typename... Args>
void block_main(Sched* s, int b, const char* name, F func, Args... args) {
    {
        std::unique_lock<std::mutex> lk(s->m);
        s->blocks[b]->cv.wait(lk, [&] { return s->running == b; });
    }
    BlockCtx& c = ctx();
    c = BlockCtx{};
    c.block = b;
    c.block_num = s->nblocks;
    c.sched = s;
    ::block_idx = b;
    ::block_num = s->nblocks;
    c.ub = (uint8_t*)std::aligned_alloc(256, kUbBacking);
    // stale UB content: nothing on the chip clears UB, so unwritten bytes read as the poison (NaN / -1)
    std::memset(c.ub, poison_byte(), kUbBacking);
    std::unique_ptr<hz::Core> core;
    if (hz::enabled()) {
        core.reset(new hz::Core());
        core->block = b;
        core->nblocks = s->nblocks;
        core->auto_sync = hz::auto_sync_default();
        core->ub_cap = soc_ub_bytes() < kUbBacking ? soc_ub_bytes() : kUbBacking;
        core->shadow[(int)hz::Space::UB].resize(core->ub_cap / 32);
        core->cvc.assign(s->nblocks, 0);
        core->cvc[b] = 1;
        c.hz = core.get();
    }
    func(args...);
    if (c.hz) hz::end_checks(c.hz);
    c.hz = nullptr;
    core.reset();
    std::free(c.ub);
    c.ub = nullptr;
    {
        std::unique_lock<std::mutex> lk(s->m);
        s->blocks[b]->st = Sched::DONE;
        s->done++;
        s->progress++;
        // a block that returns is no longer awaited by SyncAll, so the others are not stuck forever
        s->departed++;
        if (s->arrived > 0 && s->arrived + s->departed >= s->nblocks) {
            s->complete_round();
            lk.unlock();
            report("syncall_mismatch", Sev::error, SrcLoc{name, 0},
                   "block %d returned while other blocks wait in SyncAll (hangs on hardware)", b);
            lk.lock();
        }
        if (s->started < s->nblocks) {  // a core is free: the next block of the launch starts on it
            int nb = s->started++;
            s->blocks[nb]->st = Sched::READY;
            s->threads.emplace_back(block_main<F, Args...>, s, nb, name, func, args...);
        }
        int next = s->pick(b);
        if (next < 0 && s->done < s->nblocks) {
            lk.unlock();
            report("sync_deadlock", Sev::fatal, SrcLoc{name, 0},
                   "block %d ended and every remaining block waits for something no block can do any more "
                   "(hangs on hardware)", b);
        }
        s->running = next;
        if (next >= 0) s->blocks[next]->cv.notify_one();
        if (s->done == s->nblocks) s->host_cv.notify_all();
    }
    c.block = -1;
    c.sched = nullptr;
}
}  // namespace detail_launch

// Run func(args...) once per block under the scheduler; returns when every block has ended.
template <typename F, typename... Args>
void run_kernel(const char* name, F func, uint32_t block_dim, Args... args) {
    // A kernel unit test's data-generation pass (cotbuilder verify) runs the test with its kernels switched off: the
    // goldens are made before any kernel runs, in a step of their own.
    if (std::getenv("COTBUILDER_SKIP_KERNELS")) {
        std::fprintf(stderr, "COTBUILDER_STAGE {\"stage\":\"kernel_skipped\"}\n");
        return;
    }
    install_exit_hook();
    if (block_dim == 0) {
        report("bad_launch", Sev::fatal, SrcLoc{name, 0}, "kernel %s launched with blockDim 0", name);
    }
    Sched s;
    s.nblocks = (int)block_dim;
    s.cores = std::max(1, resident_cores());
    s.rng = schedule_seed();
    s.quantum = s.draw_quantum();
    s.departed = 0;
    for (uint32_t b = 0; b < block_dim; ++b) s.blocks.emplace_back(new Sched::Block());
    hz::launch_gen()++;
    current_sched() = &s;
    {
        std::unique_lock<std::mutex> lk(s.m);
        int resident = std::min(s.nblocks, s.cores);
        for (int b = 0; b < resident; ++b) {
            s.blocks[b]->st = Sched::READY;
            s.threads.emplace_back(detail_launch::block_main<F, Args...>, &s, b, name, func, args...);
        }
        s.started = resident;
        s.running = s.pick(-1);
        s.blocks[s.running]->cv.notify_one();
        s.host_cv.wait(lk, [&] { return s.done == s.nblocks; });
    }
    // threads may still be appended by the last blocks until done == nblocks; all are joinable now
    for (auto& t : s.threads) t.join();
    current_sched() = nullptr;
}

}  // namespace cbemu
