// The op prototype an op project registers (docs: Utils-API/原型注册与管理 — OpDef, OpParamDef, OpAttrDef,
// OpAICoreDef, OpAICoreConfig, OP_ADD): inputs, outputs and attributes in declaration order with their kinds,
// dtypes and formats; the tiling / infer functions go to the op-implementation registry. The emulated framework
// reads it to lay out the aclnn arguments and the kernel call, exactly in this order.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../emu/rt.h"
#include "../../graph/operator.h"  // the toolkit's registry headers bring ge::Operator (CheckSupport callbacks take it)
#include "op_impl.h"

namespace ops {

enum Option { IGNORE = 0, OPTIONAL = 1, REQUIRED = 2, DYNAMIC = 3, VIRTUAL = 4 };
enum class DependScope : uint32_t { ALL = 0, TILING = 1, INVALID_SCOPE };
enum class FollowType : uint32_t { ALL = 0, DTYPE = 1, FORMAT = 2, SHAPE = 3, INVALID_TYPE };
enum class CommentSection : uint32_t { CATEGORY = 0, BRIEF, CONSTRAINTS, RESTRICTIONS, SEE, THIRDPARTYFWKCOMPAT, SECTION_MAX };
enum class FormatCheckOption : uint32_t { DEFAULT = 0, STRICT, MAX };
enum class ItemFindStatus { ITEM_FIND = 0, ITEM_NOEXIST = 1 };

// The element type of an output's initial value (OpParamDef::InitValue docs).
enum class ScalarType : uint32_t {
    UINT64 = 0,
    INT64 = 1,
    UINT32 = 2,
    INT32 = 3,
    UINT16 = 4,
    INT16 = 5,
    UINT8 = 6,
    INT8 = 7,
    FLOAT32 = 8,
    FLOAT16 = 9,
    INVALID_DTYPE = static_cast<uint32_t>(-1),
};

// A typed initial value: `{ScalarType::FLOAT32, 0}`, or a bare number (its type left to the output's dtype).
struct ScalarVar {
    enum { INT, FLOAT } kind = INT;
    int64_t i = 0;
    float f = 0;
    ScalarType scalar_type = ScalarType::INVALID_DTYPE;
    ScalarVar() = default;
    ScalarVar(int64_t v) : kind(INT), i(v) {}
    ScalarVar(int v) : kind(INT), i(v) {}
    ScalarVar(uint64_t v) : kind(INT), i((int64_t)v) {}
    ScalarVar(float v) : kind(FLOAT), f(v) {}
    ScalarVar(double v) : kind(FLOAT), f((float)v) {}
    ScalarVar(ScalarType t, uint64_t v) : ScalarVar(t, (int64_t)v) {}
    ScalarVar(ScalarType t, int64_t v) : kind(INT), i(v), f((float)v), scalar_type(t) { typed(); }
    ScalarVar(ScalarType t, int v) : ScalarVar(t, (int64_t)v) {}
    ScalarVar(ScalarType t, unsigned int v) : ScalarVar(t, (int64_t)v) {}
    ScalarVar(ScalarType t, float v) : kind(FLOAT), i((int64_t)v), f(v), scalar_type(t) { typed(); }
    ScalarVar(ScalarType t, double v) : ScalarVar(t, (float)v) {}
    bool operator==(const ScalarVar& o) const {
        return kind == o.kind && i == o.i && f == o.f && scalar_type == o.scalar_type;
    }

private:
    // A float type holds the float, an integer type the integer, whichever number was written.
    void typed() {
        bool is_float = scalar_type == ScalarType::FLOAT32 || scalar_type == ScalarType::FLOAT16;
        if (is_float && kind == INT) f = (float)i;
        if (!is_float && kind == FLOAT) i = (int64_t)f;
        kind = is_float ? FLOAT : INT;
    }
};

class OpParamDef {
public:
    explicit OpParamDef(const char* name = "") : name_(name ? name : "") {}
    OpParamDef& ParamType(Option t) {
        param_type_ = t;
        return *this;
    }
    OpParamDef& DataType(std::vector<ge::DataType> types) {
        dtypes_ = std::move(types);
        return *this;
    }
    OpParamDef& DataTypeList(std::vector<ge::DataType> types) {
        dtypes_ = std::move(types);
        dtype_list_ = true;
        return *this;
    }
    OpParamDef& DataTypeForBinQuery(std::vector<ge::DataType>) { return *this; }
    OpParamDef& Format(std::vector<ge::Format> formats) {
        formats_ = std::move(formats);
        return *this;
    }
    OpParamDef& FormatList(std::vector<ge::Format> formats) {
        formats_ = std::move(formats);
        return *this;
    }
    OpParamDef& FormatForBinQuery(std::vector<ge::Format>) { return *this; }
    OpParamDef& UnknownShapeFormat(std::vector<ge::Format>) { return *this; }
    OpParamDef& ValueDepend(Option v) {
        value_depend_ = v;
        return *this;
    }
    OpParamDef& ValueDepend(Option v, DependScope) { return ValueDepend(v); }
    OpParamDef& IgnoreContiguous() { return *this; }
    OpParamDef& AutoContiguous() { return *this; }
    OpParamDef& Scalar() {
        scalar_ = true;
        return *this;
    }
    OpParamDef& ScalarList() {
        scalar_list_ = true;
        return *this;
    }
    OpParamDef& To(const char* name) {
        to_name_ = name ? name : "";
        return *this;
    }
    OpParamDef& To(ge::DataType t) {
        to_dtype_ = t;
        return *this;
    }
    OpParamDef& Follow(const char* name) {
        follow_ = name ? name : "";
        return *this;
    }
    OpParamDef& Follow(const char* name, FollowType) { return Follow(name); }
    OpParamDef& OutputShapeDependOnCompute() { return *this; }
    // The value the framework fills the output with before the kernel runs (when the TilingFunc set
    // SetNeedAtomic(true), as the docs require): one for every dtype, or one per entry of DataType().
    OpParamDef& InitValue(uint64_t v) { return InitValue(std::vector<ScalarVar>{ScalarVar(v)}); }
    OpParamDef& InitValue(const ScalarVar& v) { return InitValue(std::vector<ScalarVar>{v}); }
    OpParamDef& InitValue(const std::vector<ScalarVar>& v) {
        init_values_ = v;
        init_per_dtype_ = v.size() > 1;
        return *this;
    }
    // The initial value for an output of dtype `dt` (nullptr: none declared for it).
    const ScalarVar* init_value(ge::DataType dt) const {
        if (init_values_.empty()) return nullptr;
        if (!init_per_dtype_) return &init_values_[0];
        for (size_t i = 0; i < dtypes_.size() && i < init_values_.size(); ++i)
            if (dtypes_[i] == dt) return &init_values_[i];
        return nullptr;
    }
    OpParamDef& Comment(const char*) { return *this; }
    OpParamDef& Version(uint32_t) { return *this; }

    const std::string& name() const { return name_; }
    Option param_type() const { return param_type_; }
    const std::vector<ge::DataType>& dtypes() const { return dtypes_; }
    const std::vector<ge::Format>& formats() const { return formats_; }
    bool value_depend() const { return value_depend_ != IGNORE; }
    bool is_scalar() const { return scalar_; }
    bool is_scalar_list() const { return scalar_list_; }
    const std::string& to_name() const { return to_name_; }
    ge::DataType to_dtype() const { return to_dtype_; }
    const std::string& follow() const { return follow_; }

private:
    std::string name_;
    Option param_type_ = REQUIRED;
    std::vector<ge::DataType> dtypes_;
    std::vector<ge::Format> formats_;
    bool dtype_list_ = false;
    Option value_depend_ = IGNORE;
    bool scalar_ = false, scalar_list_ = false;
    std::string to_name_, follow_;
    std::vector<ScalarVar> init_values_;
    bool init_per_dtype_ = false;
    ge::DataType to_dtype_ = ge::DT_UNDEFINED;
};

class OpAttrDef {
public:
    enum Kind { NONE, BOOL, INT, FLOAT, STRING, LIST_BOOL, LIST_INT, LIST_FLOAT, LIST_LIST_INT };
    explicit OpAttrDef(const char* name = "") : name_(name ? name : "") {}
    OpAttrDef& AttrType(Option t) {
        attr_type_ = t;
        return *this;
    }
    OpAttrDef& Bool() { return kind(BOOL); }
    OpAttrDef& Bool(bool v) {
        has_default_ = true;
        def_bool_ = v;
        return kind(BOOL);
    }
    OpAttrDef& Int() { return kind(INT); }
    OpAttrDef& Int(int64_t v) {
        has_default_ = true;
        def_int_ = v;
        return kind(INT);
    }
    OpAttrDef& Float() { return kind(FLOAT); }
    OpAttrDef& Float(float v) {
        has_default_ = true;
        def_float_ = v;
        return kind(FLOAT);
    }
    OpAttrDef& String() { return kind(STRING); }
    OpAttrDef& String(const char* v) {
        has_default_ = true;
        def_str_ = v ? v : "";
        return kind(STRING);
    }
    OpAttrDef& ListBool() { return kind(LIST_BOOL); }
    OpAttrDef& ListBool(std::vector<bool> v) {
        has_default_ = true;
        def_list_bool_ = std::move(v);
        return kind(LIST_BOOL);
    }
    OpAttrDef& ListInt() { return kind(LIST_INT); }
    OpAttrDef& ListInt(std::vector<int64_t> v) {
        has_default_ = true;
        def_list_int_ = std::move(v);
        return kind(LIST_INT);
    }
    OpAttrDef& ListFloat() { return kind(LIST_FLOAT); }
    OpAttrDef& ListFloat(std::vector<float> v) {
        has_default_ = true;
        def_list_float_ = std::move(v);
        return kind(LIST_FLOAT);
    }
    OpAttrDef& ListListInt() { return kind(LIST_LIST_INT); }
    OpAttrDef& ListListInt(std::vector<std::vector<int64_t>> v) {
        has_default_ = true;
        def_list_list_int_ = std::move(v);
        return kind(LIST_LIST_INT);
    }
    OpAttrDef& Comment(const char*) { return *this; }
    OpAttrDef& Version(uint32_t) { return *this; }

    const std::string& name() const { return name_; }
    Option attr_type() const { return attr_type_; }
    Kind attr_kind() const { return kind_; }
    bool has_default() const { return has_default_; }
    // The default as the RuntimeAttrs value tiling would see when the caller passes nothing.
    gert::AttrValue default_value() const;
    bool def_bool() const { return def_bool_; }
    int64_t def_int() const { return def_int_; }
    float def_float() const { return def_float_; }
    const std::string& def_str() const { return def_str_; }
    const std::vector<bool>& def_list_bool() const { return def_list_bool_; }
    const std::vector<int64_t>& def_list_int() const { return def_list_int_; }
    const std::vector<float>& def_list_float() const { return def_list_float_; }
    const std::vector<std::vector<int64_t>>& def_list_list_int() const { return def_list_list_int_; }

private:
    OpAttrDef& kind(Kind k) {
        kind_ = k;
        return *this;
    }
    std::string name_;
    Option attr_type_ = REQUIRED;
    Kind kind_ = NONE;
    bool has_default_ = false;
    bool def_bool_ = false;
    int64_t def_int_ = 0;
    float def_float_ = 0;
    std::string def_str_;
    std::vector<bool> def_list_bool_;
    std::vector<int64_t> def_list_int_;
    std::vector<float> def_list_float_;
    std::vector<std::vector<int64_t>> def_list_list_int_;
};

// Inputs/outputs of one param list in declaration order; a second Input("x") returns the first one's definition.
class OpParamList {
public:
    OpParamDef& get(const char* name) {
        for (auto& p : params_)
            if (p->name() == name) return *p;
        params_.push_back(std::make_unique<OpParamDef>(name));
        return *params_.back();
    }
    size_t size() const { return params_.size(); }
    const OpParamDef& operator[](size_t i) const { return *params_[i]; }

private:
    std::vector<std::unique_ptr<OpParamDef>> params_;
};

class OpAICoreConfig {
public:
    OpAICoreConfig() = default;
    explicit OpAICoreConfig(const char*) {}
    OpParamDef& Input(const char* name) { return inputs_.get(name); }
    OpParamDef& Output(const char* name) { return outputs_.get(name); }
    OpAICoreConfig& DynamicCompileStaticFlag(bool) { return *this; }
    OpAICoreConfig& DynamicFormatFlag(bool) { return *this; }
    OpAICoreConfig& DynamicRankSupportFlag(bool) { return *this; }
    OpAICoreConfig& DynamicShapeSupportFlag(bool) { return *this; }
    OpAICoreConfig& NeedCheckSupportFlag(bool) { return *this; }
    OpAICoreConfig& PrecisionReduceFlag(bool) { return *this; }
    OpAICoreConfig& ExtendCfgInfo(const char*, const char*) { return *this; }
    const OpParamList& inputs() const { return inputs_; }
    const OpParamList& outputs() const { return outputs_; }

private:
    OpParamList inputs_, outputs_;
};

class OpDef;

class OpAICoreDef {
public:
    explicit OpAICoreDef(OpDef* owner) : owner_(owner) {}
    OpAICoreDef& SetTiling(gert::OpImplRegisterV2::TilingKernelFunc f);
    OpAICoreDef& SetTilingParse(gert::OpImplRegisterV2::TilingParseFunc f);
    template <typename F>
    OpAICoreDef& SetCheckSupport(F) {
        return *this;
    }
    template <typename F>
    OpAICoreDef& SetOpSelectFormat(F) {
        return *this;
    }
    template <typename F>
    OpAICoreDef& SetOpSupportInfo(F) {
        return *this;
    }
    template <typename F>
    OpAICoreDef& SetOpSpecInfo(F) {
        return *this;
    }
    template <typename F>
    OpAICoreDef& SetParamGeneralize(F) {
        return *this;
    }
    OpAICoreDef& AddConfig(const char* soc) {
        socs_.push_back(soc ? soc : "");
        return *this;
    }
    // A SoC's own prototype: the config's Input/Output dtypes replace the OpDef's on that SoC. Copied now, as the
    // real AddConfig does: ops build the config as a local of their constructor.
    struct SocParams {
        std::vector<std::pair<std::string, std::vector<ge::DataType>>> inputs, outputs;
    };
    OpAICoreDef& AddConfig(const char* soc, OpAICoreConfig& cfg) {
        socs_.push_back(soc ? soc : "");
        SocParams& own = configs_[soc ? soc : ""];
        own = SocParams{};
        for (size_t i = 0; i < cfg.inputs().size(); ++i)
            own.inputs.emplace_back(cfg.inputs()[i].name(), cfg.inputs()[i].dtypes());
        for (size_t i = 0; i < cfg.outputs().size(); ++i)
            own.outputs.emplace_back(cfg.outputs()[i].name(), cfg.outputs()[i].dtypes());
        return *this;
    }
    OpAICoreDef& LaunchWithZeroEleOutputTensors(bool) { return *this; }
    const std::vector<std::string>& socs() const { return socs_; }
    const std::map<std::string, SocParams>& configs() const { return configs_; }

private:
    OpDef* owner_;
    std::vector<std::string> socs_;
    std::map<std::string, SocParams> configs_;
};

class OpMC2Def {
public:
    OpMC2Def& HcclGroup(const char*) { return *this; }
    OpMC2Def& HcclGroup(std::vector<const char*>) { return *this; }
};

class OpDef {
public:
    explicit OpDef(const char* type) : type_(type ? type : ""), aicore_(this) {}
    virtual ~OpDef();
    OpDef(const OpDef&) = delete;
    OpDef& operator=(const OpDef&) = delete;

    OpParamDef& Input(const char* name) { return inputs_.get(name); }
    OpParamDef& Output(const char* name) { return outputs_.get(name); }
    OpAttrDef& Attr(const char* name) {
        for (auto& a : attrs_)
            if (a->name() == name) return *a;
        attrs_.push_back(std::make_unique<OpAttrDef>(name));
        return *attrs_.back();
    }
    OpDef& SetInferShape(gert::OpImplRegisterV2::InferShapeKernelFunc f) {
        cbhost::op_impls()[type_].infer_shape = f;
        return *this;
    }
    OpDef& SetInferShapeRange(gert::OpImplRegisterV2::InferShapeRangeKernelFunc f) {
        cbhost::op_impls()[type_].infer_shape_range = f;
        return *this;
    }
    OpDef& SetInferDataType(gert::OpImplRegisterV2::InferDataTypeKernelFunc f) {
        cbhost::op_impls()[type_].infer_dtype = f;
        return *this;
    }
    OpAICoreDef& AICore() { return aicore_; }
    OpMC2Def& MC2() { return mc2_; }
    OpDef& Comment(CommentSection, const char*) { return *this; }
    OpDef& EnableFallBack() { return *this; }
    OpDef& FormatMatchMode(FormatCheckOption) { return *this; }
    OpDef& SetOpType(const char* type) {
        type_ = type;
        return *this;
    }

    const std::string& type() const { return type_; }
    const OpParamList& inputs() const { return inputs_; }
    const OpParamList& outputs() const { return outputs_; }
    size_t attr_count() const { return attrs_.size(); }
    const OpAttrDef& attr(size_t i) const { return *attrs_[i]; }

private:
    std::string type_;
    OpParamList inputs_, outputs_;
    std::vector<std::unique_ptr<OpAttrDef>> attrs_;
    OpAICoreDef aicore_;
    OpMC2Def mc2_;
};

inline OpAICoreDef& OpAICoreDef::SetTiling(gert::OpImplRegisterV2::TilingKernelFunc f) {
    cbhost::op_impls()[owner_->type()].tiling = f;
    return *this;
}
inline OpAICoreDef& OpAICoreDef::SetTilingParse(gert::OpImplRegisterV2::TilingParseFunc f) {
    cbhost::op_impls()[owner_->type()].tiling_parse = f;
    return *this;
}

}  // namespace ops

namespace cbhost {

// The OpDefs OP_ADD registered, built on first use (an OpDef constructor may read other static data).
struct OpDefEntry {
    std::function<std::unique_ptr<ops::OpDef>()> make;
    std::unique_ptr<ops::OpDef> def;
};
inline std::map<std::string, OpDefEntry>& op_defs() {
    static std::map<std::string, OpDefEntry> m;
    return m;
}
CBEMU_HOST_RT ops::OpDef* op_def(const std::string& type);
inline bool& op_defs_built() {
    static bool done = false;
    return done;
}
// Every OpDef is built once before the first tiling: constructing it is what registers its tiling function.
CBEMU_HOST_RT void build_all_op_defs();

struct OpDefRegistrar {
    OpDefRegistrar(const char* type, std::function<std::unique_ptr<ops::OpDef>()> make);
};

}  // namespace cbhost

// OP_ADD(Type[, ...]): registers the class ops::Type (an OpDef built with the op type's name).
#define OP_ADD(opType, ...)                                                                              \
    static ::cbhost::OpDefRegistrar CBHOST_CAT(cotbuilder_op_def_, __COUNTER__)(                         \
        #opType, [] { return std::unique_ptr<::ops::OpDef>(new opType(#opType)); })

#if CBEMU_HOST_RT_BODY
namespace ops {

CBEMU_HOST_RT gert::AttrValue OpAttrDef::default_value() const {
    switch (kind_) {
        case BOOL: return gert::AttrValue::of_bool(def_bool_);
        case INT: return gert::AttrValue::of_int(def_int_);
        case FLOAT: return gert::AttrValue::of_float(def_float_);
        case STRING: return gert::AttrValue::of_str(def_str_);
        case LIST_BOOL: return gert::AttrValue::of_list_bool(def_list_bool_);
        case LIST_INT: return gert::AttrValue::of_list<int64_t>(gert::AttrValue::kListInt, def_list_int_);
        case LIST_FLOAT: return gert::AttrValue::of_list<float>(gert::AttrValue::kListFloat, def_list_float_);
        case LIST_LIST_INT: return gert::AttrValue::of_list_list_int(def_list_list_int_);
        default: return gert::AttrValue();
    }
}

CBEMU_HOST_RT OpDef::~OpDef() = default;

}  // namespace ops

namespace cbhost {

CBEMU_HOST_RT ops::OpDef* op_def(const std::string& type) {
    auto it = op_defs().find(type);
    if (it == op_defs().end()) return nullptr;
    if (!it->second.def) it->second.def = it->second.make();
    return it->second.def.get();
}

CBEMU_HOST_RT void build_all_op_defs() {
    if (op_defs_built()) return;
    op_defs_built() = true;
    for (auto& kv : op_defs()) op_def(kv.first);
}

CBEMU_HOST_RT OpDefRegistrar::OpDefRegistrar(const char* type, std::function<std::unique_ptr<ops::OpDef>()> make) {
    op_defs()[type].make = std::move(make);
}

}  // namespace cbhost
#endif  // CBEMU_HOST_RT_BODY
