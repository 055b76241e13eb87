// Shared plumbing of the high-level (library) APIs: element-wise maps over LocalTensors whose
// operands may be tensors or scalars, each result computed in double and rounded once on store.
// The sharedTmpBuffer the real library uses as scratch is accepted and bounds-checked but not needed.
#pragma once
#include <cmath>
#include <type_traits>

#include "../emu/vec_core.h"

namespace cbemu {

template <typename T> struct is_local_tensor : std::false_type {};
template <typename T> struct is_local_tensor<AscendC::LocalTensor<T>> : std::true_type {};

// Value of operand x at element i: a tensor element, or the scalar itself.
template <typename T>
inline auto hl_at(const AscendC::LocalTensor<T>& t, uint32_t i) -> calc_t<T> { return (calc_t<T>)t.addr_[i]; }
template <typename S, typename std::enable_if<!is_local_tensor<S>::value, int>::type = 0>
inline auto hl_at(const S& s, uint32_t) -> calc_t<S> { return (calc_t<S>)s; }

template <typename T>
inline bool hl_check(const AscendC::LocalTensor<T>& t, uint32_t n, const SrcLoc& loc, const char* api) {
    return check_count(t, (int64_t)n, loc, api);
}
template <typename S, typename std::enable_if<!is_local_tensor<S>::value, int>::type = 0>
inline bool hl_check(const S&, uint32_t, const SrcLoc&, const char*) { return true; }

// The calCount of a call that omits it: the whole tensor (src's size, as the docs say).
template <typename T>
inline uint32_t hl_all(const AscendC::LocalTensor<T>& t) { return t.GetSize(); }

// A library call is one vector instruction for the hazard model (its internal syncs are the library's own).
template <typename T>
inline void hl_read(hz::Scope& op, const AscendC::LocalTensor<T>& t, uint32_t n) { rd(op, t, n); }
template <typename S, typename std::enable_if<!is_local_tensor<S>::value, int>::type = 0>
inline void hl_read(hz::Scope&, const S&, uint32_t) {}

// dst[i] = f(ops[i]...), for i < n; any operand may be a scalar.
template <typename D, typename F, typename... Ops>
inline void hl_map(const AscendC::LocalTensor<D>& dst, uint32_t n, const SrcLoc& loc, const char* api, F f,
                   const Ops&... ops) {
    bool ok = hl_check(dst, n, loc, api);
    bool oks[] = {true, hl_check(ops, n, loc, api)...};
    for (bool b : oks) ok = ok && b;
    if (!ok || n == 0) return;
    hz::Scope op(hz::P_V, loc, api);
    (hl_read(op, ops, n), ...);
    wr(op, dst, n);
    bool sat = float_saturation();
    // The library computes in passes through its temporary buffer, so every input is read before dst is written: a
    // dst overlapping an input ahead of it (NPUKernelBench's MulSigmoidMulAdd: dst half a buffer past src) gets f of
    // the inputs as they were, not of values this call already wrote
    std::vector<D> out(n);
    for (uint32_t i = 0; i < n; ++i) {
        auto r = f(hl_at(ops, i)...);
        if constexpr (std::is_integral<D>::value && std::is_floating_point<decltype(r)>::value)
            out[i] = convert<D>((double)r, AscendC::RoundMode::CAST_RINT);
        else
            out[i] = saturate(D(r), sat);
    }
    for (uint32_t i = 0; i < n; ++i) dst.addr_[i] = out[i];
}

// isReuseSource = true on an API whose docs say it then computes in src's memory ("本接口内部计算时复用src的内存空间":
// Sin, Cos, Exp, LayerNorm ...; float only where the page says so): src holds garbage afterwards, so the emulator
// writes the poison byte over it (unless src is dst) and a kernel that reads src again sees it.
template <typename T>
inline void hl_clobber(const AscendC::LocalTensor<T>& src, const void* dst, uint64_t n, const SrcLoc& loc,
                       const char* api) {
    if ((const void*)src.addr_ == dst || n == 0 || !check_count(src, (int64_t)n, loc, api)) return;
    hz::Scope op(hz::P_V, loc, api);
    wr(op, src, n);
    std::memset((void*)src.addr_, poison_byte(), n * sizeof(T));
}

// A sharedTmpBuffer argument must at least be a real UB tensor.
inline void hl_tmp(const AscendC::LocalTensor<uint8_t>& tmp, const SrcLoc& loc, const char* api) {
    if (!tmp.addr_) report("invalid_tensor", Sev::fatal, loc, "%s: sharedTmpBuffer was never allocated", api);
}

}  // namespace cbemu
