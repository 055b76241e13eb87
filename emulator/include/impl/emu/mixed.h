// Mixed AIC/AIV kernels on the scheduler (sched.h): typing a core when the kernel states its type, starting its AIV
// partners, ASCEND_IS_AIC / ASCEND_IS_AIV, and the CrossCore flags (docs: 同步控制/核间同步/CrossCoreSetFlag(ISASI).md,
// CrossCoreWaitFlag(ISASI).md; Kernel-Tiling/设置Kernel类型.md).
//
// CrossCoreSetFlag / CrossCoreWaitFlag are the documented counters per core and flag id (modes 0, 1, 2). A wait
// spins under the scheduler like a GM-flag wait: one that no core can satisfy any more is a fatal `sync_deadlock`
// naming the flag, never a hang. In the hazard model a set is a release and the wait that consumes it an acquire
// (what the setting core did before the set is ordered before what the waiting core does after the wait), which
// is how the workspace exchange through GM between AIC and AIV gets ordered.
#pragma once
#include <cstdio>
#include <vector>

#include "cores.h"
#include "runtime.h"

namespace cbemu {

// A plain block learns that its kernel is mixed (KERNEL_TASK_TYPE_DEFAULT, a Matmul object outside cube-only
// mode): it becomes the AIC core of its logical core and starts its AIV partners from the kernel's first line.
CBEMU_RT void become(int aic, int aiv, const SrcLoc& loc);

CBEMU_RT void declare_kernel_type(KernelMetaType t, const SrcLoc& loc);

// ASCEND_IS_AIC / ASCEND_IS_AIV. A plain block (type not declared) answers false to both, so both guard styles of
// single-unit kernels (`if ASCEND_IS_AIV { return; }` before cube work, `if ASCEND_IS_AIC { return; }` before
// vector work) run their work; a kernel that tests both without declaring a type would be typed MIX by the
// compiler, which the emulator cannot infer: it stops as unsupported.
CBEMU_RT bool is_core(CoreKind want, const SrcLoc& loc, CoreKind plain = CoreKind::PLAIN);

namespace detail_cross {
inline uint64_t clock_key(uint64_t core, int flag) { return core ^ ((uint64_t)(flag & 15) << 56); }
}  // namespace detail_cross

// ---- cross-core flags (CrossCoreSetFlag / CrossCoreWaitFlag, modes 0, 1, 2) ----
CBEMU_RT void cross_set(int mode, int flag, int pipe, const SrcLoc& loc);

CBEMU_RT void cross_wait(int flag, const SrcLoc& loc);

}  // namespace cbemu

#if CBEMU_RT_BODY
namespace cbemu {

CBEMU_RT void become(int aic, int aiv, const SrcLoc& loc) {
    CoreId& id = core_id();
    Sched* s = ctx().sched;
    if (id.kind != CoreKind::PLAIN || !s) return;  // the type was known at launch, or this is a partner
    std::unique_lock<std::mutex> lk(s->m);
    int slot = ctx().slot;
    if (aiv == 0) {  // one kind of core only
        id.kind = aic ? CoreKind::AIC : CoreKind::AIV;
        if (id.kind == CoreKind::AIC) s->rounds[Sched::G_VEC].expected--, s->rounds[Sched::G_CUBE].expected++;
        s->blocks[slot]->id = id;
        return;
    }
    if (id.saw_is_aic || id.saw_is_aiv) {
        lk.unlock();
        report("unsupported_api", Sev::fatal, loc,
               "the kernel type is declared mixed only after ASCEND_IS_AIC / ASCEND_IS_AIV was tested: declare it "
               "before (KERNEL_TASK_TYPE_DEFAULT at the top of the kernel, or __mix__(1, %d))", aiv);
    }
    id.kind = CoreKind::AIC;
    id.aiv_per = aiv;
    id.has_aic = true;
    s->blocks[slot]->id = id;
    s->rounds[Sched::G_VEC].expected--;  // this block leaves the vector group for the cube group
    s->rounds[Sched::G_CUBE].expected++;
    s->cores = std::max(1, std::min(s->cores, (int)soc().aic_cores));
    for (int sub = 0; sub < aiv; ++sub) {
        CoreId p;
        p.kind = CoreKind::AIV;
        p.logical = id.logical;
        p.sub = sub;
        p.aiv_per = aiv;
        p.has_aic = true;
        detail_launch::start_core(s, detail_launch::plan_core(s, p));
    }
}

CBEMU_RT void declare_kernel_type(KernelMetaType t, const SrcLoc& loc) {
    switch (t) {
        case KERNEL_TYPE_AIV_ONLY: case KERNEL_TYPE_MIX_AIV_1_0: case KERNEL_TYPE_VECTORCORE:
            become(0, 0, loc);
            break;
        case KERNEL_TYPE_AIC_ONLY: case KERNEL_TYPE_MIX_AIC_1_0:
            become(1, 0, loc);
            break;
        case KERNEL_TYPE_MIX_AIC_1_1: become(1, 1, loc); break;
        case KERNEL_TYPE_MIX_AIC_1_2: become(1, 2, loc); break;
        default: break;  // the coupled-architecture types: one AI core does both
    }
}

CBEMU_RT bool is_core(CoreKind want, const SrcLoc& loc, CoreKind plain) {
    CoreId& id = core_id();
    if (id.kind != CoreKind::PLAIN) return id.kind == want;
    if (plain != CoreKind::PLAIN) return plain == want;  // the build said which core a plain launch runs on
    (want == CoreKind::AIC ? id.saw_is_aic : id.saw_is_aiv) = true;
    if (id.saw_is_aic && id.saw_is_aiv)
        report("unsupported_api", Sev::fatal, loc,
               "the kernel tests both ASCEND_IS_AIC and ASCEND_IS_AIV but declares no AIC/AIV type (__mix__(1, 2) or "
               "KERNEL_TASK_TYPE_DEFAULT): the compiler's inferred mixed type is not modelled");
    return false;
}

CBEMU_RT void cross_set(int mode, int flag, int pipe, const SrcLoc& loc) {
    BlockCtx& c = ctx();
    Sched* s = c.sched;
    CoreId& id = core_id();
    if (!s) return;
    flag &= 15;  // "取最低位4bit"
    hz::sched_tick();
    std::vector<uint64_t> wake;  // cores whose counter goes up
    std::unique_lock<std::mutex> lk(s->m);
    CoreKind kind = id.kind == CoreKind::PLAIN ? CoreKind::AIV : id.kind;
    // the release (hazard model): this core's clock goes with the flag; a group of arrivals (modes 0 and 1) pools
    // its members' clocks until the last one arrives and wakes the waiters
    std::vector<uint32_t> mine = c.hz ? c.hz->cvc : std::vector<uint32_t>();
    auto pool = [&](uint64_t akey) -> std::vector<uint32_t>& {
        auto& v = s->flag_clocks[akey];
        if (v.size() != mine.size()) v.assign(mine.size(), 0);
        for (size_t i = 0; i < v.size(); ++i) v[i] = std::max(v[i], mine[i]);
        return v;
    };
    std::vector<uint32_t> released = mine;
    if (mode == 0) {
        // every core of this kind in the launch: count the arrivals, release them all when the last arrives
        uint64_t akey = Sched::key(kind, -1, 0x7F) ^ ((uint64_t)flag << 56) ^ (1ull << 63);
        int group = kind == CoreKind::AIC ? s->nlogical : s->nlogical * (id.aiv_per ? id.aiv_per : 1);
        std::vector<uint32_t>& pooled = pool(akey);
        if (++s->arrivals[akey] >= group) {
            s->arrivals[akey] = 0;
            released = pooled;
            pooled.assign(pooled.size(), 0);
            if (kind == CoreKind::AIC) {
                for (int b = 0; b < s->nlogical; ++b) wake.push_back(Sched::key(CoreKind::AIC, b, 0));
            } else {
                int per = id.aiv_per ? id.aiv_per : 1;
                CoreKind k = id.kind == CoreKind::PLAIN ? CoreKind::PLAIN : CoreKind::AIV;
                for (int b = 0; b < s->nlogical; ++b)
                    for (int sub = 0; sub < per; ++sub) wake.push_back(Sched::key(k, b, sub));
            }
        }
    } else if (mode == 1 || mode == 2) {
        if (id.aiv_per == 0 || (mode == 2 && !id.has_aic)) {
            lk.unlock();
            report("unsupported_api", Sev::fatal, loc,
                   "CrossCoreSetFlag mode %d in a kernel that is not a mixed AIC/AIV kernel: declare it with "
                   "__mix__(1, 2) / __mix__(1, 1) or KERNEL_TASK_TYPE_DEFAULT (CrossCoreSetFlag(ISASI).md, table 3)",
                   mode);
        }
        if (mode == 2 && id.kind == CoreKind::AIC) {
            for (int sub = 0; sub < id.aiv_per; ++sub) wake.push_back(Sched::key(CoreKind::AIV, id.logical, sub));
        } else {
            uint64_t akey = Sched::key(CoreKind::AIV, id.logical, 0x7E) ^ ((uint64_t)flag << 56) ^
                            ((uint64_t)mode << 52);
            std::vector<uint32_t>& pooled = pool(akey);
            if (++s->arrivals[akey] >= id.aiv_per) {
                s->arrivals[akey] = 0;
                released = pooled;
                pooled.assign(pooled.size(), 0);
                if (mode == 2) wake.push_back(Sched::key(CoreKind::AIC, id.logical, 0));
                else
                    for (int sub = 0; sub < id.aiv_per; ++sub) wake.push_back(Sched::key(CoreKind::AIV, id.logical, sub));
            }
        }
    } else {
        lk.unlock();
        report("unsupported_api", Sev::fatal, loc, "CrossCoreSetFlag mode %d (the A2 family has modes 0, 1, 2)", mode);
    }
    if (c.hz)
        for (uint64_t k : wake) {
            auto& v = s->flag_clocks[detail_cross::clock_key(k, flag)];
            if (v.size() != released.size()) v.assign(released.size(), 0);
            for (size_t i = 0; i < v.size(); ++i) v[i] = std::max(v[i], released[i]);
        }
    for (uint64_t k : wake) {
        if (s->ended.count(k)) {
            CoreId t;
            t.kind = (CoreKind)(k >> 40), t.logical = (int)((k >> 8) & 0xFFFFFFFF), t.sub = (int)(k & 0xFF);
            t.aiv_per = id.aiv_per;
            lk.unlock();
            report("cross_core_unpaired", Sev::error, loc,
                   "CrossCoreSetFlag(%d) targets %s %d, which already returned: its CrossCoreWaitFlag(%d) is "
                   "missing, so its reads were not ordered after this core's writes",
                   flag, core_kind_name(t.kind), block_index_of(t), flag);
            lk.lock();
            continue;
        }
        int& cnt = s->counters[k][flag];
        if (++cnt > 15) {
            lk.unlock();
            report("cross_core_flag_overflow", Sev::fatal, loc,
                   "CrossCoreSetFlag(%d): the flag counter of a waiting core passes 15 (more sets than waits; the "
                   "hardware stops with an error)", flag);
        }
    }
    s->progress++;
    if (c.hz) {
        // The set goes out once this core's earlier `pipe` work has ended (CrossCoreSetFlag(ISASI).md: "在完成本核
        // 前置位的pipe流水任务后"). In modes 0 and 1 this core is one of the cores its own wait counts, so when that
        // wait returns, that work has ended: remember it for the wait (on A2 the wait holds every pipe).
        int p = hz::from_pipe_t(pipe);
        if ((mode == 0 || mode == 1) && p >= 0) {
            hz::Clock k = hz::release_clock(c.hz, p);
            if (c.hz->cross_own_mask & (1u << flag)) hz::join(k, c.hz->cross_own[flag]);
            c.hz->cross_own[flag] = k;
            c.hz->cross_own_mask |= (uint16_t)(1u << flag);
        }
        c.hz->cvc[c.slot]++;
    }
}

CBEMU_RT void cross_wait(int flag, const SrcLoc& loc) {
    BlockCtx& c = ctx();
    Sched* s = c.sched;
    CoreId& id = core_id();
    if (!s) return;
    flag &= 15;
    uint64_t me = Sched::key(id.kind, id.logical, id.sub);
    auto count = [&]() -> int& { return s->counters[me][flag]; };
    char what[256];
    std::snprintf(what, sizeof what,
                  "CrossCoreWaitFlag(%d) on %s %d waits for a CrossCoreSetFlag(%d) that no core can make any more "
                  "(hangs on hardware)", flag, core_kind_name(id.kind), block_index_of(id), flag);
    hz::sched_tick();
    spin_until([&] { std::lock_guard<std::mutex> g(s->m); return count() > 0; }, loc, "CrossCoreWaitFlag", what);
    std::lock_guard<std::mutex> g(s->m);
    count()--;
    if (c.hz) {
        auto it = s->flag_clocks.find(detail_cross::clock_key(me, flag));
        if (it != s->flag_clocks.end())
            for (size_t i = 0; i < it->second.size() && i < c.hz->cvc.size(); ++i)
                c.hz->cvc[i] = std::max(c.hz->cvc[i], it->second[i]);
        if (c.hz->cross_own_mask & (1u << flag)) {
            // CrossCoreWaitFlag(ISASI).md: on the A2 family the wait blocks the later instructions of every pipe
            for (int q = 0; q < hz::NP; ++q) hz::acquire(c.hz, q, c.hz->cross_own[flag]);
            c.hz->cross_own_mask &= (uint16_t)~(1u << flag);
        }
    }
}

}  // namespace cbemu
#endif  // CBEMU_RT_BODY
