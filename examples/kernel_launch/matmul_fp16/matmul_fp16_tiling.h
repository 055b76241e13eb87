// Tiling of matmul_fp16: the host fills it, the kernel reads it from GM.
#ifndef MATMUL_FP16_TILING_H
#define MATMUL_FP16_TILING_H
#include <cstdint>

struct MatmulFp16Tiling {
    uint32_t M;         // rows of A and C
    uint32_t N;         // columns of B and C
    uint32_t K;         // columns of A, rows of B
    uint32_t coreRows;  // rows of C per core (a multiple of 16)
    uint32_t baseN;     // columns of C per Mmad (a multiple of 16)
    uint32_t baseK;     // K per Mmad (a multiple of 16)
};
#endif  // MATMUL_FP16_TILING_H
