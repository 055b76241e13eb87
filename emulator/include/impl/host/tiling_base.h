// The tiling template framework op host code derives from (the ops-base `tiling/tiling_base.h` and
// `tiling/tiling_templates_registry.h` interfaces, learned from how op projects use them): a TilingBaseClass
// subclass implements the steps, DoTiling() runs them in order, and TilingRegistry tries an op type's registered
// templates by priority (smallest number first) until one is capable.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

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

protected:
    gert::TilingContext* context_ = nullptr;
    uint64_t workspaceSize_ = 0;
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
            OP_LOGE(context, "no tiling template registered for %s", context->GetNodeType());
            return ge::GRAPH_FAILED;
        }
        for (auto& kv : it->second) {
            auto t = kv.second(context);
            ge::graphStatus ret = t->DoTiling();
            if (ret != ge::GRAPH_PARAM_INVALID) return ret;
        }
        OP_LOGE(context, "no tiling template of %s is capable of this case", context->GetNodeType());
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
