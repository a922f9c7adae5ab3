#pragma once
// NumPy .npy files (format versions 1.0 and 2.0), so that lab arrays can be checked from Python:
// little-endian f32, f64, u32, i32 and u64 ('<f4', '<f8', '<u4', '<i4', '<u8'), C order, 1-D or 2-D.
// (Debian has no C++ .npy library — libcnpy is not packaged — and the format is small.)
// Reading is strict: a bad magic, an unknown version, a header that does not parse, a type, order or shape we
// do not take, or data shorter or longer than the shape says are Io Errors naming the file and what is wrong.
// (The container itself: npy_format.hpp; images in .npy files, u8 and 3-D too: npy_image.hpp.)
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/ndarray.hpp"

namespace ks {

NdArray read_npy(const std::filesystem::path& path);
// The same from bytes in memory; `what` names them in errors.
NdArray parse_npy(std::span<const std::byte> bytes, const std::string& what);

// Version 1.0 (2.0 when the header needs more than 65535 bytes), written atomically (temp file + rename).
void write_npy(const std::filesystem::path& path, const NdArray& array);
// The file's header (magic, version, length, dictionary, padding to 64 bytes) for `array`.
std::string npy_header(const NdArray& array);

}  // namespace ks
