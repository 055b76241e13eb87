// Coordinates and layouts (辅助数据结构/Coordinate, Layout): Coord / Shape / Stride are Std::tuple aliases (MakeCoord.md,
// MakeShape.md, MakeStride.md); a Layout pairs a Shape with a Stride (Layout构造函数.md) and maps a coordinate to an
// element index (运算符重载.md, Crd2Idx.md: sum of coordinate x stride over the dimensions; a nested tuple recurses).
// Also the integer Ceil(a, b) kernels use for tile counts: ceiling division like CeilDivision.md (0 when b is 0);
// this overload is not in the public API docs, the meaning is ours from its name and CeilDivision.
#pragma once
#include <cstdint>
#include <tuple>
#include <type_traits>

#include "std.h"

namespace AscendC {

template <typename... Ts>
using Coord = Std::tuple<Ts...>;
template <typename... Ts>
using Shape = Std::tuple<Ts...>;
template <typename... Ts>
using Stride = Std::tuple<Ts...>;

template <typename... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts&... t) { return Coord<Ts...>(t...); }
template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts&... t) { return Shape<Ts...>(t...); }
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts&... t) { return Stride<Ts...>(t...); }

namespace cbemu_layout {
template <typename T>
struct is_tuple : std::false_type {};
template <typename... Ts>
struct is_tuple<std::tuple<Ts...>> : std::true_type {};

template <typename C, typename S>
constexpr int64_t crd2idx(const C& coord, const S& stride);
template <typename C, typename S, size_t... I>
constexpr int64_t crd2idx_each(const C& coord, const S& stride, std::index_sequence<I...>) {
    return (int64_t{0} + ... + crd2idx(std::get<I>(coord), std::get<I>(stride)));
}
template <typename C, typename S>
constexpr int64_t crd2idx(const C& coord, const S& stride) {
    if constexpr (is_tuple<C>::value) {
        static_assert(std::tuple_size<C>::value == std::tuple_size<S>::value,
                      "Crd2Idx: the coordinate and the stride have different ranks");
        return crd2idx_each(coord, stride, std::make_index_sequence<std::tuple_size<C>::value>{});
    } else {
        return (int64_t)coord * (int64_t)stride;
    }
}
}  // namespace cbemu_layout

template <typename ShapeType, typename StrideType>
struct Layout : Std::tuple<ShapeType, StrideType> {
    constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
        : Std::tuple<ShapeType, StrideType>(shape, stride) {}
    constexpr const ShapeType& GetShape() const { return std::get<0>(*this); }
    constexpr const StrideType& GetStride() const { return std::get<1>(*this); }
    template <typename CoordType>
    constexpr int64_t operator()(const CoordType& coord) const {
        return cbemu_layout::crd2idx(coord, GetStride());
    }
};
template <typename ShapeType, typename StrideType>
constexpr Layout<ShapeType, StrideType> MakeLayout(const ShapeType& shape, const StrideType& stride) {
    return Layout<ShapeType, StrideType>(shape, stride);
}
template <typename CoordType, typename ShapeType, typename StrideType>
constexpr int64_t Crd2Idx(const CoordType& coord, const Layout<ShapeType, StrideType>& layout) {
    return layout(coord);
}

template <typename T, typename U,
          typename std::enable_if<std::is_integral<T>::value && std::is_integral<U>::value, int>::type = 0>
constexpr typename std::common_type<T, U>::type Ceil(T a, U b) {
    using R = typename std::common_type<T, U>::type;
    return b == 0 ? R(0) : R((R(a) + R(b) - 1) / R(b));
}

}  // namespace AscendC
