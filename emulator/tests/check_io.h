// Shared by the emulator's API check programs: GM buffers from and to the .bin files pytest writes and compares
// with numpy, and the UB round trips every check starts and ends with.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "kernel_operator.h"
#include "tikicpulib.h"

inline std::string g_dir;  // the folder pytest passes as argv[1]

// GM buffer holding DIR/<name>.bin (its byte size in *size_out when asked).
inline uint8_t* load(const std::string& name, size_t* size_out = nullptr) {
    std::ifstream f(g_dir + "/" + name + ".bin", std::ios::binary | std::ios::ate);
    if (!f) { std::fprintf(stderr, "missing input %s\n", name.c_str()); std::exit(2); }
    size_t n = (size_t)f.tellg();
    f.seekg(0);
    uint8_t* p = (uint8_t*)AscendC::GmAlloc(n);
    f.read((char*)p, (std::streamsize)n);
    if (size_out) *size_out = n;
    return p;
}
inline uint8_t* out(size_t bytes) { return (uint8_t*)AscendC::GmAlloc(bytes); }
inline void save(const std::string& name, const void* p, size_t n) {
    std::ofstream f(g_dir + "/out_" + name + ".bin", std::ios::binary);
    f.write((const char*)p, (std::streamsize)n);
}

// n elements of T from GM into a fresh TBuf-backed tensor, and back. A TBuf has no queue to order the copies with
// the vector code around them, so each round trip ends (and starts) with PipeBarrier<PIPE_ALL> as real code must.
template <typename T>
inline AscendC::LocalTensor<T> ub_in(AscendC::TPipe& pipe, AscendC::TBuf<AscendC::TPosition::VECCALC>& buf,
                                     GM_ADDR src, uint32_t n) {
    pipe.InitBuffer(buf, n * sizeof(T));
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)src, n);
    AscendC::LocalTensor<T> t = buf.Get<T>();
    AscendC::DataCopy(t, g, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    return t;
}
template <typename T>
inline void ub_out(GM_ADDR dst, const AscendC::LocalTensor<T>& t, uint32_t n) {
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer((__gm__ T*)dst, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(g, t, n);
    AscendC::PipeBarrier<PIPE_ALL>();
}
