// Tiling of sub_tail: any length works, it need not divide by the cores or the tile.
#ifndef SUB_TAIL_TILING_H
#define SUB_TAIL_TILING_H
#include <cstdint>

struct SubTailTiling {
    uint32_t totalLength;  // elements in x, y and z
    uint32_t tileLength;   // elements per full tile, a multiple of 8 (32 bytes of float)
};

#endif // SUB_TAIL_TILING_H
