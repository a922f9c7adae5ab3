#pragma once
// A kernel source as a user hands it in: read from a file and checked before the compiler sees it, so that an
// empty file, a binary file or a huge one gets a clear error instead of a wall of compiler messages.
#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace ks::usercode {

// Kernel sources larger than this are refused: a kernel is a page or two; a bigger file is the wrong file.
constexpr std::size_t kMaxSourceBytes = 1 << 20;

// Usage Error for empty text (or only whitespace), a NUL byte or bytes that are not UTF-8 (a binary file), or
// more than kMaxSourceBytes; `name` is how the error names the source.
void check_source_text(std::string_view text, const std::string& name);

// The file's text, checked as above (its size before reading it); Io Error when it cannot be read.
std::string read_kernel_source(const std::filesystem::path& path);

// 1 + the number of line breaks, not counting one that ends the text: the line an "at end of source" error is on.
int count_lines(std::string_view text);

}  // namespace ks::usercode
