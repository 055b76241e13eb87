// AscendC::Std: the standard-library subset kernels may use on the device (type traits, integer sequences,
// min/max). On the CPU the C++17 standard library provides the same semantics, so the names are aliases.
#pragma once
#include <algorithm>
#include <tuple>
#include <type_traits>
#include <utility>

namespace AscendC {
namespace Std {
using std::add_const; using std::add_const_t; using std::add_cv; using std::add_cv_t;
using std::add_lvalue_reference; using std::add_lvalue_reference_t; using std::add_pointer; using std::add_pointer_t;
using std::add_rvalue_reference; using std::add_rvalue_reference_t; using std::add_volatile; using std::add_volatile_t;
using std::conditional; using std::conditional_t; using std::decay; using std::decay_t; using std::enable_if;
using std::enable_if_t; using std::false_type; using std::integral_constant; using std::is_arithmetic;
using std::is_array; using std::is_base_of; using std::is_class; using std::is_const; using std::is_convertible;
using std::is_floating_point; using std::is_function; using std::is_integral; using std::is_pointer;
using std::is_reference; using std::is_same; using std::is_same_v; using std::is_signed; using std::is_unsigned;
using std::is_void; using std::is_volatile; using std::remove_const; using std::remove_const_t; using std::remove_cv;
using std::remove_cv_t; using std::remove_pointer; using std::remove_pointer_t; using std::remove_reference;
using std::remove_reference_t; using std::remove_volatile; using std::remove_volatile_t; using std::true_type;
using std::bool_constant; using std::integer_sequence; using std::index_sequence; using std::make_index_sequence;
using std::make_integer_sequence; using std::tuple; using std::make_tuple; using std::get; using std::tuple_size;
using std::tuple_element; using std::forward; using std::move; using std::min; using std::max;
template <typename T> inline constexpr bool is_integral_v = std::is_integral<T>::value;
template <typename T> inline constexpr bool is_floating_point_v = std::is_floating_point<T>::value;
template <typename T> inline constexpr bool is_pointer_v = std::is_pointer<T>::value;
template <typename T> inline constexpr bool is_void_v = std::is_void<T>::value;
template <typename T> inline constexpr bool is_const_v = std::is_const<T>::value;
template <typename T> inline constexpr bool is_reference_v = std::is_reference<T>::value;
template <typename T> inline constexpr bool is_array_v = std::is_array<T>::value;
}  // namespace Std
}  // namespace AscendC
