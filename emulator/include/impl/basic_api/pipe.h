// TPipe / TQue / TQueBind / TBuf: UB carving and the queue protocol, with the checks the
// hardware (or a hang on it) enforces: UB capacity, at most 64 buffers, queue depth, empty DeQue,
// exhausted AllocTensor, double free; tensors never freed or left in a queue are warnings (the real
// implementation does not check them). The framework's own pipe syncs (EnQue/DeQue, FreeTensor/AllocTensor,
// 关键特性说明.md tables 1-2) feed the hazard model.
#pragma once
#include <deque>
#include <type_traits>
#include <vector>

#include "../emu/local_mem.h"
#include "tensor.h"

namespace cbemu {

struct QBuf {
    uint8_t* addr = nullptr;
    uint32_t len = 0;
    enum State : uint8_t { FREE, ALLOCATED, ENQUEUED, DEQUEUED } st = FREE;
    SrcLoc alloc_loc{"", 0};
    uint32_t enq_bytes = 0;
    int user = -1;  // the user positions the EnQue named (TQueBind's EnQue<src, dst, T>; user_key), -1 for none
    // the framework's events of this buffer: EnQue -> DeQue (producer before consumer) and FreeTensor ->
    // AllocTensor (consumer's reads before the next producer write)
    bool enq_set = false, free_set = false;
    hz::Clock enq_clock{}, free_clock{};
};

struct QueueCore {
    std::vector<QBuf> bufs;
    std::deque<int> fifo;
    int depth = 1;
    AscendC::TPosition src_pos = AscendC::TPosition::VECIN, dst_pos = AscendC::TPosition::VECIN;
    bool inited = false;
    SrcLoc init_loc{"", 0};
    uint32_t cfg_num = 0, cfg_len = 0;  // a TQueConfig's bufferNumber / bufferLen (0: not given)
    QueueCore* origin_ = nullptr;  // the queue this one is a copy of (never a copy itself); null for an original

    void copy_from(const QueueCore& o) {
        fifo = o.fifo;
        depth = o.depth;
        src_pos = o.src_pos, dst_pos = o.dst_pos;
        cfg_num = o.cfg_num, cfg_len = o.cfg_len;
        inited = o.root().inited;
        init_loc = o.root().init_loc;
        origin_ = const_cast<QueueCore*>(&o.root());
        bufs.clear();
    }

    // A copy of a queue (kernels pass a TQue by value to a helper) is a handle on the same buffers, as the real
    // TQueBind's copy points at the same buffer states in the pipe (its bufStart), with its own FIFO (head, tail,
    // usedCount are members). Tensors belong to the original queue, whichever copy allocated them; only the
    // original runs the end-of-kernel checks.
    QueueCore() = default;
    QueueCore(const QueueCore& o) { copy_from(o); }
    QueueCore& operator=(const QueueCore& o) {
        if (this != &o && &o.root() != this) copy_from(o);
        return *this;
    }
    ~QueueCore() {
        if (!origin_) end_checks();
    }
    QueueCore& root() { return origin_ ? *origin_ : *this; }
    const QueueCore& root() const { return origin_ ? *origin_ : *this; }
    std::vector<QBuf>& states() { return root().bufs; }
    const std::vector<QBuf>& states() const { return root().bufs; }

    // The real implementation does not check these at kernel end, and nothing hangs or computes wrong because
    // of them (an unused buffer simply stays taken): warnings. A missing FreeTensor that does matter, because a
    // later AllocTensor finds every buffer taken, is the fatal alloc_exhausted.
    void end_checks();

    // The producer and consumer pipes of the queue's positions, as the real TQueBind derives its events
    // (kernel_event.h GetQueEvt): TQue<VECIN> is GM -> VECIN (MTE2 -> V), TQue<VECOUT> is VECOUT -> GM
    // (V -> MTE3), a TQueBind between two UB positions is MTE2 -> MTE3. VECCALC queues have no events.
    // The cube positions (GetBufferLogicPos + GetQueEvt, arch 2201): A1 / B1 / C1 GM -> L1 (MTE2 -> MTE1), A2 / B2
    // L1 -> L0A/L0B and C2 L1 -> bias table (MTE1 -> M), CO1 L0C -> out (M -> FIX), C2PIPE2GM L1 -> fixpipe buffer
    // (MTE1 -> FIX); on the coupled 310P, CO1 -> CO2 (UB) is M -> V and CO2 -> GM V -> MTE3.
    bool pipes(int& producer, int& consumer) const;
    // EnQue<srcUserPos, dstUserPos, T> / DeQue<srcUserPos, dstUserPos, T> (TQue/EnQue.md, DeQue.md: a TQueBind of
    // VECIN and VECOUT reused for the whole GM -> UB -> GM path): the event of that stage, from the memories of the
    // two positions as the real TQueBind derives it (kernel_event.h GetQueEvt, arch 2201): GM -> UB MTE2 -> V,
    // UB -> UB MTE2 -> MTE3 (a copy in, a copy out), UB -> GM V -> MTE3; false for a pair the docs do not support.
    static bool user_pipes(int user, int& producer, int& consumer);
    static int user_key(AscendC::TPosition src, AscendC::TPosition dst) { return (int)src << 8 | (int)dst; }
    // the pipes of the event an EnQue sets and its DeQue waits for: the named stage's (user >= 0) or the queue's
    bool stage_pipes(int user, int& producer, int& consumer) const {
        return user >= 0 ? user_pipes(user, producer, consumer) : pipes(producer, consumer);
    }

    int find(const void* p) const;

    template <typename T>
    AscendC::LocalTensor<T> tensor_of(int i, uint32_t bytes) {
        AscendC::LocalTensor<T> t;
        std::vector<QBuf>& bufs = states();
        t.addr_ = (T*)bufs[i].addr;
        t.size_ = bytes / (uint32_t)sizeof(T);
        t.buf_ = bufs[i].addr;
        t.buf_len_ = bufs[i].len;
        t.owner_ = &root();
        t.pos_ = src_pos;
        return t;
    }

    // The protocol on buffer indices (the typed calls below wrap them): AllocTensor takes a free buffer, EnQue /
    // DeQue move one through the FIFO, FreeTensor returns it; each with the framework's pipe events.
    int alloc_index(const SrcLoc& loc);  // -1 (after the fatal alloc_exhausted) when none is free
    int owned(const void* addr, const QueueCore* owner, const SrcLoc& loc, const char* api);
    bool enque_buffer(const void* addr, const QueueCore* owner, uint32_t bytes, const SrcLoc& loc, int user = -1);
    int deque_index(const SrcLoc& loc, int user = -1);
    void free_buffer(const void* addr, const QueueCore* owner, const SrcLoc& loc);

    template <typename T>
    AscendC::LocalTensor<T> alloc(const SrcLoc& loc) {
        int i = alloc_index(loc);
        if (i < 0) return {};
        return tensor_of<T>(i, states()[i].len);
    }

    template <typename T>
    bool enque(const AscendC::LocalTensor<T>& t, const SrcLoc& loc) {
        return enque_buffer(t.addr_, t.owner_, t.GetLength(), loc);
    }

    template <typename T>
    bool enque_user(const AscendC::LocalTensor<T>& t, int user, const SrcLoc& loc) {
        return enque_buffer(t.addr_, t.owner_, t.GetLength(), loc, user);
    }

    template <typename T>
    AscendC::LocalTensor<T> deque(const SrcLoc& loc, int user = -1) {
        int i = deque_index(loc, user);
        const QBuf& b = states()[i];
        return tensor_of<T>(i, b.enq_bytes ? b.enq_bytes : b.len);
    }

    template <typename T>
    void free_tensor(const AscendC::LocalTensor<T>& t, const SrcLoc& loc) {
        free_buffer(t.addr_, t.owner_, loc);
    }
};

struct BufCore {
    uint8_t* addr = nullptr;
    uint32_t len = 0;
    AscendC::TPosition pos = AscendC::TPosition::VECCALC;
    bool inited = false;
};

}  // namespace cbemu

namespace AscendC {

// docs: 资源管理/TQue/TQue简介 (mask as `const TQueConfig*`): bufferLen / bufferNumber, when not 0, repeat the
// InitBuffer arguments for compile-time planning and must agree with them; nd2nz / nz2nd (310P format conversion)
// are not modelled; the rest are reserved.
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};

// A queue buffer as the untyped queue calls name it (kernel_tensor_base.h: its address).
using TBufHandle = uint8_t*;

// (The depth parameter is named queDepth: a member of the non-dependent base would hide a parameter named depth.)
template <TPosition src, TPosition dst, int32_t queDepth, auto mask = 0>
class TQueBind : public cbemu::QueueCore {
public:
    TQueBind() {
        this->depth = queDepth;
        this->src_pos = src;
        this->dst_pos = dst;
        if constexpr (std::is_pointer<decltype(mask)>::value) {
            static_assert(!mask->nd2nz && !mask->nz2nd,
                          "cotbuilder emulator: TQueConfig nd2nz / nz2nd (the 310P format conversion) are not modelled");
            this->cfg_num = mask->bufferNumber, this->cfg_len = mask->bufferLen;
        }
    }
    template <typename T>
    LocalTensor<T> AllocTensor(CBEMU_LOC) { return this->template alloc<T>(loc); }
    template <typename T>
    bool EnQue(const LocalTensor<T>& t, CBEMU_LOC) { return this->enque(t, loc); }
    template <typename T>
    LocalTensor<T> DeQue(CBEMU_LOC) { return this->template deque<T>(loc); }
    // the forms naming the stage (srcUserPos -> dstUserPos) of a TQueBind reused along GM -> UB -> GM
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    bool EnQue(const LocalTensor<T>& t, CBEMU_LOC) {
        return this->enque_user(t, cbemu::QueueCore::user_key(srcUserPos, dstUserPos), loc);
    }
    template <TPosition srcUserPos, TPosition dstUserPos, typename T>
    LocalTensor<T> DeQue(CBEMU_LOC) {
        return this->template deque<T>(loc, cbemu::QueueCore::user_key(srcUserPos, dstUserPos));
    }
    // the in-place forms (the tensor as an out-parameter) and the untyped DeQue, whose handle a kernel that only
    // waits for the copy may drop (NPUKernelBench's RmsNorm: `inQueueX.DeQue();`): the same FIFO and pipe events
    template <typename T>
    void AllocTensor(LocalTensor<T>& t, CBEMU_LOC) { t = this->template alloc<T>(loc); }
    template <typename T>
    void DeQue(LocalTensor<T>& t, CBEMU_LOC) { t = this->template deque<T>(loc); }
    TBufHandle DeQue(CBEMU_LOC) { return (TBufHandle)this->template deque<uint8_t>(loc).addr_; }
    template <typename T>
    void FreeTensor(LocalTensor<T>& t, CBEMU_LOC) { this->free_tensor(t, loc); }
    bool VacantInQue() const { return (int)this->fifo.size() < (this->depth > 0 ? this->depth : 1); }
    bool HasTensorInQue() const { return !this->fifo.empty(); }
    int32_t GetTensorCountInQue() const { return (int32_t)this->fifo.size(); }
    // docs: TQueBind/FreeAllEvent: hands back the sync events of the queue's buffers so more queues can be made.
    // The emulator gives queue buffers no event ids (the 64-buffer check counts buffers), so nothing is held.
    void FreeAllEvent() {}
    bool HasIdleBuffer() const {
        for (auto& b : this->states())
            if (b.st == cbemu::QBuf::FREE) return true;
        return false;
    }
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// docs: 资源管理/TSCM: a queue into the L1 the Matmul library reads as TPosition::TSCM.
template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

// (The template parameter is not called `pos`: the base's member of that name would hide it.)
template <TPosition P = TPosition::VECCALC>
class TBuf : public cbemu::BufCore {
public:
    TBuf() { this->pos = P; }
    template <typename T>
    LocalTensor<T> Get(CBEMU_LOC) { return get<T>(len / (uint32_t)sizeof(T), 0, loc); }
    template <typename T>
    LocalTensor<T> Get(uint32_t count, CBEMU_LOC) { return get<T>(count, 0, loc); }
    template <typename T>
    LocalTensor<T> GetWithOffset(uint32_t count, uint32_t bufOffset, CBEMU_LOC) { return get<T>(count, bufOffset, loc); }
    // Samples also take a TBuf's whole space with AllocTensor and hand it back with FreeTensor; a TBuf has no
    // queue, so these are Get and a no-op.
    template <typename T>
    LocalTensor<T> AllocTensor(CBEMU_LOC) { return get<T>(len / (uint32_t)sizeof(T), 0, loc); }
    template <typename T>
    void FreeTensor(LocalTensor<T>&, CBEMU_LOC) {}

private:
    template <typename T>
    LocalTensor<T> get(uint32_t count, uint32_t off, const cbemu::SrcLoc& loc) {
        if (!inited) cbemu::report("buffer_not_initialized", cbemu::Sev::fatal, loc, "TBuf::Get before InitBuffer");
        if ((uint64_t)off + (uint64_t)count * sizeof(T) > len) {
            cbemu::report("ub_out_of_bounds", cbemu::Sev::error, loc,
                          "TBuf::Get of %u elements at byte offset %u exceeds the %u-byte buffer", count, off, len);
        }
        LocalTensor<T> t;
        t.addr_ = (T*)(addr + off);
        t.size_ = count;
        t.buf_ = addr;
        t.buf_len_ = len;
        t.pos_ = pos;
        return t;
    }
};

class TPipe {
public:
    TPipe();
    // Destroy (and the destructor) end with PipeBarrier<PIPE_ALL>; Reset waits for the buffers' free events
    // (kernel_tpipe_impl.h): the hazard model orders what comes after them.
    ~TPipe();
    TPipe(const TPipe&) = delete;
    TPipe& operator=(const TPipe&) = delete;

    bool InitBuffer(cbemu::QueueCore& que, uint8_t num, uint32_t len, CBEMU_LOC);
    bool InitBuffer(cbemu::BufCore& buf, uint32_t len, CBEMU_LOC);
    void Reset();
    void Destroy();
    void Init() {}

    template <HardEvent evt>
    TEventID AllocEventID() { return next_event_++ & 7; }
    template <HardEvent evt>
    void ReleaseEventID(TEventID) {}
    TEventID FetchEventID(HardEvent) { return 0; }
    template <HardEvent evt>
    TEventID FetchEventID() { return 0; }

    size_t used_bytes() const { return used_; }

private:
    void wait_free_events();
    // InitBuffer.md: "一个kernel中所有使用的Buffer数量之和不能超过64" (queue buffers and TBufs together).
    void count_buffers(uint32_t n, const cbemu::SrcLoc& loc);
    void clear();
    // Buffers in UB are 32-byte granular; in the cube memories each buffer starts at the memory's operand
    // alignment (512 B in L0A/L0B), so the next one does too.
    static uint32_t align_len(uint32_t len, cbemu::Mem mem) {
        uint32_t a = mem == cbemu::Mem::UB ? 32u : cbemu::mem_spec(mem).align;
        return (len + a - 1) / a * a;
    }
    // L1 / L0A / L0B / L0C / BT / FB: carved from the block's backing store of that memory, checked against the
    // SoC's capacity like UB.
    uint8_t* carve(uint32_t bytes, const cbemu::SrcLoc& loc, cbemu::Mem mem);
    uint8_t* carve(uint32_t bytes, const cbemu::SrcLoc& loc);
    uint8_t* ub_ = nullptr;
    size_t used_ = 0;
    bool reported_ = false;
    void* prev_ = nullptr;
    int next_event_ = 0;
    uint32_t buffers_ = 0;
    bool buffers_reported_ = false;
    std::vector<cbemu::QueueCore*> queues_;
    size_t used_local_[(int)cbemu::Mem::N] = {};
    bool reported_local_[(int)cbemu::Mem::N] = {};
};

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// Linear allocator of the static-tensor samples (docs: 资源管理/LocalMemAllocator): tensors are carved one after
// another from the start of one memory (UB, L1, L0A, L0B, L0C, BT, FB), each at the memory's operand alignment.
namespace detail_alloc {
constexpr cbemu::Mem mem_of(Hardware h) {
    return h == Hardware::L1 ? cbemu::Mem::L1 : h == Hardware::L0A ? cbemu::Mem::L0A
         : h == Hardware::L0B ? cbemu::Mem::L0B : h == Hardware::L0C ? cbemu::Mem::L0C
         : h == Hardware::BIAS ? cbemu::Mem::BT : h == Hardware::FIXBUF ? cbemu::Mem::FB : cbemu::Mem::UB;
}
constexpr TPosition default_pos(Hardware h) {
    return h == Hardware::L1 ? TPosition::A1 : h == Hardware::L0A ? TPosition::A2
         : h == Hardware::L0B ? TPosition::B2 : h == Hardware::L0C ? TPosition::CO1
         : h == Hardware::BIAS ? TPosition::C2 : h == Hardware::FIXBUF ? TPosition::C2PIPE2GM : TPosition::VECCALC;
}
}  // namespace detail_alloc

template <Hardware hard>
class LocalMemAllocator {
    static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                  "cotbuilder emulator: LocalMemAllocator allocates local memory (UB, L1, L0A, L0B, L0C, BIAS, FIXBUF)");
    static constexpr cbemu::Mem kMem = detail_alloc::mem_of(hard);

public:
    LocalMemAllocator() {
        if (!cbemu::ctx().ub)
            cbemu::report("no_kernel_context", cbemu::Sev::fatal, cbemu::SrcLoc{"", 0},
                          "LocalMemAllocator used outside a kernel launch");
    }
    template <class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc(CBEMU_LOC) { return carve<DataType>(tileSize, detail_alloc::default_pos(hard), loc); }
    template <TPosition pos, class DataType, uint32_t tileSize>
    LocalTensor<DataType> Alloc(CBEMU_LOC) { return carve<DataType>(tileSize, pos, loc); }
    template <class DataType>
    LocalTensor<DataType> Alloc(uint32_t tileSize, CBEMU_LOC) {
        return carve<DataType>(tileSize, detail_alloc::default_pos(hard), loc);
    }
    template <TPosition pos, class DataType>
    LocalTensor<DataType> Alloc(uint32_t tileSize, CBEMU_LOC) { return carve<DataType>(tileSize, pos, loc); }
    uint32_t GetCurAddr() const { return cur_; }

private:
    template <class T>
    LocalTensor<T> carve(uint32_t n, TPosition pos, const cbemu::SrcLoc& loc) {
        const cbemu::MemSpec& spec = cbemu::mem_spec(kMem);
        uint32_t a = kMem == cbemu::Mem::UB ? 32u : spec.align;
        uint32_t bytes = (uint32_t)(((uint64_t)n * sizeof(T) + a - 1) / a * a);
        size_t cap = cbemu::mem_capacity(kMem);
        if ((size_t)cur_ + bytes > spec.backing)
            cbemu::report(spec.overflow_kind, cbemu::Sev::fatal, loc,
                          "LocalMemAllocator: %u bytes requested beyond the %s", cur_ + bytes, spec.name);
        LocalTensor<T> t;
        t.addr_ = (T*)(cbemu::mem_base(kMem) + cur_);
        t.size_ = n;
        t.buf_ = (uint8_t*)t.addr_;
        t.buf_len_ = bytes;
        t.pos_ = pos;
        cur_ += bytes;
        if (cur_ > cap && !reported_) {
            reported_ = true;
            cbemu::report(spec.overflow_kind, cbemu::Sev::error, loc,
                          "LocalMemAllocator brings the %s in use to %u bytes; the SoC has %zu", spec.name, cur_, cap);
        }
        return t;
    }
    uint32_t cur_ = 0;
    bool reported_ = false;
};

}  // namespace AscendC

namespace AscendC {
// docs: 资源管理/PopStackBuffer: all UB the current TPipe has not handed out yet, as one tensor.
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T>& popLocal) {
    cbemu::BlockCtx& c = cbemu::ctx();
    if (!c.ub || !c.pipe) return false;
    size_t used = ((TPipe*)c.pipe)->used_bytes(), cap = cbemu::soc_ub_bytes();
    if (used >= cap) return false;
    popLocal = LocalTensor<T>();
    popLocal.addr_ = (T*)(c.ub + used);
    popLocal.size_ = (uint32_t)((cap - used) / sizeof(T));
    popLocal.buf_ = c.ub + used;
    popLocal.buf_len_ = (uint32_t)(cap - used);
    popLocal.pos_ = pos;
    return true;
}
}  // namespace AscendC

// Kernels call it unqualified as well as AscendC::GetTPipePtr().
inline AscendC::TPipe* GetTPipePtr() { return (AscendC::TPipe*)cbemu::ctx().pipe; }
namespace AscendC {
using ::GetTPipePtr;
}

#if CBEMU_RT_BODY
namespace cbemu {

CBEMU_RT void QueueCore::end_checks() {
    if (current_block() < 0) return;
    for (auto& b : bufs) {
        if (b.st == QBuf::ENQUEUED) {
            report("enque_deque_mismatch", Sev::warning, b.alloc_loc,
                   "tensor allocated here was EnQue'd but never DeQue'd before the kernel ended");
        } else if (b.st != QBuf::FREE) {
            report("tensor_leak", Sev::warning, b.alloc_loc,
                   "tensor allocated here was never released with FreeTensor");
        }
        b.st = QBuf::FREE;
    }
    fifo.clear();
}

CBEMU_RT bool QueueCore::pipes(int& producer, int& consumer) const {
    using P = AscendC::TPosition;
    auto vec = [](P p) { return p == P::VECIN || p == P::VECOUT || p == P::VECCALC; };
    P s = src_pos, d = dst_pos;
    if (s == d) {  // TQue<pos>
        switch (s) {
            case P::A1: case P::B1: case P::C1: producer = hz::P_MTE2, consumer = hz::P_MTE1; return true;
            case P::A2: case P::B2: case P::C2: producer = hz::P_MTE1, consumer = hz::P_M; return true;
            case P::CO1: producer = hz::P_M, consumer = coupled_arch() ? hz::P_V : hz::P_FIX; return true;
            case P::CO2:
                if (!coupled_arch()) return false;
                producer = hz::P_V, consumer = hz::P_MTE3;
                return true;
            case P::C2PIPE2GM: producer = hz::P_MTE1, consumer = hz::P_FIX; return true;
            default: break;
        }
        if (s == P::VECIN) s = P::GM;
        else if (s == P::VECOUT) d = P::GM;
        else return false;
    }
    if (s == P::GM && vec(d)) { producer = hz::P_MTE2, consumer = hz::P_V; return true; }
    if (vec(s) && d == P::GM) { producer = hz::P_V, consumer = hz::P_MTE3; return true; }
    if (vec(s) && vec(d)) { producer = hz::P_MTE2, consumer = hz::P_MTE3; return true; }
    return false;
}

CBEMU_RT int QueueCore::find(const void* p) const {
    const std::vector<QBuf>& bufs = states();
    for (size_t i = 0; i < bufs.size(); ++i)
        if ((const uint8_t*)p >= bufs[i].addr && (const uint8_t*)p < bufs[i].addr + bufs[i].len) return (int)i;
    return -1;
}

CBEMU_RT int QueueCore::alloc_index(const SrcLoc& loc) {
    std::vector<QBuf>& bufs = states();
    if (!root().inited) report("queue_not_initialized", Sev::fatal, loc, "AllocTensor on a queue without InitBuffer");
    for (size_t i = 0; i < bufs.size(); ++i) {
        if (bufs[i].st == QBuf::FREE) {
            bufs[i].st = QBuf::ALLOCATED;
            bufs[i].alloc_loc = loc;
            int prod, cons;
            hz::Core* c = hz::core();
            if (c && bufs[i].free_set && pipes(prod, cons)) hz::acquire(c, prod, bufs[i].free_clock);
            bufs[i].free_set = false;
            return (int)i;
        }
    }
    report("alloc_exhausted", Sev::fatal, loc,
           "AllocTensor: all %zu buffers of this queue are in use (a FreeTensor is missing; the hardware "
           "would wait forever)", bufs.size());
    return -1;
}

CBEMU_RT int QueueCore::owned(const void* addr, const QueueCore* owner, const SrcLoc& loc, const char* api) {
    int i = find(addr);
    if (i < 0 || owner != &root()) {
        report("enque_deque_mismatch", Sev::error, loc, "%s: the tensor does not belong to this queue", api);
        return -1;
    }
    return i;
}

CBEMU_RT bool QueueCore::user_pipes(int user, int& producer, int& consumer) {
    using P = AscendC::TPosition;
    auto ub = [](P p) { return p == P::VECIN || p == P::VECOUT || p == P::VECCALC; };
    P s = (P)(user >> 8), d = (P)(user & 0xff);
    if (s == P::GM && ub(d)) { producer = hz::P_MTE2, consumer = hz::P_V; return true; }
    if (ub(s) && ub(d)) { producer = hz::P_MTE2, consumer = hz::P_MTE3; return true; }
    if (ub(s) && d == P::GM) { producer = hz::P_V, consumer = hz::P_MTE3; return true; }
    return false;
}

CBEMU_RT bool QueueCore::enque_buffer(const void* addr, const QueueCore* owner, uint32_t bytes, const SrcLoc& loc,
                                      int user) {
    int i = owned(addr, owner, loc, "EnQue");
    if (i < 0) return false;
    QBuf& b = states()[i];
    if (b.st == QBuf::ENQUEUED) {
        report("enque_deque_mismatch", Sev::error, loc, "EnQue: the tensor is already in the queue");
        return false;
    }
    if (b.st == QBuf::FREE) {
        report("enque_deque_mismatch", Sev::error, loc, "EnQue: the tensor was already freed");
        return false;
    }
    if (depth > 0 && (int)fifo.size() >= depth) {
        report("queue_depth", Sev::error, loc,
               "EnQue on a queue of depth %d that already holds %zu tensor(s) (the real TQueBind asserts "
               "usedCount < depth: DeQue before enqueuing more, or declare a deeper TQue)", depth, fifo.size());
    }
    int prod, cons;
    if (user >= 0 && depth == 0)
        report("enque_deque_mismatch", Sev::error, loc,
               "EnQue<srcUserPos, dstUserPos>: needs a TQueBind of non-zero depth (TQue/DeQue.md 约束说明)");
    bool evt = stage_pipes(user, prod, cons);
    if (user >= 0 && !evt)
        report("enque_deque_mismatch", Sev::error, loc,
               "EnQue<srcUserPos, dstUserPos>: only GM and the UB positions, not GM to GM (TQue/EnQue.md)");
    hz::Core* c = hz::core();
    if (c && evt) {
        b.enq_clock = hz::release_clock(c, prod);
        b.enq_set = true;
    }
    b.user = user;
    b.st = QBuf::ENQUEUED;
    b.enq_bytes = bytes;
    fifo.push_back(i);
    return true;
}

CBEMU_RT int QueueCore::deque_index(const SrcLoc& loc, int user) {
    std::vector<QBuf>& bufs = states();
    if (fifo.empty()) {
        report("deque_empty", Sev::fatal, loc,
               "DeQue on an empty queue (no matching EnQue; the hardware would wait forever)");
    }
    int i = fifo.front();
    fifo.pop_front();
    bufs[i].st = QBuf::DEQUEUED;
    // the DeQue waits for the event its own positions name: one the EnQue did not set never comes (a hang, or an
    // earlier use's event: a race) on the hardware
    if (bufs[i].user != user)
        report("enque_deque_mismatch", Sev::error, loc,
               "DeQue names other src / dst positions than the EnQue of this tensor (its event is never set)");
    int prod, cons;
    bool evt = stage_pipes(user, prod, cons);
    hz::Core* c = hz::core();
    if (c && bufs[i].enq_set && evt) hz::acquire(c, cons, bufs[i].enq_clock);
    bufs[i].enq_set = false;
    return i;
}

CBEMU_RT void QueueCore::free_buffer(const void* addr, const QueueCore* owner, const SrcLoc& loc) {
    int i = owned(addr, owner, loc, "FreeTensor");
    if (i < 0) return;
    QBuf& b = states()[i];
    if (b.st == QBuf::FREE) {
        report("double_free", Sev::error, loc, "FreeTensor on a tensor that is already free");
        return;
    }
    if (b.st == QBuf::ENQUEUED) {
        report("enque_deque_mismatch", Sev::error, loc, "FreeTensor on a tensor still waiting in the queue");
        for (auto it = fifo.begin(); it != fifo.end(); ++it)
            if (*it == i) { fifo.erase(it); break; }
    }
    int prod, cons;
    hz::Core* c = hz::core();
    if (c && pipes(prod, cons)) {
        b.free_clock = hz::release_clock(c, cons);
        b.free_set = true;
    }
    b.st = QBuf::FREE;
}

}  // namespace cbemu

namespace AscendC {

CBEMU_RT TPipe::TPipe() {
    cbemu::BlockCtx& c = cbemu::ctx();
    if (!c.ub) {
        cbemu::report("no_kernel_context", cbemu::Sev::fatal, cbemu::SrcLoc{"", 0},
                      "TPipe constructed outside a kernel launch (use ICPU_RUN_KF / COTBUILDER_LAUNCH)");
    }
    ub_ = c.ub;
    prev_ = c.pipe;
    c.pipe = this;
}

CBEMU_RT TPipe::~TPipe() {
    cbemu::hz::barrier(-1);
    if (cbemu::ctx().pipe == this) cbemu::ctx().pipe = prev_;
}

CBEMU_RT bool TPipe::InitBuffer(cbemu::QueueCore& que, uint8_t num, uint32_t len, cbemu::SrcLoc loc) {
    // a queue lives where its source position is (its destination when the source is GM)
    cbemu::Mem mem = cbemu::mem_of(que.src_pos == TPosition::GM ? que.dst_pos : que.src_pos);
    uint32_t alen = align_len(len, mem);
    count_buffers(num, loc);
    if ((que.cfg_num && que.cfg_num != num) || (que.cfg_len && que.cfg_len != len))
        cbemu::report("queue_config_mismatch", cbemu::Sev::error, loc,
                      "InitBuffer(que, %u, %u) disagrees with the queue's TQueConfig (bufferNumber %u, bufferLen %u), "
                      "which must repeat them (TQue简介.md)", (unsigned)num, len, que.cfg_num, que.cfg_len);
    cbemu::QueueCore& q = que.root();  // InitBuffer through a copy sets up the buffers the original owns
    q.bufs.clear();
    q.fifo.clear();
    que.fifo.clear();
    for (uint8_t i = 0; i < num; ++i) {
        cbemu::QBuf b;
        b.addr = carve(alen, loc, mem);
        b.len = alen;
        q.bufs.push_back(b);
    }
    q.inited = que.inited = true;
    q.init_loc = que.init_loc = loc;
    queues_.push_back(&q);
    return true;
}

CBEMU_RT bool TPipe::InitBuffer(cbemu::BufCore& buf, uint32_t len, cbemu::SrcLoc loc) {
    cbemu::Mem mem = cbemu::mem_of(buf.pos);
    uint32_t alen = align_len(len, mem);
    count_buffers(1, loc);
    buf.addr = carve(alen, loc, mem);
    buf.len = alen;
    buf.inited = true;
    return true;
}

CBEMU_RT void TPipe::Reset() {
    wait_free_events();
    clear();
}

CBEMU_RT void TPipe::Destroy() {
    wait_free_events();
    cbemu::hz::barrier(-1);
    clear();
}

CBEMU_RT void TPipe::wait_free_events() {
    cbemu::hz::Core* c = cbemu::hz::core();
    for (cbemu::QueueCore* q : queues_) {
        int prod, cons;
        if (!c || !q->pipes(prod, cons)) continue;
        for (auto& b : q->bufs)
            if (b.free_set && b.st == cbemu::QBuf::FREE) cbemu::hz::acquire(c, prod, b.free_clock), b.free_set = false;
    }
    queues_.clear();
}

CBEMU_RT void TPipe::count_buffers(uint32_t n, const cbemu::SrcLoc& loc) {
    buffers_ += n;
    if (buffers_ > 64 && !buffers_reported_) {
        buffers_reported_ = true;
        cbemu::report("too_many_buffers", cbemu::Sev::error, loc,
                      "InitBuffer brings the buffers of this TPipe to %u; a kernel may use at most 64 "
                      "(InitBuffer.md)", buffers_);
    }
}

CBEMU_RT void TPipe::clear() {
    used_ = 0;
    reported_ = false;
    buffers_ = 0;
    for (auto& u : used_local_) u = 0;
    for (auto& r : reported_local_) r = false;
}

CBEMU_RT uint8_t* TPipe::carve(uint32_t bytes, const cbemu::SrcLoc& loc, cbemu::Mem mem) {
    if (mem == cbemu::Mem::UB) return carve(bytes, loc);
    int i = (int)mem;
    const cbemu::MemSpec& spec = cbemu::mem_spec(mem);
    size_t cap = cbemu::mem_capacity(mem);
    if (used_local_[i] + bytes > spec.backing) {
        cbemu::report(spec.overflow_kind, cbemu::Sev::fatal, loc,
                      "InitBuffer asks for %zu bytes of %s in total; the SoC has %zu", used_local_[i] + bytes,
                      spec.name, cap);
    }
    uint8_t* p = cbemu::mem_base(mem) + used_local_[i];
    used_local_[i] += bytes;
    if (used_local_[i] > cap && !reported_local_[i]) {
        reported_local_[i] = true;
        cbemu::report(spec.overflow_kind, cbemu::Sev::error, loc,
                      "InitBuffer brings the %s in use to %zu bytes; the SoC has %zu", spec.name, used_local_[i],
                      cap);
    }
    return p;
}

CBEMU_RT uint8_t* TPipe::carve(uint32_t bytes, const cbemu::SrcLoc& loc) {
    size_t cap = cbemu::soc_ub_bytes();
    if (used_ + bytes > cbemu::kUbBacking) {
        cbemu::report("ub_overflow", cbemu::Sev::fatal, loc,
                      "InitBuffer asks for %zu bytes of UB in total; the SoC has %zu", used_ + bytes, cap);
    }
    uint8_t* p = ub_ + used_;
    used_ += bytes;
    if (used_ > cap && !reported_) {
        // InitBuffer only places buffers: the first API that touches UB past the end is the error (hazard.h
        // ub_beyond); with the hazard model off (measuring its cost) this stays the error it was
        reported_ = true;
        cbemu::report("ub_overflow", cbemu::hz::enabled() ? cbemu::Sev::warning : cbemu::Sev::error, loc,
                      "InitBuffer brings the UB in use to %zu bytes; the SoC has %zu", used_, cap);
    }
    return p;
}

}  // namespace AscendC
#endif  // CBEMU_RT_BODY
