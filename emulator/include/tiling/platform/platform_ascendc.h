// Host-side platform query (docs: Utils-API/平台信息获取/PlatformAscendC): the emulated SoC's core counts and memory
// sizes, so tiling code written for an NPU computes the same numbers here. Constructed from the TilingContext's
// fe::PlatFormInfos: values a caller put there (a repo's UT helper does) win over the SoC's own numbers.
#pragma once
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "../../impl/emu/rt.h"
#include "../../impl/host/platform.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };
enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND910_93,
    ASCEND910_95,
    ASCEND310P,
    ASCEND310B,
    ASCEND610,
    ASCEND610LITE,
    ASCEND031,
    ASCEND035,
    ASCEND950,
    KIRINX90,
    KIRIN9030,
    MC61AM21A,
    RESERVED_VERSION = 99999
};
enum class NpuArch { DAV_1001 = 1001, DAV_2002 = 2002, DAV_2201 = 2201, DAV_3002 = 3002, DAV_3510 = 3510, DAV_RESV };

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos* platformInfo) : info_(platformInfo) {}
    explicit PlatformAscendC(const std::string& soc) : soc_(soc) {}
    ~PlatformAscendC() = default;

    // Split SoCs (910B): GetCoreNum is the vector core count; coupled SoCs: the AI core count.
    uint32_t GetCoreNum() const { return GetCoreNumAiv(); }
    uint32_t GetCoreNumAic() const {
        const auto& s = spec();
        return (uint32_t)number("SoCInfo", s.split ? "cube_core_cnt" : "ai_core_cnt", number("SoCInfo", "ai_core_cnt", s.aic));
    }
    uint32_t GetCoreNumAiv() const {
        const auto& s = spec();
        return (uint32_t)number("SoCInfo", s.split ? "vector_core_cnt" : "ai_core_cnt",
                                number("SoCInfo", "ai_core_cnt", s.aiv));
    }
    // Independent vector cores exist only on the inference SoCs (310P); the emulator does not model them: 0.
    uint32_t GetCoreNumVector() const { return 0; }
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        const auto& s = spec();
        switch (memType) {
            case CoreMemType::UB: size = number("AICoreSpec", "ub_size", ub_default()); break;
            case CoreMemType::L1: size = number("AICoreSpec", "l1_size", s.l1); break;
            case CoreMemType::L0_A: size = number("AICoreSpec", "l0_a_size", s.l0a); break;
            case CoreMemType::L0_B: size = number("AICoreSpec", "l0_b_size", s.l0b); break;
            case CoreMemType::L0_C: size = number("AICoreSpec", "l0_c_size", s.l0c); break;
            case CoreMemType::L2: size = number("SoCInfo", "l2_size", s.l2); break;
            case CoreMemType::HBM: size = s.hbm; break;
            case CoreMemType::FB: size = 4 * 1024; break;
            case CoreMemType::BT: size = number("AICoreSpec", "bt_size", 1024); break;
            default: size = 0;
        }
    }
    void GetCoreMemBw(const CoreMemType&, uint64_t& bwSize) const { bwSize = 32; }
    SocVersion GetSocVersion() const {
        std::string v = short_version();
        for (auto& c : v) c = (char)std::tolower((unsigned char)c);
        if (v.rfind("ascend910_93", 0) == 0 || v.rfind("ascend910b", 0) == 0) return SocVersion::ASCEND910B;
        if (v.rfind("ascend910_95", 0) == 0) return SocVersion::ASCEND910_95;
        if (v.rfind("ascend950", 0) == 0) return SocVersion::ASCEND950;
        if (v.rfind("ascend910", 0) == 0) return SocVersion::ASCEND910;
        if (v.rfind("ascend310p", 0) == 0) return SocVersion::ASCEND310P;
        if (v.rfind("ascend310b", 0) == 0) return SocVersion::ASCEND310B;
        if (v.rfind("ascend610lite", 0) == 0) return SocVersion::ASCEND610LITE;
        if (v.rfind("ascend610", 0) == 0) return SocVersion::ASCEND610;
        if (v.rfind("ascend031", 0) == 0) return SocVersion::ASCEND031;
        if (v.rfind("ascend035", 0) == 0) return SocVersion::ASCEND035;
        if (v.rfind("kirinx90", 0) == 0) return SocVersion::KIRINX90;
        if (v.rfind("kirin9030", 0) == 0) return SocVersion::KIRIN9030;
        return SocVersion::RESERVED_VERSION;
    }
    NpuArch GetCurNpuArch() const {
        switch (number("version", "NpuArch", (uint64_t)spec().npu_arch)) {
            case 1001: return NpuArch::DAV_1001;
            case 2002: return NpuArch::DAV_2002;
            case 2201: return NpuArch::DAV_2201;
            case 3002: return NpuArch::DAV_3002;
            case 3510: return NpuArch::DAV_3510;
            default: return NpuArch::DAV_RESV;
        }
    }
    // The emulator has no system workspace prefix (GetUserWorkspace returns the pointer as given). Asking is
    // counted: a kernel whose tiling asked and wants no workspace of its own still gets the system area on a device,
    // never a null pointer (aclnn_runtime.h's launch).
    uint32_t GetLibApiWorkSpaceSize() const {
        ++cbhost::sys_workspace_asks();
        return 0;
    }
    uint32_t GetResCubeGroupWorkSpaceSize() const { return 0; }
    uint32_t GetResGroupBarrierWorkSpaceSize() const { return 0; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        // A mixed cube+vector op launches groups of 1 AIC + 2 AIV: half the vector slices, at most the cube cores.
        if (aicCoreNum == 0 || aivCoreNum == 0 || !spec().split) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum ? aivCoreNum / aicCoreNum : 1;
        return (sliceNum + ratio - 1) / ratio;
    }
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
    }
    uint32_t GetVecRegLen() const { return 256; }
    uint64_t ReserveLocalMemory(uint64_t) { return 0; }

private:
    fe::PlatFormInfos* info_ = nullptr;
    std::string soc_;

    const cbhost::SocSpec& spec() const;
    std::string short_version() const;
    uint64_t number(const char* label, const char* key, uint64_t fallback) const;
    uint64_t ub_default() const {
#ifdef COTBUILDER_SOC_UB_BYTES
        return (uint64_t)(COTBUILDER_SOC_UB_BYTES);
#else
        return spec().ub;
#endif
    }
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { return GetInstance(nullptr); }
    // Singleton: only the first call's customSocVersion counts, as documented.
    static PlatformAscendC* GetInstance(const char* customSocVersion) {
        static PlatformAscendC inst(customSocVersion ? std::string(customSocVersion) : std::string());
        return &inst;
    }
};

}  // namespace platform_ascendc

#if CBEMU_HOST_RT_BODY
namespace platform_ascendc {

CBEMU_HOST_RT const cbhost::SocSpec& PlatformAscendC::spec() const {
    std::string v;
    if (info_ && info_->GetPlatformRes("version", "Short_SoC_version", v) && !v.empty()) return cbhost::soc_spec(v);
    if (!soc_.empty()) return cbhost::soc_spec(soc_);
    return cbhost::current_soc();
}

CBEMU_HOST_RT std::string PlatformAscendC::short_version() const {
    std::string v;
    if (info_ && info_->GetPlatformRes("version", "Short_SoC_version", v) && !v.empty()) return v;
    return spec().short_version;
}

CBEMU_HOST_RT uint64_t PlatformAscendC::number(const char* label, const char* key, uint64_t fallback) const {
    return info_ ? info_->Number(label, key, fallback) : fallback;
}

}  // namespace platform_ascendc
#endif  // CBEMU_HOST_RT_BODY
