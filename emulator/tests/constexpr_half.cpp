// Kernels declare half / bfloat16_t constants with constexpr; the values are the correctly rounded ones.
#include <cstdio>

#include "kernel_operator.h"

constexpr half ONE = 1.0f;
constexpr half NEGATIVE_ONE = -1.0f;
constexpr half THIRD = 1.0 / 3.0;
constexpr bfloat16_t BF_ONE = 1.0f;
static_assert(ONE.bits_ == 0x3C00 && NEGATIVE_ONE.bits_ == 0xBC00, "half 1 and -1");
static_assert(THIRD.bits_ == 0x3555, "1/3 rounds to nearest even");
static_assert(BF_ONE.bits_ == 0x3F80, "bfloat16 1");

int main() {
    half runtime = 1.0f / 3.0f;  // the same conversion at run time
    std::printf("%d\n", runtime.bits_ == THIRD.bits_ ? 1 : 0);
    return 0;
}
