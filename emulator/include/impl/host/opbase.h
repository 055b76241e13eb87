// The ops-base host library (`Ops::Base`, fetched by hicann ops-* repos from another repository: util/math_util.h,
// util/shape_util.h, util/const_util.h, util/platform_util.h, infershape_elewise_util.h, infershape_broadcast_util.h,
// op_host/tiling_base_class.h ...), written from how the op projects call it: integer division and alignment helpers,
// shape printing and the unknown-shape conventions (rank -2 = unknown rank, dim -1 = unknown dim), reading a const
// input into a shape, the platform numbers a tiling asks for, and the element-wise / broadcast InferShape.
// The kernel-side half (op_kernel/math_util.h, op_kernel/platform_util.h) is in opbase_kernel.h.
#pragma once
#include <cinttypes>  // PRId64 ...: the ops-base headers bring it to op host code
#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "../../securec.h"  // memset_s / EOK: op hosts call them with only ops-base headers included
#include "contexts.h"
#include "op_impl.h"  // IMPL_OP_OPTILING: the ops-base tiling headers bring the registry along
#include "log.h"
#include "platform.h"
#include "tiling_base.h"
#include "opbase_math.h"
#include "../../tiling/platform/platform_ascendc.h"  // the real tiling_base_class.h brings platform_ascendc

namespace Ops {
namespace Base {

// -- printing (ToString of shapes, dtypes, formats, lists) ---------------------------------------------------------
inline std::string ToString(const gert::Shape& s) {
    std::ostringstream o;
    o << "[";
    for (size_t i = 0; i < s.GetDimNum(); ++i) o << (i ? ", " : "") << s.GetDim(i);
    o << "]";
    return o.str();
}
inline std::string ToString(const gert::StorageShape& s) {
    return "origin " + ToString(s.GetOriginShape()) + " storage " + ToString(s.GetStorageShape());
}
inline std::string ToString(ge::DataType dt) { return ge::TypeUtils::DataTypeToSerialString(dt); }
inline std::string ToString(ge::Format f) { return ge::TypeUtils::FormatToSerialString(f); }
template <typename T>
inline std::string ToString(const std::vector<T>& v) {
    std::ostringstream o;
    o << "[";
    for (size_t i = 0; i < v.size(); ++i) o << (i ? ", " : "") << v[i];
    o << "]";
    return o.str();
}
template <typename T, typename = std::enable_if_t<std::is_arithmetic<T>::value>>
inline std::string ToString(T v) {
    return std::to_string(v);
}

// -- shapes (util/shape_util.h) -------------------------------------------------------------------------------------
constexpr int64_t UNKNOWN_DIM_VALUE = -1;
constexpr int64_t UNKNOWN_RANK_DIM_VALUE = -2;

// A scalar is treated as one element of rank 1 (tiling code indexes dim 0).
inline gert::Shape EnsureNotScalar(const gert::Shape& s) {
    if (s.IsScalar()) return gert::Shape({1});
    return s;
}
inline bool IsUnknownRank(const gert::Shape& s) {
    return s.GetDimNum() == 1 && s.GetDim(0) == UNKNOWN_RANK_DIM_VALUE;
}
inline void SetUnknownRank(gert::Shape& s) {
    s.SetDimNum(0);
    s.AppendDim(UNKNOWN_RANK_DIM_VALUE);
}
inline bool IsUnknownShape(const gert::Shape& s) {
    for (size_t i = 0; i < s.GetDimNum(); ++i)
        if (s.GetDim(i) == UNKNOWN_DIM_VALUE) return true;
    return false;
}
inline void SetUnknownShape(int64_t rank, gert::Shape& s) {
    s.SetDimNum(0);
    for (int64_t i = 0; i < rank; ++i) s.AppendDim(UNKNOWN_DIM_VALUE);
}
inline int64_t GetShapeSize(const gert::Shape& s) { return s.GetShapeSize(); }

// -- const inputs (util/const_util.h) -------------------------------------------------------------------------------
// The values of a host tensor of element type T appended to `out` as dims.
template <typename T>
inline void GetValueToShape(const gert::Tensor* t, gert::Shape& out) {
    out.SetDimNum(0);
    if (t == nullptr) return;
    const T* data = t->GetData<T>();
    int64_t n = t->GetShapeSize();
    for (int64_t i = 0; data != nullptr && i < n; ++i) out.AppendDim(static_cast<int64_t>(data[i]));
}
inline bool ConstTensorToShape(const gert::Tensor* t, gert::Shape& out) {
    if (t == nullptr || t->GetAddr() == nullptr) return false;
    switch (t->GetDataType()) {
        case ge::DT_INT32: GetValueToShape<int32_t>(t, out); return true;
        case ge::DT_INT64: GetValueToShape<int64_t>(t, out); return true;
        case ge::DT_UINT32: GetValueToShape<uint32_t>(t, out); return true;
        case ge::DT_UINT64: GetValueToShape<uint64_t>(t, out); return true;
        case ge::DT_INT16: GetValueToShape<int16_t>(t, out); return true;
        case ge::DT_INT8: GetValueToShape<int8_t>(t, out); return true;
        case ge::DT_UINT8: GetValueToShape<uint8_t>(t, out); return true;
        default: return false;
    }
}
// The const input `index` (a value-dependent input: its data is on the host) read as a shape; false when the
// framework has no value for it.
template <typename Ctx>
inline bool GetConstIntToShape(Ctx* context, int64_t index, gert::Shape& out) {
    if (context == nullptr) return false;
    return ConstTensorToShape(context->GetInputTensor(static_cast<size_t>(index)), out);
}
// The first element of the const input `index` as an integer.
template <typename Ctx, typename T>
inline bool GetConstInt(Ctx* context, int64_t index, T& value) {
    gert::Shape s;
    if (!GetConstIntToShape(context, index, s) || s.GetDimNum() == 0) return false;
    value = static_cast<T>(s.GetDim(0));
    return true;
}

// -- platform (util/platform_util.h, op_host/tiling_base_util.h) ----------------------------------------------------
// The modelled SoCs (A2/A3, 310P, 310B) are not register-based (arch35 / Ascend 950 is).
template <typename Ctx>
inline bool IsRegbaseSocVersion(const Ctx*) {
    return false;
}
// One UB block (the DataCopy unit): 32 bytes on every modelled SoC.
template <typename Ctx>
inline int64_t GetUbBlockSize(const Ctx*) {
    return 32;
}
// One vector repeat: 256 bytes on every modelled SoC.
template <typename Ctx>
inline int64_t GetVRegSize(const Ctx*) {
    return 256;
}
// The GM cache line the data movers fetch (tiling code aligns splits to it).
template <typename Ctx>
inline int64_t GetCacheLineSize(const Ctx*) {
    return 128;
}
template <typename Ctx>
inline uint32_t GetAivCoreNum(const Ctx* context) {
    fe::PlatFormInfos* p = context ? context->GetPlatformInfo() : nullptr;
    if (p != nullptr) {
        uint32_t n = p->GetCoreNumByType("VectorCore");
        if (n == 0) n = p->GetCoreNum();
        if (n != 0) return n;
    }
    return cbhost::current_soc().aiv;
}

// -- InferShape (infershape_elewise_util.h, infershape_broadcast_util.h) --------------------------------------------
// Element-wise: output 0 has input 0's shape.
inline ge::graphStatus InferShape4Elewise(gert::InferShapeContext* context) {
    const gert::Shape* in = context ? context->GetInputShape(0) : nullptr;
    gert::Shape* out = context ? context->GetOutputShape(0) : nullptr;
    if (in == nullptr || out == nullptr) {
        CBHOST_LOGE(context, "InferShape4Elewise: input 0 or output 0 is missing");
        return ge::GRAPH_FAILED;
    }
    *out = *in;
    return ge::GRAPH_SUCCESS;
}
// Two shapes broadcast numpy-style (aligned at the last dim; a dim of 1 stretches); false when they do not.
inline bool BroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape& out) {
    if (IsUnknownRank(a) || IsUnknownRank(b)) {
        SetUnknownRank(out);
        return true;
    }
    size_t n = a.GetDimNum() > b.GetDimNum() ? a.GetDimNum() : b.GetDimNum();
    gert::Shape r;
    for (size_t i = 0; i < n; ++i) {
        int64_t da = i + a.GetDimNum() >= n ? a.GetDim(i + a.GetDimNum() - n) : 1;
        int64_t db = i + b.GetDimNum() >= n ? b.GetDim(i + b.GetDimNum() - n) : 1;
        int64_t d;
        if (da == db) d = da;
        else if (da == 1) d = db;
        else if (db == 1) d = da;
        else if (da == UNKNOWN_DIM_VALUE || db == UNKNOWN_DIM_VALUE) d = UNKNOWN_DIM_VALUE;
        else return false;
        r.AppendDim(d);
    }
    out = r;
    return true;
}
// Output 0 is the broadcast of the first `inputNum` inputs (all of them when 0).
inline ge::graphStatus InferShape4Broadcast(gert::InferShapeContext* context, size_t inputNum = 0) {
    gert::Shape* out = context ? context->GetOutputShape(0) : nullptr;
    if (out == nullptr) return ge::GRAPH_FAILED;
    size_t n = inputNum ? inputNum : context->GetComputeNodeInputNum();
    gert::Shape acc;
    for (size_t i = 0; i < n; ++i) {
        const gert::Shape* s = context->GetInputShape(i);
        if (s == nullptr) {
            CBHOST_LOGE(context, "InferShape4Broadcast: input %zu is missing", i);
            return ge::GRAPH_FAILED;
        }
        if (i == 0) {
            acc = *s;
        } else if (!BroadcastShape(acc, *s, acc)) {
            CBHOST_LOGE(context, "InferShape4Broadcast: %s and %s do not broadcast", ToString(acc).c_str(),
                    ToString(*s).c_str());
            return ge::GRAPH_FAILED;
        }
    }
    *out = acc;
    return ge::GRAPH_SUCCESS;
}

// -- the tiling template framework (op_host/tiling_base_class.h) ----------------------------------------------------
using TilingBaseClass = ::optiling::TilingBaseClass;
// What a tiling registry reads the SoC from when the context carries no platform info (the emulated framework always
// gives one, so only the field's presence matters).
struct CompileInfoCommon {
    int32_t socVersion = 0;
};

}  // namespace Base
}  // namespace Ops
