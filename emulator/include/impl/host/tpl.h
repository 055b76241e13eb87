// Tiling template programming (docs: Utils-API/Tiling模板编程 — 模板参数定义, GET_TPL_TILING_KEY,
// ASCENDC_TPL_SEL_PARAM): an op declares its kernel template parameters (ASCENDC_TPL_ARGS_DECL) and the legal
// combinations (ASCENDC_TPL_SEL); the host packs the chosen values into the tiling key, the kernel is instantiated per
// combination and the launch picks the instance by key.
//
// Key encoding, as documented: parameters in declaration order from the lowest bit, each in its bit width
// (DTYPE/FORMAT 8 bits, BOOL 1, UINT the declared width); DTYPE/FORMAT/BOOL store the value itself, UINT stores the
// value's position in its declared (range-expanded) list. The same header is read on the kernel side, where
// cotbuilder generates the key -> template-instance dispatch from cbhost::tpl_instances().
#pragma once
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_KERNEL_TYPE 4
#define ASCENDC_TPL_DETERMINISTIC 5
#define ASCENDC_TPL_SHARED_KERNEL_TYPE 6

#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_16_BW 16
#define ASCENDC_TPL_32_BW 32

#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

// Kernel types of ASCENDC_TPL_KERNEL_TYPE_SEL (recorded, not modelled: every block is one vector core here).
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 4
#define ASCENDC_TPL_MIX_AIC_1_0 5
#define ASCENDC_TPL_MIX_AIC_1_1 6
#define ASCENDC_TPL_MIX_AIC_1_2 7
#define ASCENDC_TPL_AICORE 8
#define ASCENDC_TPL_VECTORCORE 9
#define ASCENDC_TPL_MIX_AICORE 10
#define ASCENDC_TPL_MIX_VECTOR_CORE 11
#define ASCENDC_TPL_MAX 12

// A DATATYPE/FORMAT parameter may name "the dtype of input/output x" instead of listing values.
#define ASCENDC_TPL_INPUT_BIAS 100000000
#define ASCENDC_TPL_OUTPUT_BIAS 900000000
#define ASCENDC_TPL_INPUT(x) (ASCENDC_TPL_INPUT_BIAS + (x))
#define ASCENDC_TPL_OUTPUT(x) (ASCENDC_TPL_OUTPUT_BIAS + (x))

// The native DataType values a DATATYPE parameter may list (模板参数定义.md, ASCENDC_TPL_DATATYPE_DECL): the
// ge::DataType numbers, so the host's GET_TPL_TILING_KEY(dtype-of-input) and the kernel's `if constexpr (D_T ==
// C_DT_FLOAT)` agree (impl/host/ge_types.h has the same numbers).
#define C_DT_FLOAT 0
#define C_DT_FLOAT16 1
#define C_DT_INT8 2
#define C_DT_INT32 3
#define C_DT_UINT8 4
#define C_DT_INT16 6
#define C_DT_UINT16 7
#define C_DT_UINT32 8
#define C_DT_INT64 9
#define C_DT_UINT64 10
#define C_DT_DOUBLE 11
#define C_DT_BOOL 12
#define C_DT_COMPLEX64 16
#define C_DT_BF16 27
#define C_DT_INT4 29
#define C_DT_UINT1 30
#define C_DT_INT2 31
#define C_DT_COMPLEX32 33
#define C_DT_HIFLOAT8 34
#define C_DT_FLOAT8_E5M2 35
#define C_DT_FLOAT8_E4M3FN 36
#define C_DT_FLOAT4_E2M1 40
#define C_DT_FLOAT4_E1M2 41

namespace cbhost {
constexpr uint64_t kInvalidTilingKey = 0xFFFFFFFFFFFFFFFFull;
}

struct ParamStruct {
    const char* name;
    uint32_t paramType;
    uint8_t bitWidth;
    std::vector<uint64_t> vals;
    const char* macroType;
    ParamStruct(const char* inName, uint32_t inParamType, uint8_t inBitWidth, std::vector<uint64_t> inVals,
                const char* inMacroType)
        : name(inName), paramType(inParamType), bitWidth(inBitWidth), vals(std::move(inVals)), macroType(inMacroType) {
        if (paramType == ASCENDC_TPL_UINT) expand_uint();
    }

private:
    // UINT values come as (mode, ...): LIST values as they are; RANGE (count, lo, hi, lo, hi ...) expanded; MIX a
    // RANGE part followed by listed values.
    void expand_uint() {
        if (vals.empty()) return;
        uint64_t mode = vals[0];
        std::vector<uint64_t> out;
        if (mode == ASCENDC_TPL_UI_LIST) {
            out.assign(vals.begin() + 1, vals.end());
        } else {
            size_t n = vals.size() > 1 ? (size_t)vals[1] : 0;
            size_t at = 2;
            for (size_t r = 0; r < n && at + 1 < vals.size(); ++r, at += 2)
                for (uint64_t v = vals[at]; v <= vals[at + 1]; ++v) out.push_back(v);
            if (mode == ASCENDC_TPL_UI_MIX)
                for (; at < vals.size(); ++at) out.push_back(vals[at]);
        }
        vals = std::move(out);
    }
};
using TilingDeclareParams = std::vector<ParamStruct>;
using TilingSelectParams = std::vector<std::vector<ParamStruct>>;

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ParamStruct{#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_BOOL_DECL(x, ...) ParamStruct{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "DECL"}
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...) \
    ParamStruct{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "DECL"}

#define ASCENDC_TPL_DTYPE_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_UINT_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_UINT, 0, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_BOOL_SEL(x, ...) ParamStruct{#x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_TILING_STRUCT_SEL(x, ...)
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) \
    ParamStruct{"kernel_type", ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_DETERMINISTIC_SEL(...) \
    ParamStruct{"deterministic", ASCENDC_TPL_DETERMINISTIC, ASCENDC_TPL_1_BW, {__VA_ARGS__}, "SEL"}
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...) \
    ParamStruct{#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, "SEL"}

#define ASCENDC_TPL_ARGS_DECL(x, ...) static TilingDeclareParams g_tilingDeclareParams{__VA_ARGS__}
#define ASCENDC_TPL_ARGS_SEL(...) {__VA_ARGS__}
#define ASCENDC_TPL_SEL(...) static TilingSelectParams g_tilingSelectParams{__VA_ARGS__}

namespace AscendC {
inline uint64_t EncodeTilingKey(const TilingDeclareParams& decl, std::initializer_list<uint64_t> args) {
    uint32_t bits = 0;
    uint64_t key = 0;
    size_t i = 0;
    for (uint64_t v : args) {
        if (i >= decl.size()) break;
        const auto& p = decl[i++];
        uint64_t code = v;
        if (p.paramType == ASCENDC_TPL_UINT) {
            size_t pos = 0;
            while (pos < p.vals.size() && p.vals[pos] != v) ++pos;
            if (pos == p.vals.size()) {
                std::fprintf(stderr, "[ERROR] GET_TPL_TILING_KEY: %s = %llu is not in its ASCENDC_TPL_UINT_DECL\n",
                             p.name, (unsigned long long)v);
                return cbhost::kInvalidTilingKey;
            }
            code = pos;
        }
        if (p.bitWidth < 64 && code >> p.bitWidth) {
            std::fprintf(stderr, "[ERROR] GET_TPL_TILING_KEY: %s = %llu does not fit in %u bits\n", p.name,
                         (unsigned long long)v, (unsigned)p.bitWidth);
            return cbhost::kInvalidTilingKey;
        }
        key |= code << bits;
        bits += p.bitWidth;
    }
    if (bits > 64) return cbhost::kInvalidTilingKey;
    return key;
}
inline uint64_t EncodeTilingKey(const TilingDeclareParams& decl, const TilingSelectParams&,
                                std::initializer_list<uint64_t> args) {
    return EncodeTilingKey(decl, args);
}
}  // namespace AscendC

#define GET_TPL_TILING_KEY(...) ::AscendC::EncodeTilingKey(g_tilingDeclareParams, {__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)              \
    do {                                                 \
        uint64_t cbhost_tpl_key = GET_TPL_TILING_KEY(__VA_ARGS__); \
        (context)->SetTilingKey(cbhost_tpl_key);         \
    } while (0)

namespace cbhost {
// Every legal combination of the declared parameters: (tiling key, values in declaration order). A SEL entry
// names its parameter; parameters a SEL group leaves out take every declared value.
struct TplInstance {
    uint64_t key;
    std::vector<uint64_t> values;
};
inline std::vector<TplInstance> tpl_instances(const TilingDeclareParams& decl, const TilingSelectParams& sel) {
    std::vector<TplInstance> out;
    for (const auto& group : sel) {
        std::vector<std::vector<uint64_t>> choices;
        for (const auto& d : decl) {
            const ParamStruct* s = nullptr;
            for (const auto& g : group)
                if (std::string(g.name) == d.name) s = &g;
            choices.push_back(s ? s->vals : d.vals);
        }
        std::vector<uint64_t> cur(decl.size());
        std::vector<size_t> idx(decl.size(), 0);
        bool empty = false;
        for (const auto& c : choices) empty = empty || c.empty();
        if (empty) continue;
        while (true) {
            for (size_t i = 0; i < decl.size(); ++i) cur[i] = choices[i][idx[i]];
            uint32_t bits = 0;
            uint64_t key = 0;
            bool ok = true;
            for (size_t i = 0; i < decl.size(); ++i) {
                uint64_t code = cur[i];
                if (decl[i].paramType == ASCENDC_TPL_UINT) {
                    size_t pos = 0;
                    while (pos < decl[i].vals.size() && decl[i].vals[pos] != cur[i]) ++pos;
                    ok = ok && pos < decl[i].vals.size();
                    code = pos;
                }
                key |= code << bits;
                bits += decl[i].bitWidth;
            }
            bool dup = false;
            for (const auto& o : out) dup = dup || o.key == key;
            if (ok && !dup) out.push_back({key, cur});
            size_t k = decl.size();
            while (k > 0) {
                --k;
                if (++idx[k] < choices[k].size()) break;
                idx[k] = 0;
                if (k == 0) {
                    k = (size_t)-1;
                    break;
                }
            }
            if (k == (size_t)-1 || decl.empty()) break;
        }
    }
    return out;
}
}  // namespace cbhost
