#include "usercode/source_text.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>
#include <system_error>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

// The offset of the first byte that breaks UTF-8, or npos when the text is valid UTF-8.
std::size_t first_invalid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    const int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0 || i + extra >= s.size() + (extra == 0)) return i;  // a sequence cut short by the end
    for (int k = 1; k <= extra; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return i;
    i += extra + 1;
  }
  return std::string_view::npos;
}

std::string too_large(std::size_t bytes, const std::string& name) {
  return fmt::format("{} has {} bytes; kernel sources of more than {} bytes (1 MiB) are refused", name, bytes,
                     kMaxSourceBytes);
}

}  // namespace

void check_source_text(std::string_view text, const std::string& name) {
  if (text.size() > kMaxSourceBytes) throw_usage(too_large(text.size(), name), "is this the kernel's .cu file?");
  if (text.find_first_not_of(" \t\r\n\f\v") == std::string_view::npos)
    throw_usage(fmt::format("{} is empty", name),
                "write a __global__ function in it, or start from a template in assets/kernels/");
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos)
    throw_usage(fmt::format("{} is not text: byte {} is NUL (a binary file?)", name, nul),
                "give the kernel's CUDA source (.cu)");
  if (const std::size_t bad = first_invalid_utf8(text); bad != std::string_view::npos)
    throw_usage(fmt::format("{} is not text: byte {} (0x{:02x}) is not UTF-8 (a binary file?)", name, bad,
                            static_cast<unsigned char>(text[bad])),
                "give the kernel's CUDA source (.cu), saved as UTF-8");
}

std::string read_kernel_source(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw_usage(fmt::format("{} is a folder", name), "give a .cu file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw_io(fmt::format("cannot read {}: {}", name, ec.message()), "check the path");
  if (size > kMaxSourceBytes) throw_usage(too_large(size, name), "is this the kernel's .cu file?");
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) throw_io(fmt::format("cannot read {}", name), "check the file's permissions");
  std::string s = std::move(text).str();
  check_source_text(s, name);
  return s;
}

int count_lines(std::string_view text) {
  int lines = 1;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n' && i + 1 < text.size()) ++lines;
  return lines;
}

}  // namespace ks::usercode
