// The false-pass suite's harness side (driven by tests/emulator/test_false_pass.py): each translation unit holds
// several small kernels, each wrong on hardware for a reason a doc sentence states, beside its corrected twin.
// `./binary CASE` runs one case: it fills the inputs from the formulas below (the Python side computes the golden from
// the same formulas, before the kernel runs), launches, and writes the output bytes to out.bin in the working folder.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>

#include "acl/acl.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

using namespace AscendC;

namespace fp {

constexpr uint32_t N = 256;  // elements per case unless it says otherwise

// Input formulas (mirrored in test_false_pass.py): x in [-2, 2], y in [0.5, 2.5], exactly representable in fp16.
inline float xval(uint32_t i) { return (float)((int)(i % 17) - 8) * 0.25f; }
inline float yval(uint32_t i) { return (float)((int)(i % 5) + 1) * 0.5f; }

template <typename T>
inline uint8_t* input(uint32_t n, float (*f)(uint32_t)) {
    T* p = (T*)GmAlloc(n * sizeof(T));
    for (uint32_t i = 0; i < n; ++i) p[i] = T(f(i));
    return (uint8_t*)p;
}
inline uint8_t* output(size_t bytes) { return (uint8_t*)GmAlloc(bytes); }
// Device memory as an NPU host program gets it: aclrtMalloc, not cleared.
inline uint8_t* device_output(size_t bytes) {
    void* p = nullptr;
    aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    return (uint8_t*)p;
}
inline void save(const void* p, size_t bytes) {
    FILE* f = std::fopen("out.bin", "wb");
    std::fwrite(p, 1, bytes, f);
    std::fclose(f);
}

using Case = void (*)();
inline std::map<std::string, Case>& cases() {
    static std::map<std::string, Case> m;
    return m;
}
struct Register {
    Register(const char* name, Case c) { cases()[name] = c; }
};

}  // namespace fp

// FP_CASE(name) { host code }: one runnable case.
#define FP_CASE(name)                                   \
    static void fp_case_##name();                       \
    static fp::Register fp_reg_##name(#name, fp_case_##name); \
    static void fp_case_##name()

#define FP_MAIN                                                                              \
    int main(int argc, char** argv) {                                                        \
        if (argc < 2 || !fp::cases().count(argv[1])) {                                       \
            for (auto& kv : fp::cases()) std::printf("%s\n", kv.first.c_str());              \
            return argc < 2 ? 0 : 2;                                                         \
        }                                                                                    \
        fp::cases()[argv[1]]();                                                              \
        return 0;                                                                            \
    }
