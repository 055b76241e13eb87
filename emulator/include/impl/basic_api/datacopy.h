// DataCopy / DataCopyPad between GM and UB (and UB to UB), with the 32-byte rules, GM bounds
// checks before any write, and SetAtomicAdd applied to GM writes.
#pragma once
#include <algorithm>

#include "tensor.h"

namespace cbemu {

// The cube memories change the units of a local-to-local DataCopy (L1 -> BiasTable / Fixpipe buffer); defined in
// cube_datamove.h. Returns true when it handled the copy.
template <typename T, typename U>
inline bool cube_local_copy(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                     const AscendC::DataCopyParams& p, const SrcLoc& loc);

template <typename T>
inline bool check_ub(const AscendC::LocalTensor<T>& t, uint64_t first_byte, uint64_t end_byte, const SrcLoc& loc,
                     const char* api, bool need_align = true) {
    if (!t.addr_) {
        report("invalid_tensor", Sev::fatal, loc, "%s: LocalTensor was never allocated", api);
    }
    if (need_align && (ub_offset(t.addr_) % 32) != 0) {
        report("misaligned_ub", Sev::error, loc, "%s: UB operand at offset %u is not 32-byte aligned", api,
               ub_offset(t.addr_));
    }
    const uint8_t* lo = (const uint8_t*)t.addr_ + first_byte;
    const uint8_t* hi = (const uint8_t*)t.addr_ + end_byte;
    if (end_byte > first_byte && (lo < t.buf_ || hi > t.buf_ + t.buf_len_)) {
        report("ub_out_of_bounds", Sev::error, loc,
               "%s: UB bytes [%lld, %lld) of the operand fall outside its %u-byte buffer", api,
               (long long)(lo - t.buf_), (long long)(hi - t.buf_), t.buf_len_);
        if (lo < ctx().ub || hi > ctx().ub + kUbBacking)
            report("ub_out_of_bounds", Sev::fatal, loc, "%s: access outside the unified buffer", api);
        return false;
    }
    return true;
}

// Flags of an MTE3 write to GM: with SetAtomicAdd/Max/Min on, the writes are atomic (they commute).
inline uint8_t gm_write_flags() { return ctx().atomic ? hz::F_ATOMIC : 0; }

template <typename T>
inline void atomic_store(T* dst, const T* src, uint64_t n) {
    int mode = ctx().atomic;
    if (mode == 0) {
        std::memcpy((void*)dst, (const void*)src, n * sizeof(T));
        return;
    }
    std::lock_guard<std::mutex> g(atomic_mutex());
    for (uint64_t i = 0; i < n; ++i) {
        if (mode == 1) dst[i] = T(dst[i] + src[i]);
        else if (mode == 2) dst[i] = (float)src[i] > (float)dst[i] ? src[i] : dst[i];
        else dst[i] = (float)src[i] < (float)dst[i] ? src[i] : dst[i];
    }
}

// An atomic accumulation onto GM still holding the poison byte adds onto memory nobody wrote: device memory from
// aclrtMalloc is not cleared (SetAtomicAdd.md), so the sum is garbage on the NPU and NaN here. A warning, not an
// error: an integer output may legitimately hold -1 (the 0xFF pattern) before an atomic max; the verdict stays the
// comparison's, and a wrong answer's reason names this cause.
// Returns whether it warned (a caller checking element by element stops asking after the first).
inline bool warn_atomic_onto_poison(const uint8_t* dst, uint64_t n, size_t elem, const SrcLoc& loc, const char* api) {
    const uint8_t pb = poison_byte();
    if (!ctx().atomic || pb == 0) return false;
    for (uint64_t at = 0; at + elem <= n; at += elem) {
        bool poisoned = true;
        for (size_t b = 0; b < elem && poisoned; ++b) poisoned = dst[at + b] == pb;
        if (!poisoned) continue;
        report("atomic_onto_poison", Sev::warning, loc,
               "%s with atomic accumulation on adds onto GM element %llu of the destination that nothing wrote "
               "(it still holds the poison byte 0x%02X): device memory from aclrtMalloc is not cleared "
               "(SetAtomicAdd.md); clear it first (aclrtMemset, InitGlobalMemory or a plain copy)",
               api, (unsigned long long)(at / elem), pb);
        return true;
    }
    return false;
}

// GM -> UB copy of n bytes, clipped to the GlobalTensor's valid range.
template <typename T>
inline void gm_read(uint8_t* dst, const AscendC::GlobalTensor<T>& g, const uint8_t* src, uint64_t n,
                    const SrcLoc& loc, const char* api) {
    uint64_t ok = g.check_span(src, n, loc, api);
    std::memcpy(dst, src, ok);
}
template <typename T>
inline void gm_write(const AscendC::GlobalTensor<T>& g, uint8_t* dst, const uint8_t* src, uint64_t n,
                     const SrcLoc& loc, const char* api) {
    uint64_t ok = g.check_span(dst, n, loc, api);
    ok = ok / sizeof(T) * sizeof(T);
    warn_atomic_onto_poison(dst, ok, sizeof(T), loc, api);
    atomic_store((T*)dst, (const T*)src, ok / sizeof(T));
}

template <typename T>
inline uint64_t rounded_count_bytes(uint32_t count, const SrcLoc& loc, const char* api) {
    uint64_t bytes = (uint64_t)count * sizeof(T);
    if (bytes % 32) {
        report("datacopy_rounddown", Sev::warning, loc,
               "%s of %u elements = %llu bytes is not a multiple of 32; the hardware moves only %llu bytes", api,
               count, (unsigned long long)bytes, (unsigned long long)(bytes / 32 * 32));
    }
    return bytes / 32 * 32;
}

}  // namespace cbemu

namespace AscendC {

// ---- count form ----
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count, CBEMU_LOC) {
    uint64_t n = cbemu::rounded_count_bytes<T>(count, loc, "DataCopy");
    if (!cbemu::check_ub(dst, 0, n, loc, "DataCopy")) n = 0;
    cbemu::hz::Scope op(cbemu::hz::P_MTE2, loc, "DataCopy");
    op.read(src.addr_, n);
    op.write(dst.addr_, n, src.addr_);
    cbemu::gm_read((uint8_t*)dst.addr_, src, (const uint8_t*)src.addr_, n, loc, "DataCopy");
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, CBEMU_LOC) {
    uint64_t n = cbemu::rounded_count_bytes<T>(count, loc, "DataCopy");
    if (!cbemu::check_ub(src, 0, n, loc, "DataCopy")) n = 0;
    cbemu::hz::Scope op(cbemu::hz::P_MTE3, loc, "DataCopy", cbemu::gm_write_flags());
    op.read(src.addr_, n);
    op.write(dst.addr_, n, src.addr_);
    cbemu::gm_write(dst, (uint8_t*)dst.addr_, (const uint8_t*)src.addr_, n, loc, "DataCopy");
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count, CBEMU_LOC) {
    uint64_t n = cbemu::rounded_count_bytes<T>(count, loc, "DataCopy");
    if (!cbemu::check_ub(dst, 0, n, loc, "DataCopy") || !cbemu::check_ub(src, 0, n, loc, "DataCopy")) n = 0;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "DataCopy");  // UB -> UB runs on the vector pipe
    op.read(src.addr_, n);
    op.write(dst.addr_, n, src.addr_);
    std::memmove(dst.addr_, src.addr_, n);
}

// ---- DataCopyParams form: blockCount blocks of blockLen*32 bytes, strides in 32-byte blocks ----
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, CBEMU_LOC) {
    uint64_t len = (uint64_t)p.blockLen * 32;
    cbemu::hz::Scope op(cbemu::hz::P_MTE2, loc, "DataCopy");
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        uint64_t so = i * (len + (uint64_t)p.srcStride * 32), d = i * (len + (uint64_t)p.dstStride * 32);
        if (!cbemu::check_ub(dst, d, d + len, loc, "DataCopy")) return;
        op.read((const uint8_t*)src.addr_ + so, len);
        op.write((uint8_t*)dst.addr_ + d, len, (const uint8_t*)src.addr_ + so);
        cbemu::gm_read((uint8_t*)dst.addr_ + d, src, (const uint8_t*)src.addr_ + so, len, loc, "DataCopy");
    }
}
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, CBEMU_LOC) {
    uint64_t len = (uint64_t)p.blockLen * 32;
    cbemu::hz::Scope op(cbemu::hz::P_MTE3, loc, "DataCopy", cbemu::gm_write_flags());
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        uint64_t so = i * (len + (uint64_t)p.srcStride * 32), d = i * (len + (uint64_t)p.dstStride * 32);
        if (!cbemu::check_ub(src, so, so + len, loc, "DataCopy")) return;
        op.read((const uint8_t*)src.addr_ + so, len);
        op.write((uint8_t*)dst.addr_ + d, len, (const uint8_t*)src.addr_ + so);
        cbemu::gm_write(dst, (uint8_t*)dst.addr_ + d, (const uint8_t*)src.addr_ + so, len, loc, "DataCopy");
    }
}
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, CBEMU_LOC) {
    if (cbemu::cube_local_copy(dst, src, p, loc)) return;
    uint64_t len = (uint64_t)p.blockLen * 32;
    cbemu::hz::Scope op(cbemu::hz::P_V, loc, "DataCopy");  // UB -> UB runs on the vector pipe
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        uint64_t so = i * (len + (uint64_t)p.srcStride * 32), d = i * (len + (uint64_t)p.dstStride * 32);
        if (!cbemu::check_ub(dst, d, d + len, loc, "DataCopy") || !cbemu::check_ub(src, so, so + len, loc, "DataCopy"))
            return;
        op.read((const uint8_t*)src.addr_ + so, len);
        op.write((uint8_t*)dst.addr_ + d, len, (const uint8_t*)src.addr_ + so);
        std::memmove((uint8_t*)dst.addr_ + d, (const uint8_t*)src.addr_ + so, len);
    }
}

// ---- DataCopyPad GM -> UB: each block lands 32-byte aligned in UB, padded left/right ----
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad, CBEMU_LOC) {
    if (p.blockLen % sizeof(T)) {
        cbemu::report("datacopypad_bad_len", cbemu::Sev::error, loc,
                      "DataCopyPad blockLen %u is not a multiple of sizeof(T)=%zu", p.blockLen, sizeof(T));
    }
    if (pad.leftPadding * sizeof(T) > 32 || pad.rightPadding * sizeof(T) > 32) {
        cbemu::report("datacopypad_bad_padding", cbemu::Sev::error, loc,
                      "DataCopyPad left/right padding may not exceed 32 bytes");
    }
    uint64_t row = (uint64_t)pad.leftPadding * sizeof(T) + p.blockLen + (uint64_t)pad.rightPadding * sizeof(T);
    uint64_t row_al = (row + 31) / 32 * 32;
    cbemu::hz::Scope op(cbemu::hz::P_MTE2, loc, "DataCopyPad");
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        uint64_t so = i * ((uint64_t)p.blockLen + p.srcStride);
        uint64_t d = i * (row_al + (uint64_t)p.dstStride * 32);
        if (!cbemu::check_ub(dst, d, d + row_al, loc, "DataCopyPad")) return;
        op.read((const uint8_t*)src.addr_ + so, p.blockLen);
        op.write((uint8_t*)dst.addr_ + d, row_al);
        uint8_t* out = (uint8_t*)dst.addr_ + d;
        uint8_t* data = out + pad.leftPadding * sizeof(T);
        cbemu::gm_read(data, src, (const uint8_t*)src.addr_ + so, p.blockLen, loc, "DataCopyPad");
        T* o = (T*)out;
        uint64_t n_left = pad.leftPadding, n_data = p.blockLen / sizeof(T);
        uint64_t n_total = row_al / sizeof(T);
        if (pad.isPad) {
            for (uint64_t k = 0; k < n_left; ++k) o[k] = pad.paddingValue;
            for (uint64_t k = n_left + n_data; k < n_total; ++k) o[k] = pad.paddingValue;
        } else if (cbemu::ctx().pad_set && (n_left > 0 || pad.rightPadding > 0)) {
            // isPad == false: the padding takes the value set by SetPadValue
            T v;
            std::memcpy(&v, &cbemu::ctx().pad_bits, sizeof(T) < 8 ? sizeof(T) : 8);
            for (uint64_t k = 0; k < n_left; ++k) o[k] = v;
            for (uint64_t k = n_left + n_data; k < n_left + n_data + pad.rightPadding && k < n_total; ++k) o[k] = v;
        } else if (pad.leftPadding == 0 && pad.rightPadding == 0 && n_data > 0) {
            // no padding requested: the dummy tail repeats the block's first element
            for (uint64_t k = n_data; k < n_total; ++k) o[k] = o[0];
        }
    }
}

// ---- DataCopyPad UB -> GM: blockLen bytes per block; UB rows are 32-byte aligned ----
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p, CBEMU_LOC) {
    if (p.blockLen % sizeof(T)) {
        cbemu::report("datacopypad_bad_len", cbemu::Sev::error, loc,
                      "DataCopyPad blockLen %u is not a multiple of sizeof(T)=%zu", p.blockLen, sizeof(T));
    }
    uint64_t row_al = ((uint64_t)p.blockLen + 31) / 32 * 32;
    cbemu::hz::Scope op(cbemu::hz::P_MTE3, loc, "DataCopyPad", cbemu::gm_write_flags());
    for (uint32_t i = 0; i < p.blockCount; ++i) {
        uint64_t so = i * (row_al + (uint64_t)p.srcStride * 32);
        uint64_t d = i * ((uint64_t)p.blockLen + p.dstStride);
        if (!cbemu::check_ub(src, so, so + p.blockLen, loc, "DataCopyPad")) return;
        op.read((const uint8_t*)src.addr_ + so, p.blockLen);
        op.write((uint8_t*)dst.addr_ + d, p.blockLen, (const uint8_t*)src.addr_ + so);
        cbemu::gm_write(dst, (uint8_t*)dst.addr_ + d, (const uint8_t*)src.addr_ + so, p.blockLen, loc, "DataCopyPad");
    }
}

// ---- older DataCopyPad spelling: DataCopyParams with blockLen in bytes ----
template <typename T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                 const DataCopyPadParams& pad, CBEMU_LOC) {
    T value;
    uint64_t raw = pad.paddingValue;
    std::memcpy(&value, &raw, sizeof(T) < 8 ? sizeof(T) : 8);
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value), loc);
}
template <typename T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, CBEMU_LOC) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0), loc);
}

// ---- atomics on GM writes ----
template <typename T>
void SetAtomicAdd() { cbemu::ctx().atomic = 1; }
template <typename T>
void SetAtomicMax() { cbemu::ctx().atomic = 2; }
template <typename T>
void SetAtomicMin() { cbemu::ctx().atomic = 3; }
inline void SetAtomicNone() { cbemu::ctx().atomic = 0; }
// Turns the DMA-path atomic mode (SetAtomicAdd/Max/Min) off: later GM writes overwrite.
inline void DisableDmaAtomic() { cbemu::ctx().atomic = 0; }

// The value DataCopyPad (GM -> UB) writes into left/right padding when isPad == false.
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
    static_assert(sizeof(T) <= 8, "SetPadValue: at most 8-byte types");
    uint64_t bits = 0;
    std::memcpy(&bits, &paddingValue, sizeof(T));
    cbemu::ctx().pad_bits = bits;
    cbemu::ctx().pad_set = true;
}

}  // namespace AscendC
