// Tiling registration as real op hosts write it: REGISTER_TILING_DATA_CLASS with and without a trailing
// `;`, several ops (and tiling-key variants `Op_<key>`) with different structs in one header, and a
// registration outside namespace optiling. Prints what each kernel-side GET_TILING_DATA form read.
#include <cstdio>

#include "kernel_operator.h"
#include "tikicpulib.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(KeyedTiling)  // registered first, but only under tiling-key names
TILING_DATA_FIELD_DEF(uint64_t, blockFactor);
TILING_DATA_FIELD_DEF(uint8_t, ubDim);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MultiOp_10001, KeyedTiling)
REGISTER_TILING_DATA_CLASS(MultiOp_10002, KeyedTiling);

BEGIN_TILING_DATA_DEF(MainTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
TILING_DATA_FIELD_DEF_ARR(int64_t, 2, dims);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MultiOp, MainTiling)
REGISTER_TILING_DATA_CLASS(MultiOpGrad, MainTiling);

BEGIN_TILING_DATA_DEF(OtherTiling)
TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(OtherOp, OtherTiling)
}  // namespace optiling

namespace vendor {
BEGIN_TILING_DATA_DEF(VendorTiling)
TILING_DATA_FIELD_DEF(int32_t, v);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(VendorOp, VendorTiling)
}  // namespace vendor

static_assert(std::is_same<optiling::CotbuilderRegisteredTiling_MultiOp_10001, optiling::KeyedTiling>::value, "");
static_assert(std::is_same<optiling::CotbuilderRegisteredTiling_OtherOp, optiling::OtherTiling>::value, "");
static_assert(std::is_same<vendor::CotbuilderRegisteredTiling_VendorOp, vendor::VendorTiling>::value, "");

extern "C" __global__ __aicore__ void read_tiling(GM_ADDR out, GM_ADDR mainTiling, GM_ADDR keyedTiling) {
    GET_TILING_DATA(plain, mainTiling);  // COTBUILDER_TILING_TYPE when given, else the op's own struct
    GET_TILING_DATA_WITH_STRUCT(optiling::KeyedTiling, keyed, keyedTiling);
    AscendC::GlobalTensor<int64_t> o;
    o.SetGlobalBuffer((__gm__ int64_t*)out, 8);
#ifdef EXPECT_OTHER
    static_assert(std::is_same<decltype(plain), optiling::OtherTiling>::value, "override not taken");
    o.SetValue(0, (int64_t)(plain.scale * 1000));
#else
    static_assert(std::is_same<decltype(plain), optiling::MainTiling>::value, "wrong default struct");
    o.SetValue(0, plain.totalLength);
    o.SetValue(1, plain.tileNum);
    o.SetValue(2, plain.dims[1]);
#endif
    o.SetValue(3, (int64_t)keyed.blockFactor);
    o.SetValue(4, keyed.ubDim);
}

int main() {
    optiling::MainTiling m;
    m.set_totalLength(16384);
    m.set_tileNum(8);
    int64_t dims[2] = {3, -5};
    m.set_dims(dims);
    optiling::KeyedTiling k;
    k.set_blockFactor(1ull << 40);
    k.set_ubDim(6);
    uint8_t* mt = (uint8_t*)AscendC::GmAlloc(m.GetDataSize());
    uint8_t* kt = (uint8_t*)AscendC::GmAlloc(k.GetDataSize());
    m.SaveToBuffer(mt, m.GetDataSize());
    k.SaveToBuffer(kt, k.GetDataSize());
#ifdef EXPECT_OTHER
    optiling::OtherTiling t;
    t.set_scale(2.5f);
    t.SaveToBuffer(mt, t.GetDataSize());
#endif
    int64_t* out = (int64_t*)AscendC::GmAlloc(8 * sizeof(int64_t));
    ICPU_RUN_KF(read_tiling, 1, (GM_ADDR)out, mt, kt);
    std::printf("%lld %lld %lld %lld %lld\n", (long long)out[0], (long long)out[1], (long long)out[2],
                (long long)out[3], (long long)out[4]);
    return 0;
}
