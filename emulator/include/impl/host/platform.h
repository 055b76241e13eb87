// The platform description a TilingContext carries (fe::PlatFormInfos, what GetPlatformInfo() returns) and the
// modelled SoCs' numbers (docs: PlatformAscendC GetCoreNum* / GetCoreMemSize / GetSocVersion).
//
// A PlatFormInfos holds labelled string maps ("SoCInfo": ai_core_cnt, vector_core_cnt, cube_core_cnt;
// "AICoreSpec": ub_size, l1_size, l0_a_size ...; "version": Short_SoC_version, NpuArch). The verify harnesses leave
// it empty and PlatformAscendC answers from the SoC chosen by COTBUILDER_SOC; a repo's own UT helper may fill it
// (SetPlatformRes), and then those values win, as on the device.
#pragma once
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

namespace cbhost {

struct SocSpec {
    const char* name;            // lower-case --soc name
    const char* short_version;   // "Ascend910B"
    int npu_arch;                // __NPU_ARCH__ / NpuArch
    uint32_t aic, aiv;           // cube / vector cores (coupled SoCs: both the AI core count)
    bool split;                  // Cube/Vector separated
    uint64_t ub, l1, l0a, l0b, l0c, l2, hbm;
};

// Numbers of the SoCs the emulator models (910B family: 24 AIC + 48 AIV, 192 KB UB; 310P: 8 coupled AI cores,
// 256 KB UB). ascend910_93 (A3) reports the A2 numbers, as its docs say GetSocVersion does.
inline const SocSpec& soc_spec(const std::string& want) {
    static const SocSpec table[] = {
        {"ascend910b", "Ascend910B", 2201, 24, 48, true, 196608, 524288, 65536, 65536, 131072, 201326592ull,
         68719476736ull},
        {"ascend910_93", "Ascend910B", 2201, 24, 48, true, 196608, 524288, 65536, 65536, 131072, 201326592ull,
         68719476736ull},
        {"ascend310p", "Ascend310P", 2002, 8, 8, false, 262144, 1048576, 65536, 65536, 262144, 16777216ull,
         25769803776ull},
        {"ascend310b", "Ascend310B", 3002, 1, 1, false, 262144, 1048576, 65536, 65536, 131072, 4194304ull,
         8589934592ull},
    };
    std::string s = want;
    for (auto& c : s) c = (char)std::tolower((unsigned char)c);
    for (const auto& e : table)
        if (s.rfind(e.name, 0) == 0) return e;
    return table[0];
}

// How many times host code asked PlatformAscendC::GetLibApiWorkSpaceSize (for a TilingFunc: did it ask).
inline unsigned& sys_workspace_asks() {
    static unsigned n = 0;
    return n;
}

inline const SocSpec& current_soc() {
    const char* s = std::getenv("COTBUILDER_SOC");
    return soc_spec(s ? s : "ascend910b");
}

}  // namespace cbhost

namespace fe {

enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class OptionalInfos {
public:
    void Init(const std::string& soc, const std::string& core_type, const std::string& ai_core_num,
              const std::string& l1_fusion) {
        soc_ = soc;
        core_type_ = core_type;
        ai_core_num_ = ai_core_num;
        l1_fusion_ = l1_fusion;
    }
    std::string GetSocVersion() const { return soc_; }
    std::string GetCoreType() const { return core_type_; }
    uint32_t GetAICoreNum() const { return (uint32_t)std::strtoul(ai_core_num_.c_str(), nullptr, 10); }

private:
    std::string soc_, core_type_, ai_core_num_, l1_fusion_;
};

class PlatFormInfos {
public:
    bool Init() { return true; }
    void SetPlatformRes(const std::string& label, std::map<std::string, std::string>& res) { res_[label] = res; }
    void SetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& res) {
        res_[label] = res;
    }
    bool GetPlatformRes(const std::string& label, const std::string& key, std::string& value) const {
        auto it = res_.find(label);
        if (it == res_.end()) return false;
        auto kv = it->second.find(key);
        if (kv == it->second.end()) return false;
        value = kv->second;
        return true;
    }
    bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& value) const {
        return GetPlatformRes(label, key, value);
    }
    bool GetPlatformResWithLock(const std::string& label, std::map<std::string, std::string>& res) const {
        auto it = res_.find(label);
        if (it == res_.end()) return false;
        res = it->second;
        return true;
    }
    // "AICore" counts AI cores (the cube count on split SoCs), "VectorCore" the vector cores; a description without
    // the count answers with the emulated SoC's, as the one the runtime hands a TilingFunc always has it.
    void SetCoreNumByCoreType(const std::string& core_type) { SetCoreNum(GetCoreNumByType(core_type)); }
    uint32_t GetCoreNumByType(const std::string& core_type) const {
        const auto& s = cbhost::current_soc();
        if (core_type == "VectorCore") return (uint32_t)Number("SoCInfo", "vector_core_cnt", s.aiv);
        return (uint32_t)Number("SoCInfo", "ai_core_cnt", s.split ? s.aic : s.aiv);
    }
    // The runtime sets the count of the op's core type before tiling (an AI Core op: the AI cores, so a split
    // SoC's vector ops read the cube count, dynamic_rnn doubles it for the AIV); unset, that is the default.
    uint32_t GetCoreNum() const { return core_num_set_ ? core_num_ : GetCoreNumByType("AICore"); }
    void SetCoreNum(uint32_t n) {
        core_num_ = n;
        core_num_set_ = true;
    }
    bool Empty() const { return res_.empty(); }
    // UB / L1 / L0 sizes of the modelled SoC, or the values a caller set in "AICoreSpec".
    void GetLocalMemSize(const LocalMemType& type, uint64_t& size) const {
        const auto& s = cbhost::current_soc();
        switch (type) {
            case LocalMemType::UB: size = Number("AICoreSpec", "ub_size", s.ub); break;
            case LocalMemType::L1: size = Number("AICoreSpec", "l1_size", s.l1); break;
            case LocalMemType::L0_A: size = Number("AICoreSpec", "l0_a_size", s.l0a); break;
            case LocalMemType::L0_B: size = Number("AICoreSpec", "l0_b_size", s.l0b); break;
            case LocalMemType::L0_C: size = Number("AICoreSpec", "l0_c_size", s.l0c); break;
            case LocalMemType::L2: size = Number("SoCInfo", "l2_size", s.l2); break;
            case LocalMemType::HBM: size = s.hbm; break;
            default: size = 0;
        }
    }
    // A numeric resource, or `fallback` when the platform description does not have it.
    uint64_t Number(const std::string& label, const std::string& key, uint64_t fallback) const {
        std::string v;
        if (!GetPlatformRes(label, key, v) || v.empty()) return fallback;
        char* end = nullptr;
        unsigned long long n = std::strtoull(v.c_str(), &end, 10);
        return end == v.c_str() ? fallback : (uint64_t)n;
    }

private:
    std::map<std::string, std::map<std::string, std::string>> res_;
    uint32_t core_num_ = 0;
    bool core_num_set_ = false;
};

}  // namespace fe
