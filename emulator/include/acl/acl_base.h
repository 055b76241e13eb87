// The ACL base types (docs: acl_base.h of the ACL runtime): dtype and format enums shared with GE (same values),
// the error type, aclFloat16. The runtime calls are in acl_rt.h (acl.h includes both).
#pragma once
#include <cstddef>
#include <cstdint>

#include "../impl/emu/fp.h"

typedef int aclError;
constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;
constexpr aclError ACL_ERROR_RT_PARAM_INVALID = 107000;
constexpr aclError ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
constexpr aclError ACL_ERROR_INTERNAL_ERROR = 500000;

typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41,
} aclDataType;

typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47,
} aclFormat;

// aclFloat16: the host's half type (raw IEEE binary16 bits) and its conversions.
typedef uint16_t aclFloat16;
inline float aclFloat16ToFloat(aclFloat16 value) { return (float)half::from_bits(value); }
inline aclFloat16 aclFloatToFloat16(float value) { return half(value).bits_; }

inline size_t aclDataTypeSize(aclDataType dt) {
    switch (dt) {
        case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
        case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
        case ACL_INT8: case ACL_UINT8: case ACL_BOOL: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN:
        case ACL_FLOAT8_E8M0: case ACL_INT4: case ACL_UINT1: return 1;
        case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
        case ACL_COMPLEX128: return 16;
        default: return 0;
    }
}
