#pragma once
// Element types of plain numeric arrays (the lab's host arrays and .npy files). Images keep their own ElemType
// (u8/u16/f32 pixels); these are the types of vectors, matrices and keys.
#include <cstddef>
#include <cstdint>
#include <string>

namespace ks {

enum class DType { F32, F64, U32, I32, U64 };

std::size_t dtype_size(DType t) noexcept;
const char* to_string(DType t) noexcept;  // "f32", "f64", "u32", "i32", "u64"
DType dtype_from_string(const std::string& s);  // the names above; usage Error otherwise

// The C++ type of each DType, for typed views (ArrayView::as<float>() checks against dtype_of<float>).
template <class T>
constexpr DType dtype_of();
template <>
constexpr DType dtype_of<float>() { return DType::F32; }
template <>
constexpr DType dtype_of<double>() { return DType::F64; }
template <>
constexpr DType dtype_of<std::uint32_t>() { return DType::U32; }
template <>
constexpr DType dtype_of<std::int32_t>() { return DType::I32; }
template <>
constexpr DType dtype_of<std::uint64_t>() { return DType::U64; }

}  // namespace ks
