// LocalTensor (a view into this block's UB) and GlobalTensor (a view into GM), each carrying
// the bounds of the buffer it came from so every access can be checked.
#pragma once
#include <cstdint>

#include "../emu/fp.h"
#include "shapeinfo.h"
#include "../emu/local_mem.h"
#include "../emu/runtime.h"
#include "types.h"

namespace cbemu {
struct QueueCore;
inline uint32_t ub_offset(const void* p) { return (uint32_t)((const uint8_t*)p - ctx().ub); }
}  // namespace cbemu

namespace AscendC {

template <typename T>
class LocalTensor {
public:
    using PrimType = T;
    T* addr_ = nullptr;
    uint32_t size_ = 0;          // elements visible through this view
    uint8_t* buf_ = nullptr;     // the queue buffer / TBuf this view lies in
    uint32_t buf_len_ = 0;       // bytes
    cbemu::QueueCore* owner_ = nullptr;
    TPosition pos_ = TPosition::VECCALC;
    uint32_t user_tag_ = 0;
    ShapeInfo shape_info_;

    LocalTensor() = default;
    // A tensor placed by hand: `bufferAddr` is a byte offset into the memory of `pos` (UB, or L1 / L0A / L0B /
    // L0C / BT / FB for the cube positions), `bufferSize` elements. It may reach anywhere inside that memory.
    LocalTensor(TPosition pos, uint32_t bufferAddr, uint32_t bufferSize, CBEMU_LOC) {
        cbemu::Mem mem = cbemu::mem_of(pos);
        const cbemu::MemSpec& spec = cbemu::mem_spec(mem);
        size_t cap = cbemu::mem_capacity(mem);
        if (!cbemu::ctx().ub) cbemu::report("no_kernel_context", cbemu::Sev::fatal, loc, "LocalTensor outside a kernel");
        uint32_t align = mem == cbemu::Mem::UB ? 32u : spec.align;
        if (bufferAddr % align)
            cbemu::report(mem == cbemu::Mem::UB ? "misaligned_ub" : "misaligned_local", cbemu::Sev::error, loc,
                          "LocalTensor at %s offset %u is not %u-byte aligned", spec.name, bufferAddr, align);
        if ((uint64_t)bufferAddr + (uint64_t)bufferSize * sizeof(T) > cap)
            cbemu::report(spec.overflow_kind, cbemu::Sev::error, loc,
                          "LocalTensor [%u, %llu) bytes lies beyond the %zu-byte %s", bufferAddr,
                          (unsigned long long)bufferAddr + (unsigned long long)bufferSize * sizeof(T), cap, spec.name);
        size_t backing = spec.backing;
        if ((uint64_t)bufferAddr + (uint64_t)bufferSize * sizeof(T) > backing)
            cbemu::report(spec.overflow_kind, cbemu::Sev::fatal, loc, "LocalTensor beyond the emulated %s", spec.name);
        uint8_t* base = cbemu::mem_base(mem);
        addr_ = (T*)(base + bufferAddr);
        size_ = bufferSize;
        buf_ = base;
        buf_len_ = (uint32_t)(cap ? cap : backing);
        pos_ = pos;
    }

    // `dst = src0 + src1`, `dst = src0 >= src1` ...: the whole-tensor operator forms (tensor_expr.h) run on assignment
    template <typename E, typename = typename E::cbemu_tensor_expr>
    LocalTensor& operator=(const E& expr) {
        expr.assign_to(*this);
        return *this;
    }

    LocalTensor operator[](uint32_t offset) const {
        LocalTensor t = *this;
        t.addr_ = addr_ + offset;
        t.size_ = offset < size_ ? size_ - offset : 0;
        return t;
    }
    // Scalar accesses run on PIPE_S. operator() hands out a reference: the model counts it as a read (a write
    // through it is missed, a read never falsely reported).
    T& operator()(uint32_t i, CBEMU_LOC) const { return *scalar(i, loc, "operator()", false); }
    T GetValue(uint32_t i, CBEMU_LOC) const { return *scalar(i, loc, "GetValue", false); }
    template <typename U>
    void SetValue(uint32_t i, const U& v, CBEMU_LOC) const { *scalar(i, loc, "SetValue", true) = T(v); }

    uint32_t GetSize() const { return size_; }
    uint32_t GetLength() const { return size_ * (uint32_t)sizeof(T); }
    void SetSize(uint32_t n) { size_ = n; }
    TPosition GetPosition() const { return pos_; }
    // The address the kernel can dereference (`(__ubuf__ T*)t.GetPhyAddr()`), as on the device and in CPU debug.
    uint64_t GetPhyAddr() const { return (uint64_t)(uintptr_t)addr_; }
    uint64_t GetPhyAddr(uint32_t offset) const { return (uint64_t)(uintptr_t)(addr_ + offset); }
    void SetUserTag(uint32_t tag) { user_tag_ = tag; }
    uint32_t GetUserTag() const { return user_tag_; }
    // The shape record library APIs read (docs: LocalTensor/SetShapeInfo); travels with copies of this view.
    void SetShapeInfo(const ShapeInfo& info) { shape_info_ = info; }
    ShapeInfo GetShapeInfo() const { return shape_info_; }

    template <typename U>
    LocalTensor<U> ReinterpretCast() const {
        LocalTensor<U> t;
        t.addr_ = reinterpret_cast<U*>(addr_);
        t.size_ = (uint32_t)((uint64_t)size_ * sizeof(T) / sizeof(U));
        t.buf_ = buf_;
        t.buf_len_ = buf_len_;
        t.owner_ = owner_;
        t.pos_ = pos_;
        return t;
    }

private:
    T* scalar(uint32_t i, const cbemu::SrcLoc& loc, const char* api, bool write) const {
        T* p = elem(i, loc, api);
        cbemu::hz::Scope op(cbemu::hz::P_S, loc, api, cbemu::hz::F_AUTO);
        if (write) op.write(p, sizeof(T));
        else op.read(p, sizeof(T));
        return p;
    }
    T* elem(uint32_t i, const cbemu::SrcLoc& loc, const char* api) const {
        const uint8_t* p = (const uint8_t*)(addr_ + i);
        if (!addr_ || p < buf_ || p + sizeof(T) > buf_ + buf_len_) {
            cbemu::report("ub_out_of_bounds", cbemu::Sev::error, loc,
                          "LocalTensor::%s index %u is outside its UB buffer (%u bytes)", api, i, buf_len_);
            thread_local T sink[8];
            return sink;
        }
        return addr_ + i;
    }
};

template <typename T>
class GlobalTensor {
public:
    using PrimType = T;
    T* addr_ = nullptr;
    uint64_t size_ = 0;
    // valid byte range for accesses; checked_ == false when the buffer is not from GmAlloc and no size was given
    const uint8_t* lo_ = nullptr;
    const uint8_t* hi_ = nullptr;
    // end of the size SetGlobalBuffer declared, when it ends inside the allocation. The hardware checks neither: a
    // kernel reading past its declared size but inside the allocation reads real data (a warning, not an error).
    const uint8_t* decl_hi_ = nullptr;
    bool checked_ = false;
    ShapeInfo shape_info_;
    CacheMode cache_mode_ = CacheMode::CACHE_MODE_NORMAL;

    GlobalTensor() = default;

    void SetGlobalBuffer(T* buffer, uint64_t bufferSize, CBEMU_LOC) { set(buffer, bufferSize, loc); }
    void SetGlobalBuffer(T* buffer, CBEMU_LOC) { set(buffer, 0, loc); }

    GlobalTensor operator[](uint64_t offset) const {
        GlobalTensor t = *this;
        t.addr_ = addr_ + offset;
        t.size_ = offset < size_ ? size_ - offset : 0;
        return t;
    }
    // PIPE_S through the data cache. The compiler's auto-sync covers GetValue and operator() (counted as a read)
    // but not SetValue (关键特性说明.md, table 3's scalar API set).
    T& operator()(uint64_t i, CBEMU_LOC) const { return *scalar(i, loc, "operator()", false); }
    T GetValue(uint64_t i, CBEMU_LOC) const { return *scalar(i, loc, "GetValue", false); }
    // The stored bytes go to the hazard model, so storing what is already there (a kernel zeroing memory that
    // InitGlobalMemory zeroed) is no race whatever the order (hazard.h same_bytes).
    template <typename U>
    void SetValue(uint64_t i, const U& v, CBEMU_LOC) const {
        const T value = T(v);
        *scalar(i, loc, "SetValue", true, &value) = value;
    }
    uint64_t GetSize() const { return size_; }
    T* GetPhyAddr() const { return addr_; }
    void SetShapeInfo(const ShapeInfo& info) { shape_info_ = info; }
    ShapeInfo GetShapeInfo() const { return shape_info_; }
    // docs: GlobalTensor/SetL2CacheHint. A cache hint changes speed, never values: recorded, not acted on.
    template <CacheRwMode rwMode = CacheRwMode::RW>
    void SetL2CacheHint(CacheMode mode) { cache_mode_ = mode; }
    T* GetPhyAddr(uint64_t offset) const { return addr_ + offset; }
    template <typename U>
    GlobalTensor<U> ReinterpretCast() const {
        GlobalTensor<U> t;
        t.addr_ = reinterpret_cast<U*>(addr_);
        t.size_ = size_ * sizeof(T) / sizeof(U);
        t.lo_ = lo_;
        t.hi_ = hi_;
        t.decl_hi_ = decl_hi_;
        t.checked_ = checked_;
        return t;
    }

    // Bytes [p, p+n) allowed? Reports gm_out_of_bounds and returns how many leading bytes are valid.
    uint64_t check_span(const void* p, uint64_t n, const cbemu::SrcLoc& loc, const char* api) const {
        if (!checked_ || n == 0) return n;
        const uint8_t* b = (const uint8_t*)p;
        if (b >= lo_ && b + n <= hi_) {
            if (b + n > decl_hi_)
                cbemu::report("gm_beyond_declared_size", cbemu::Sev::warning, loc,
                              "%s touches GM bytes [%lld, %lld) of its allocation, past the end of the size "
                              "SetGlobalBuffer declared (byte %lld) but inside the allocation",
                              api, (long long)(b - lo_), (long long)(b - lo_ + n), (long long)(decl_hi_ - lo_));
            return n;
        }
        cbemu::report("gm_out_of_bounds", cbemu::Sev::error, loc,
                      "%s touches GM bytes [%lld, %lld) relative to the GlobalTensor buffer start, but only "
                      "[0, %lld) is valid", api, (long long)(b - lo_), (long long)(b - lo_ + n),
                      (long long)(hi_ - lo_));
        if (b < lo_ || b >= hi_) return 0;
        return (uint64_t)(hi_ - b);
    }

private:
    void set(T* buffer, uint64_t n, const cbemu::SrcLoc& loc) {
        addr_ = buffer;
        size_ = n;
        uintptr_t base = 0, end = 0;
        if (cbemu::gm_find(buffer, base, end)) {
            checked_ = true;
            lo_ = (const uint8_t*)base;
            hi_ = (const uint8_t*)end;
            const uint8_t* decl_end = (const uint8_t*)(buffer + n);
            if (n && decl_end > hi_) {
                cbemu::report("gm_buffer_exceeds_allocation", cbemu::Sev::warning, loc,
                              "SetGlobalBuffer declares %llu elements but the GM allocation ends %lld bytes "
                              "after the buffer start", (unsigned long long)n,
                              (long long)(hi_ - (const uint8_t*)buffer));
            }
            if ((const uint8_t*)buffer > hi_) hi_ = lo_ = (const uint8_t*)end;  // starts past the end
            decl_hi_ = n && decl_end < hi_ ? (decl_end < lo_ ? lo_ : decl_end) : hi_;
        } else if (n) {
            checked_ = true;
            lo_ = (const uint8_t*)buffer;
            hi_ = decl_hi_ = (const uint8_t*)(buffer + n);
        } else {
            checked_ = false;
        }
    }
    T* scalar(uint64_t i, const cbemu::SrcLoc& loc, const char* api, bool write, const T* stored = nullptr) const {
        T* p = elem(i, loc, api);
        cbemu::hz::Scope op(cbemu::hz::P_S, loc, api, write ? 0 : cbemu::hz::F_AUTO);
        if (write) op.write(p, sizeof(T), stored);
        else op.read(p, sizeof(T));
        return p;
    }
    T* elem(uint64_t i, const cbemu::SrcLoc& loc, const char* api) const {
        if (check_span(addr_ + i, sizeof(T), loc, api) < sizeof(T)) {
            thread_local T sink[8];
            return sink;
        }
        return addr_ + i;
    }
};

}  // namespace AscendC

namespace cbemu {
// Attribute `elems` elements of a LocalTensor operand (from its start) to the current instruction.
template <typename T>
inline void rd(hz::Scope& op, const AscendC::LocalTensor<T>& t, uint64_t elems) {
    op.read(t.addr_, elems * sizeof(T));
}
template <typename T>
inline void wr(hz::Scope& op, const AscendC::LocalTensor<T>& t, uint64_t elems) {
    op.write(t.addr_, elems * sizeof(T));
}
// ... or its whole view, for APIs whose exact footprint is not worth computing
template <typename T>
inline void rd_all(hz::Scope& op, const AscendC::LocalTensor<T>& t) {
    op.read(t.addr_, (uint64_t)t.size_ * sizeof(T));
}
template <typename T>
inline void wr_all(hz::Scope& op, const AscendC::LocalTensor<T>& t) {
    op.write(t.addr_, (uint64_t)t.size_ * sizeof(T));
}
}  // namespace cbemu
