// Host-side platform query (docs: Utils-API/平台信息获取): the emulated SoC's core counts and memory
// sizes, so tiling code written for an NPU computes the same numbers here.
#pragma once
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "../../impl/emu/runtime.h"

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, ASCEND950, RESERVED_VERSION };

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(const std::string& soc) : soc_(soc) {}
    // One AI core = 1 cube + 2 vector cores on the 910B family; the 310P has 8 plain AI cores.
    uint32_t GetCoreNum() const { return is310p() ? 8 : 48; }
    uint32_t GetCoreNumAic() const { return is310p() ? 8 : 24; }
    uint32_t GetCoreNumAiv() const { return is310p() ? 8 : 48; }
    uint32_t GetCoreNumVector() const { return is310p() ? 8 : 48; }
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        switch (memType) {
            case CoreMemType::UB: size = cbemu::soc_ub_bytes(); break;
            case CoreMemType::L1: size = is310p() ? 1024 * 1024 : 512 * 1024; break;
            case CoreMemType::L0_A: case CoreMemType::L0_B: size = 64 * 1024; break;
            case CoreMemType::L0_C: size = is310p() ? 256 * 1024 : 128 * 1024; break;
            case CoreMemType::L2: size = 192ull * 1024 * 1024; break;
            case CoreMemType::HBM: size = 64ull * 1024 * 1024 * 1024; break;
            case CoreMemType::FB: size = 4 * 1024; break;
            case CoreMemType::BT: size = 1024; break;
            default: size = 0;
        }
    }
    void GetCoreMemBw(const CoreMemType&, uint64_t& bwSize) const { bwSize = 32; }
    SocVersion GetSocVersion() const { return is310p() ? SocVersion::ASCEND310P : SocVersion::ASCEND910B; }
    // The emulator has no system workspace prefix (GetUserWorkspace returns the pointer as given).
    uint32_t GetLibApiWorkSpaceSize() const { return 0; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t, uint32_t) const { return sliceNum; }
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
    }
    uint32_t GetVecRegLen() const { return 256; }
    uint64_t ReserveLocalMemory(uint64_t) { return 0; }

private:
    std::string soc_;
    bool is310p() const {
        std::string s = soc_.empty() ? (std::getenv("COTBUILDER_SOC") ? std::getenv("COTBUILDER_SOC") : "") : soc_;
        for (auto& c : s) c = (char)std::tolower((unsigned char)c);
        return s.rfind("ascend310p", 0) == 0;
    }
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() { return GetInstance(nullptr); }
    // Singleton: only the first call's customSocVersion counts, as documented.
    static PlatformAscendC* GetInstance(const char* customSocVersion) {
        static PlatformAscendC inst(customSocVersion ? customSocVersion : "");
        return &inst;
    }
};

}  // namespace platform_ascendc
