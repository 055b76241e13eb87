// Tiling of mul_fp32, filled by the host and read by every core from GM.
#ifndef MUL_FP32_TILING_H
#define MUL_FP32_TILING_H
#include <cstdint>

struct MulFp32Tiling {
    uint32_t totalLength;  // elements in x, y and z; a multiple of blockDim * tileNum * 2 * 8
    uint32_t tileNum;      // tiles per core (each tile is split again into two ping-pong halves)
};

#endif // MUL_FP32_TILING_H
