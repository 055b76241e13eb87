// The part of the ops-base library both halves of an op use (util/math_util.h on the host, op_kernel/math_util.h and
// op_kernel/platform_util.h in the kernel): constexpr integer division / alignment and the platform constants a
// kernel folds into its own constants (`static constexpr uint32_t BLOCK_SIZE = Ops::Base::GetUbBlockSize();`).
#pragma once
#include <cstdint>

namespace Ops {
namespace Base {

// -- integer helpers (util/math_util.h) ----------------------------------------------------------------------------
// A zero divisor / alignment gives 0: the real helpers guard it the same way instead of trapping, and a tiling that
// reaches it is wrong anyway (its block counts come out 0 and the kernel or the test notices).
template <typename T1, typename T2>
constexpr T1 CeilDiv(T1 a, T2 b) {
    if (b == 0) return 0;
    return static_cast<T1>((a + static_cast<T1>(b) - 1) / static_cast<T1>(b));
}
template <typename T1, typename T2>
constexpr T1 FloorDiv(T1 a, T2 b) {
    if (b == 0) return 0;
    return static_cast<T1>(a / static_cast<T1>(b));
}
template <typename T1, typename T2>
constexpr T1 CeilAlign(T1 a, T2 b) {
    if (b == 0) return 0;
    return static_cast<T1>(CeilDiv(a, b) * static_cast<T1>(b));
}
template <typename T1, typename T2>
constexpr T1 FloorAlign(T1 a, T2 b) {
    if (b == 0) return 0;
    return static_cast<T1>(a / static_cast<T1>(b) * static_cast<T1>(b));
}
template <typename T>
constexpr T Gcd(T a, T b) {
    while (b != 0) {
        T t = a % b;
        a = b;
        b = t;
    }
    return a;
}
template <typename T>
constexpr T Lcm(T a, T b) {
    return (a == 0 || b == 0) ? 0 : a / Gcd(a, b) * b;
}

// -- platform constants without a context (every modelled SoC: A2/A3, 310P, 310B) ---------------------------------
constexpr int64_t GetUbBlockSize() { return 32; }   // one UB block, the DataCopy unit
constexpr int64_t GetVRegSize() { return 256; }     // one vector repeat
constexpr bool IsRegbaseSocVersion() { return false; }  // register-based (arch35 / Ascend 950) SoCs are not modelled

}  // namespace Base
}  // namespace Ops
