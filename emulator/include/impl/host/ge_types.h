// Host-side graph types an op project's op_host code uses (docs: the OpDef / TilingContext pages of Utils-API and the
// graph-engine type tables): ge::DataType, ge::Format, ge::graphStatus, ge::AscendString, ge::Shape, ge::TypeUtils.
// The enum values are the documented ones (ACL and GE share them), so a dtype crosses from an aclTensor to a
// TilingContext and back unchanged.
#pragma once
#include "std_headers.h"

// The graph headers' C-linkage marker ops put before exported tiling functions (`ASCENDC_EXTERN_C ge::graphStatus
// TilingForOp(...)`).
#ifndef ASCENDC_EXTERN_C
#define ASCENDC_EXTERN_C extern "C"
#endif

// A kernel TU of an op project sees the kernel-side DT_* macros (numeric, for `#if ORIG_DTYPE_X == DT_FLOAT`); they
// are set aside while the enum below is declared, so a host header included there still compiles.
#pragma push_macro("DT_FLOAT")
#undef DT_FLOAT
#pragma push_macro("DT_FLOAT16")
#undef DT_FLOAT16
#pragma push_macro("DT_INT8")
#undef DT_INT8
#pragma push_macro("DT_INT32")
#undef DT_INT32
#pragma push_macro("DT_UINT8")
#undef DT_UINT8
#pragma push_macro("DT_INT16")
#undef DT_INT16
#pragma push_macro("DT_UINT16")
#undef DT_UINT16
#pragma push_macro("DT_UINT32")
#undef DT_UINT32
#pragma push_macro("DT_INT64")
#undef DT_INT64
#pragma push_macro("DT_UINT64")
#undef DT_UINT64
#pragma push_macro("DT_DOUBLE")
#undef DT_DOUBLE
#pragma push_macro("DT_BOOL")
#undef DT_BOOL
#pragma push_macro("DT_STRING")
#undef DT_STRING
#pragma push_macro("DT_DUAL_SUB_INT8")
#undef DT_DUAL_SUB_INT8
#pragma push_macro("DT_DUAL_SUB_UINT8")
#undef DT_DUAL_SUB_UINT8
#pragma push_macro("DT_COMPLEX64")
#undef DT_COMPLEX64
#pragma push_macro("DT_COMPLEX128")
#undef DT_COMPLEX128
#pragma push_macro("DT_QINT8")
#undef DT_QINT8
#pragma push_macro("DT_QINT16")
#undef DT_QINT16
#pragma push_macro("DT_QINT32")
#undef DT_QINT32
#pragma push_macro("DT_QUINT8")
#undef DT_QUINT8
#pragma push_macro("DT_QUINT16")
#undef DT_QUINT16
#pragma push_macro("DT_RESOURCE")
#undef DT_RESOURCE
#pragma push_macro("DT_STRING_REF")
#undef DT_STRING_REF
#pragma push_macro("DT_DUAL")
#undef DT_DUAL
#pragma push_macro("DT_VARIANT")
#undef DT_VARIANT
#pragma push_macro("DT_BF16")
#undef DT_BF16
#pragma push_macro("DT_UNDEFINED")
#undef DT_UNDEFINED
#pragma push_macro("DT_INT4")
#undef DT_INT4
#pragma push_macro("DT_UINT1")
#undef DT_UINT1
#pragma push_macro("DT_INT2")
#undef DT_INT2
#pragma push_macro("DT_UINT2")
#undef DT_UINT2
#pragma push_macro("DT_COMPLEX32")
#undef DT_COMPLEX32
#pragma push_macro("DT_HIFLOAT8")
#undef DT_HIFLOAT8
#pragma push_macro("DT_FLOAT8_E5M2")
#undef DT_FLOAT8_E5M2
#pragma push_macro("DT_FLOAT8_E4M3FN")
#undef DT_FLOAT8_E4M3FN
#pragma push_macro("DT_FLOAT8_E8M0")
#undef DT_FLOAT8_E8M0
#pragma push_macro("DT_FLOAT6_E3M2")
#undef DT_FLOAT6_E3M2
#pragma push_macro("DT_FLOAT6_E2M3")
#undef DT_FLOAT6_E2M3
#pragma push_macro("DT_FLOAT4_E2M1")
#undef DT_FLOAT4_E2M1
#pragma push_macro("DT_FLOAT4_E1M2")
#undef DT_FLOAT4_E1M2

namespace ge {

using graphStatus = uint32_t;
constexpr int64_t UNKNOWN_DIM = -1;      // a dimension known only at run time
constexpr int64_t UNKNOWN_DIM_NUM = -2;  // a rank known only at run time
using char_t = char;
using float32_t = float;
using float64_t = double;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;
constexpr graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
constexpr graphStatus SUCCESS = 0;
constexpr graphStatus FAILED = 0xFFFFFFFF;
constexpr graphStatus PARAM_INVALID = 50331649;

enum DataType : int32_t {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15,
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_QINT8 = 18,
    DT_QINT16 = 19,
    DT_QINT32 = 20,
    DT_QUINT8 = 21,
    DT_QUINT16 = 22,
    DT_RESOURCE = 23,
    DT_STRING_REF = 24,
    DT_DUAL = 25,
    DT_VARIANT = 26,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
    DT_UINT1 = 30,
    DT_INT2 = 31,
    DT_UINT2 = 32,
    DT_COMPLEX32 = 33,
    DT_HIFLOAT8 = 34,
    DT_FLOAT8_E5M2 = 35,
    DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37,
    DT_FLOAT6_E3M2 = 38,
    DT_FLOAT6_E2M3 = 39,
    DT_FLOAT4_E2M1 = 40,
    DT_FLOAT4_E1M2 = 41,
    DT_MAX
};

enum Format : int32_t {
    FORMAT_NCHW = 0,
    FORMAT_NHWC = 1,
    FORMAT_ND = 2,
    FORMAT_NC1HWC0 = 3,
    FORMAT_FRACTAL_Z = 4,
    FORMAT_NC1C0HWPAD = 5,
    FORMAT_NHWC1C0 = 6,
    FORMAT_FSR_NCHW = 7,
    FORMAT_FRACTAL_DECONV = 8,
    FORMAT_C1HWNC0 = 9,
    FORMAT_FRACTAL_DECONV_TRANSPOSE = 10,
    FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
    FORMAT_NC1HWC0_C04 = 12,
    FORMAT_FRACTAL_Z_C04 = 13,
    FORMAT_CHWN = 14,
    FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15,
    FORMAT_HWCN = 16,
    FORMAT_NC1KHKWHWC0 = 17,
    FORMAT_BN_WEIGHT = 18,
    FORMAT_FILTER_HWCK = 19,
    FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
    FORMAT_HASHTABLE_LOOKUP_KEYS = 21,
    FORMAT_HASHTABLE_LOOKUP_VALUE = 22,
    FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
    FORMAT_HASHTABLE_LOOKUP_HITS = 24,
    FORMAT_C1HWNCoC0 = 25,
    FORMAT_MD = 26,
    FORMAT_NDHWC = 27,
    FORMAT_FRACTAL_ZZ = 28,
    FORMAT_FRACTAL_NZ = 29,
    FORMAT_NCDHW = 30,
    FORMAT_DHWCN = 31,
    FORMAT_NDC1HWC0 = 32,
    FORMAT_FRACTAL_Z_3D = 33,
    FORMAT_CN = 34,
    FORMAT_NC = 35,
    FORMAT_DHWNC = 36,
    FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37,
    FORMAT_FRACTAL_ZN_LSTM = 38,
    FORMAT_FRACTAL_Z_G = 39,
    FORMAT_RESERVED = 40,
    FORMAT_ALL = 41,
    FORMAT_NULL = 42,
    FORMAT_ND_RNN_BIAS = 43,
    FORMAT_FRACTAL_ZN_RNN = 44,
    FORMAT_NYUV = 45,
    FORMAT_NYUV_A = 46,
    FORMAT_NCL = 47,
    FORMAT_FRACTAL_Z_WINO = 48,
    FORMAT_C1HWC0 = 49,
    FORMAT_FRACTAL_NZ_C0_16 = 50,
    FORMAT_FRACTAL_NZ_C0_32 = 51,
    FORMAT_END,
    FORMAT_MAX = 0xff
};

// A format value may carry a sub-format and C0 in its high bytes; the primary format is the low byte.
inline int32_t GetPrimaryFormat(int32_t format) { return format & 0xff; }
inline int32_t GetSubFormat(int32_t format) { return (format >> 8) & 0xffff; }
inline int32_t GetFormatFromSub(int32_t primary, int32_t sub) { return (primary & 0xff) | ((sub & 0xffff) << 8); }

// Bytes per element (sub-byte types report 1; int4 callers divide themselves, as in CANN).
inline int GetSizeByDataType(DataType dt) {
    switch (dt) {
        case DT_FLOAT: case DT_INT32: case DT_UINT32: case DT_QINT32: case DT_COMPLEX32: return 4;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: case DT_QINT16: case DT_QUINT16: return 2;
        case DT_INT8: case DT_UINT8: case DT_BOOL: case DT_QINT8: case DT_QUINT8: case DT_DUAL_SUB_INT8:
        case DT_DUAL_SUB_UINT8: case DT_HIFLOAT8: case DT_FLOAT8_E5M2: case DT_FLOAT8_E4M3FN: case DT_FLOAT8_E8M0:
        case DT_INT4: case DT_UINT1: case DT_INT2: case DT_UINT2: case DT_FLOAT4_E2M1: case DT_FLOAT4_E1M2:
        case DT_FLOAT6_E3M2: case DT_FLOAT6_E2M3: return 1;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}

class AscendString {
public:
    AscendString() = default;
    AscendString(const char* s) : s_(s ? s : "") {}
    AscendString(const char* s, size_t n) : s_(s ? std::string(s, n) : std::string()) {}
    const char* GetString() const { return s_.c_str(); }
    size_t GetLength() const { return s_.size(); }
    bool operator<(const AscendString& o) const { return s_ < o.s_; }
    bool operator==(const AscendString& o) const { return s_ == o.s_; }
    bool operator!=(const AscendString& o) const { return s_ != o.s_; }

private:
    std::string s_;
};

// The documented subset of ge::Shape used by tiling code (high-level API tiling helpers take it).
class Shape {
public:
    Shape() = default;
    Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    graphStatus SetDim(size_t i, int64_t v) {
        if (i >= dims_.size()) return GRAPH_FAILED;
        dims_[i] = v;
        return GRAPH_SUCCESS;
    }
    void SetDimNum(size_t n) { dims_.resize(n, 0); }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        if (dims_.empty()) return 0;
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }
    bool operator==(const Shape& o) const { return dims_ == o.dims_; }
    bool operator!=(const Shape& o) const { return dims_ != o.dims_; }

private:
    std::vector<int64_t> dims_;
};

namespace cbhost_names {
struct DtName {
    DataType dt;
    const char* name;
};
// Serialised names (TypeUtils::DataTypeToSerialString) and the short names msOpGen JSON uses.
inline const DtName* dtype_table(size_t& n) {
    static const DtName t[] = {
        {DT_FLOAT, "DT_FLOAT"},     {DT_FLOAT16, "DT_FLOAT16"}, {DT_INT8, "DT_INT8"},     {DT_INT32, "DT_INT32"},
        {DT_UINT8, "DT_UINT8"},     {DT_INT16, "DT_INT16"},     {DT_UINT16, "DT_UINT16"}, {DT_UINT32, "DT_UINT32"},
        {DT_INT64, "DT_INT64"},     {DT_UINT64, "DT_UINT64"},   {DT_DOUBLE, "DT_DOUBLE"}, {DT_BOOL, "DT_BOOL"},
        {DT_STRING, "DT_STRING"},   {DT_COMPLEX64, "DT_COMPLEX64"}, {DT_COMPLEX128, "DT_COMPLEX128"},
        {DT_BF16, "DT_BF16"},       {DT_INT4, "DT_INT4"},       {DT_UINT1, "DT_UINT1"},   {DT_COMPLEX32, "DT_COMPLEX32"},
        {DT_HIFLOAT8, "DT_HIFLOAT8"}, {DT_FLOAT8_E5M2, "DT_FLOAT8_E5M2"}, {DT_FLOAT8_E4M3FN, "DT_FLOAT8_E4M3FN"},
        {DT_UNDEFINED, "DT_UNDEFINED"},
    };
    n = sizeof(t) / sizeof(t[0]);
    return t;
}
}  // namespace cbhost_names

class TypeUtils {
public:
    static bool GetDataTypeLength(DataType dt, uint32_t& length) {
        int n = GetSizeByDataType(dt);
        if (n < 0) return false;
        length = (uint32_t)n;
        return true;
    }
    static std::string DataTypeToSerialString(DataType dt) {
        size_t n = 0;
        const auto* t = cbhost_names::dtype_table(n);
        for (size_t i = 0; i < n; ++i)
            if (t[i].dt == dt) return t[i].name;
        return "UNDEFINED";
    }
    static AscendString DataTypeToAscendString(DataType dt) { return AscendString(DataTypeToSerialString(dt).c_str()); }
    static DataType SerialStringToDataType(const std::string& s) {
        size_t n = 0;
        const auto* t = cbhost_names::dtype_table(n);
        for (size_t i = 0; i < n; ++i)
            if (s == t[i].name) return t[i].dt;
        return DT_UNDEFINED;
    }
    static std::string FormatToSerialString(Format f) {
        switch (GetPrimaryFormat(f)) {
            case FORMAT_NCHW: return "NCHW";
            case FORMAT_NHWC: return "NHWC";
            case FORMAT_ND: return "ND";
            case FORMAT_NC1HWC0: return "NC1HWC0";
            case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
            case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
            case FORMAT_NCDHW: return "NCDHW";
            case FORMAT_NDHWC: return "NDHWC";
            case FORMAT_NDC1HWC0: return "NDC1HWC0";
            case FORMAT_HWCN: return "HWCN";
            case FORMAT_NC: return "NC";
            case FORMAT_NCL: return "NCL";
            default: return "RESERVED";
        }
    }
    static AscendString FormatToAscendString(Format f) { return AscendString(FormatToSerialString(f).c_str()); }
};

}  // namespace ge

#pragma pop_macro("DT_FLOAT")
#pragma pop_macro("DT_FLOAT16")
#pragma pop_macro("DT_INT8")
#pragma pop_macro("DT_INT32")
#pragma pop_macro("DT_UINT8")
#pragma pop_macro("DT_INT16")
#pragma pop_macro("DT_UINT16")
#pragma pop_macro("DT_UINT32")
#pragma pop_macro("DT_INT64")
#pragma pop_macro("DT_UINT64")
#pragma pop_macro("DT_DOUBLE")
#pragma pop_macro("DT_BOOL")
#pragma pop_macro("DT_STRING")
#pragma pop_macro("DT_DUAL_SUB_INT8")
#pragma pop_macro("DT_DUAL_SUB_UINT8")
#pragma pop_macro("DT_COMPLEX64")
#pragma pop_macro("DT_COMPLEX128")
#pragma pop_macro("DT_QINT8")
#pragma pop_macro("DT_QINT16")
#pragma pop_macro("DT_QINT32")
#pragma pop_macro("DT_QUINT8")
#pragma pop_macro("DT_QUINT16")
#pragma pop_macro("DT_RESOURCE")
#pragma pop_macro("DT_STRING_REF")
#pragma pop_macro("DT_DUAL")
#pragma pop_macro("DT_VARIANT")
#pragma pop_macro("DT_BF16")
#pragma pop_macro("DT_UNDEFINED")
#pragma pop_macro("DT_INT4")
#pragma pop_macro("DT_UINT1")
#pragma pop_macro("DT_INT2")
#pragma pop_macro("DT_UINT2")
#pragma pop_macro("DT_COMPLEX32")
#pragma pop_macro("DT_HIFLOAT8")
#pragma pop_macro("DT_FLOAT8_E5M2")
#pragma pop_macro("DT_FLOAT8_E4M3FN")
#pragma pop_macro("DT_FLOAT8_E8M0")
#pragma pop_macro("DT_FLOAT6_E3M2")
#pragma pop_macro("DT_FLOAT6_E2M3")
#pragma pop_macro("DT_FLOAT4_E2M1")
#pragma pop_macro("DT_FLOAT4_E1M2")
