#pragma once
// A plain numeric array on the host, 1-D or 2-D, C order: what .npy files hold (gpu/io/npy.hpp) and what the
// lab hands in and out by name.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/dtype.hpp"

namespace ks {

struct NdArray {
  std::string name;                 // the lab's array name ("keys", "A"); empty for a bare .npy
  DType type = DType::F32;
  std::vector<std::int64_t> shape;  // {n} or {rows, cols}
  std::vector<std::byte> data;      // count() * dtype_size(type) bytes, little-endian

  std::int64_t count() const noexcept {
    std::int64_t c = 1;
    for (auto d : shape) c *= d;
    return c;
  }
  template <class T>
  std::span<T> as() {
    return {reinterpret_cast<T*>(data.data()), data.size() / sizeof(T)};
  }
  template <class T>
  std::span<const T> as() const {
    return {reinterpret_cast<const T*>(data.data()), data.size() / sizeof(T)};
  }
};

}  // namespace ks
