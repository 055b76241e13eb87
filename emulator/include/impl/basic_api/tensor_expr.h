// The whole-tensor operator forms of the vector APIs (Add.md / Sub.md / Mul.md / Div.md / And.md / Or.md:
// `dst = src0 + src1`; Compare.md: `dst = src0 < src1` ... `dst = src0 != src1`). `src0 op src1` builds an
// expression; assigning it to a LocalTensor runs the count form of the API over src0's whole size (GetSize()),
// so every check of that form (sizes, alignment, dtype legality, the pipe-hazard model) applies unchanged.
#pragma once
#include <type_traits>

#include "vec_cmp_reduce.h"

namespace cbemu {

enum class ExprOp { Add, Sub, Mul, Div, And, Or, LT, GT, LE, GE, EQ, NE };

// The right operand is taken through a converting constructor: its default argument is evaluated where the
// expression is written, so diagnostics name the kernel's line (an operator function cannot have default arguments).
template <typename T>
struct ExprOperand {
    AscendC::LocalTensor<T> t;
    SrcLoc loc;
    ExprOperand(const AscendC::LocalTensor<T>& x, SrcLoc l = SrcLoc(SrcLoc::Here())) : t(x), loc(l) {}
};
template <typename T>
struct ExprIdentity {
    using type = T;
};

template <typename T, ExprOp OP>
struct TensorExpr {
    using cbemu_tensor_expr = void;  // what LocalTensor::operator= looks for
    AscendC::LocalTensor<T> a, b;
    SrcLoc loc;

    static constexpr bool is_compare = OP >= ExprOp::LT;
    static constexpr AscendC::CMPMODE mode() {
        return OP == ExprOp::LT   ? AscendC::CMPMODE::LT
               : OP == ExprOp::GT ? AscendC::CMPMODE::GT
               : OP == ExprOp::LE ? AscendC::CMPMODE::LE
               : OP == ExprOp::GE ? AscendC::CMPMODE::GE
               : OP == ExprOp::EQ ? AscendC::CMPMODE::EQ
                                  : AscendC::CMPMODE::NE;
    }
    template <typename D>
    void assign_to(const AscendC::LocalTensor<D>& dst) const {
        uint32_t n = a.GetSize();
        if constexpr (is_compare) {
            AscendC::Compare(dst, a, b, mode(), n, loc);
        } else {
            static_assert(std::is_same<D, T>::value,
                          "`dst = src0 op src1`: dst must have the operands' element type (Add.md: one T)");
            if constexpr (OP == ExprOp::Add) AscendC::Add(dst, a, b, (int32_t)n, loc);
            else if constexpr (OP == ExprOp::Sub) AscendC::Sub(dst, a, b, (int32_t)n, loc);
            else if constexpr (OP == ExprOp::Mul) AscendC::Mul(dst, a, b, (int32_t)n, loc);
            else if constexpr (OP == ExprOp::Div) AscendC::Div(dst, a, b, (int32_t)n, loc);
            else if constexpr (OP == ExprOp::And) AscendC::And(dst, a, b, (int32_t)n, loc);
            else AscendC::Or(dst, a, b, (int32_t)n, loc);
        }
    }
};

}  // namespace cbemu

namespace AscendC {

#define CBEMU_TENSOR_OP(SYM, OP)                                                                       \
    template <typename T>                                                                              \
    cbemu::TensorExpr<T, cbemu::ExprOp::OP> operator SYM(                                              \
        const LocalTensor<T>& src0, const typename cbemu::ExprIdentity<cbemu::ExprOperand<T>>::type& src1) { \
        return cbemu::TensorExpr<T, cbemu::ExprOp::OP>{src0, src1.t, src1.loc};                        \
    }
CBEMU_TENSOR_OP(+, Add)
CBEMU_TENSOR_OP(-, Sub)
CBEMU_TENSOR_OP(*, Mul)
CBEMU_TENSOR_OP(/, Div)
CBEMU_TENSOR_OP(&, And)
CBEMU_TENSOR_OP(|, Or)
CBEMU_TENSOR_OP(<, LT)
CBEMU_TENSOR_OP(>, GT)
CBEMU_TENSOR_OP(<=, LE)
CBEMU_TENSOR_OP(>=, GE)
CBEMU_TENSOR_OP(==, EQ)
CBEMU_TENSOR_OP(!=, NE)
#undef CBEMU_TENSOR_OP

}  // namespace AscendC
