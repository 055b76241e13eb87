// The tiling template framework op host code derives from (the ops-base `tiling/tiling_base.h` and
// `tiling/tiling_templates_registry.h` interfaces, learned from how op projects use them): a TilingBaseClass
// subclass implements the steps, DoTiling() runs them in order, and TilingRegistry tries an op type's registered
// templates by priority (smallest number first) until one is capable.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../../tiling/platform/platform_ascendc.h"
#include "contexts.h"
#include "log.h"
#include "tiling_type.h"
#include "using_std.h"

namespace optiling {

class TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    TilingBaseClass() = default;
    virtual ~TilingBaseClass() = default;

    // GetShapeAttrsInfo, GetPlatformInfo, IsCapable (not capable: GRAPH_PARAM_INVALID, the registry tries the next
    // template), DoOpTiling, DoLibApiTiling, GetWorkspaceSize, PostTiling, then the tiling key.
    virtual ge::graphStatus DoTiling() {
        ge::graphStatus ret = GetShapeAttrsInfo();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = GetPlatformInfo();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
        for (auto step : {&TilingBaseClass::DoOpTiling, &TilingBaseClass::DoLibApiTiling,
                          &TilingBaseClass::GetWorkspaceSize, &TilingBaseClass::PostTiling}) {
            ret = (this->*step)();
            if (ret != ge::GRAPH_SUCCESS) return ret;
        }
        context_->SetTilingKey(GetTilingKey());
        DumpTilingInfo();
        return ge::GRAPH_SUCCESS;
    }
    virtual void Reset(gert::TilingContext* context) { context_ = context; }

    virtual bool IsCapable() = 0;
    virtual ge::graphStatus GetPlatformInfo() = 0;
    virtual ge::graphStatus GetShapeAttrsInfo() = 0;
    virtual ge::graphStatus DoOpTiling() = 0;
    virtual ge::graphStatus DoLibApiTiling() = 0;
    virtual uint64_t GetTilingKey() const = 0;
    virtual ge::graphStatus GetWorkspaceSize() = 0;
    virtual ge::graphStatus PostTiling() = 0;
    virtual void DumpTilingInfo() {}

    // Blocks of 1 AIC + ratio AIV for `sliceNum` vector slices (a coupled SoC, or no count: the slices).
    static uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    // Debug text the templates log: "[d0, d1]" of a shape, a tensor's dtype/shape/format, every input and output,
    // the tiling bytes as int32 values.
    template <typename Shape>
    std::string GetShapeDebugStr(const Shape& shape) const {
        std::ostringstream o;
        o << "[";
        for (size_t i = 0; i < shape.GetDimNum(); ++i) o << (i ? ", " : "") << shape.GetDim(i);
        o << "]";
        return o.str();
    }
    std::string GetTensorDebugStr(const gert::StorageShape* shape, const gert::CompileTimeTensorDesc* desc) const {
        if (shape == nullptr || desc == nullptr) return "nil ";
        std::ostringstream o;
        o << "(dtype: " << static_cast<int>(desc->GetDataType()) << "),(shape:" << GetShapeDebugStr(shape->GetStorageShape())
          << "),(ori_shape:" << GetShapeDebugStr(shape->GetOriginShape())
          << "),(format: " << static_cast<int>(desc->GetStorageFormat())
          << "),(ori_format: " << static_cast<int>(desc->GetOriginFormat()) << ") ";
        return o.str();
    }
    std::string GetTilingContextDebugStr() const {
        std::ostringstream o;
        const auto* info = context_->GetComputeNodeInfo();
        for (size_t i = 0; i < info->GetInputsNum(); ++i)
            o << "input" << i << ": " << GetTensorDebugStr(context_->GetInputShape(i), context_->GetInputDesc(i));
        for (size_t i = 0; i < info->GetOutputsNum(); ++i)
            o << "output" << i << ": " << GetTensorDebugStr(context_->GetOutputShape(i), context_->GetOutputDesc(i));
        return o.str();
    }
    std::string GetTilingDataDebugStr() const {
        auto* raw = context_->GetRawTilingData();
        const auto* words = static_cast<const int32_t*>(raw->GetData());
        std::ostringstream o;
        for (size_t i = 0; i < raw->GetDataSize() / sizeof(int32_t); ++i) o << words[i] << ", ";
        return o.str();
    }

protected:
    gert::TilingContext* context_ = nullptr;
    // What templates keep between the steps: the platform, block dim, workspace size and tiling key they chose.
    std::unique_ptr<platform_ascendc::PlatformAscendC> ascendcPlatform_{nullptr};
    uint32_t blockDim_ = 0;
    uint64_t workspaceSize_ = 0;
    uint64_t tilingKey_ = 0;
    AiCoreParams aicoreParams_{};
};

class TilingRegistry {
public:
    using Maker = std::function<std::unique_ptr<TilingBaseClass>(gert::TilingContext*)>;
    static TilingRegistry& GetInstance() {
        static TilingRegistry r;
        return r;
    }
    template <typename T>
    bool Register(const std::string& op, int32_t priority) {
        makers_[op].emplace(priority, [](gert::TilingContext* c) { return std::unique_ptr<TilingBaseClass>(new T(c)); });
        return true;
    }
    ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
        auto it = makers_.find(context->GetNodeType());
        if (it == makers_.end()) {
            CBHOST_LOGE(context, "no tiling template registered for %s", context->GetNodeType());
            return ge::GRAPH_FAILED;
        }
        for (auto& kv : it->second) {
            auto t = kv.second(context);
            ge::graphStatus ret = t->DoTiling();
            if (ret != ge::GRAPH_PARAM_INVALID) return ret;
        }
        CBHOST_LOGE(context, "no tiling template of %s is capable of this case", context->GetNodeType());
        return ge::GRAPH_FAILED;
    }
    ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities) {
        auto it = makers_.find(context->GetNodeType());
        if (it == makers_.end()) return ge::GRAPH_FAILED;
        for (int32_t p : priorities) {
            auto m = it->second.find(p);
            if (m == it->second.end()) continue;
            ge::graphStatus ret = m->second(context)->DoTiling();
            if (ret != ge::GRAPH_PARAM_INVALID) return ret;
        }
        return ge::GRAPH_FAILED;
    }

private:
    std::map<std::string, std::multimap<int32_t, Maker>> makers_;
};

}  // namespace optiling

#define REGISTER_TILING_TEMPLATE(op_type, class_name, priority)                                     \
    static bool CBHOST_CAT(cotbuilder_tiling_template_, __COUNTER__) =                              \
        ::optiling::TilingRegistry::GetInstance().Register<class_name>(op_type, priority)
#define REGISTER_OPS_TILING_TEMPLATE(op_type, class_name, priority) \
    REGISTER_TILING_TEMPLATE(#op_type, class_name, priority)
