#pragma once
// The NumPy .npy container (format versions 1.0 and 2.0), whatever array it holds: the magic, the header
// dictionary ({'descr': ..., 'fortran_order': ..., 'shape': (...), }), then the data. The readers built on it
// say which arrays they take: the lab's (npy.hpp: f32, f64, u32, i32, u64; 1-D/2-D) and the images'
// (npy_image.hpp: u8, f32; H x W or H x W x C). Reading is strict: a bad magic, an unknown version, a header
// that does not parse, an array the reader does not take, or data shorter or longer than the shape says are
// Io Errors naming the file, what is wrong and what the reader takes.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace ks {

struct NpyHeader {
  std::string descr;  // as written: '<f4', '|u1', ...
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
  std::size_t data_offset = 0;  // where the data starts in the file
};

// What a reader takes of a header: the size and name of its elements ("f32").
struct NpyElement {
  std::size_t size = 0;
  std::string name;
};
// Returns the element the header's array has, or refuses it (refuse_npy) when the reader does not take it.
// Called before any data is read, so a refused or oversized array costs nothing.
using NpyCheck = std::function<NpyElement(const NpyHeader&)>;

// An Io Error: "`what` is not a .npy file kernelscope can read: `why`", with `allowed` (what to write
// instead) as the hint.
[[noreturn]] void refuse_npy(const std::string& what, const std::string& why, const std::string& allowed);

// Whether `descr` is `little_endian` ('<f4'), or the same in native order ('=f4'; this library runs
// little-endian).
bool npy_descr_is(const std::string& descr, const std::string& little_endian);

struct NpyContent {
  NpyHeader header;
  std::vector<std::byte> data;  // the header's shape of elements, C order unless fortran_order
};

NpyContent read_npy_content(const std::filesystem::path& path, const NpyCheck& check,
                            const std::string& allowed);
// The same from bytes in memory; `what` names them in errors.
NpyContent parse_npy_content(std::span<const std::byte> bytes, const std::string& what, const NpyCheck& check,
                             const std::string& allowed);

// The header (magic, version 1.0, or 2.0 when the dictionary needs more than 65535 bytes, the dictionary with
// fortran_order False, padded so that the data starts at a multiple of 64 bytes).
std::string npy_header_text(const std::string& descr, const std::vector<std::int64_t>& shape);
// Header and data, written atomically (temp file + rename: no partial file, an existing one kept on failure).
void write_npy_content(const std::filesystem::path& path, const std::string& descr,
                       const std::vector<std::int64_t>& shape, std::span<const std::byte> data);

}  // namespace ks
