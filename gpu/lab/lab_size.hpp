#pragma once
// The size of a lab run. Lab kernels are not sized by an image but by an element count (vecadd, reduce, sort),
// an N x M grid (integrate2d), M x N x K (matmul), or the loaded image (kmeans: width x height pixels).
#include <array>
#include <cstdint>
#include <string>

namespace ks::lab {

enum class SizeForm {
  Elements,  // n                 "--size 1048576", "--size 2^20", "--size 1M", "--size 2^20+3"
  Grid,      // N x M             "--size 1024x768"
  Matmul,    // M x N x K         "--size 4096x4096x4096", "--size 7x13x5"
  Image,     // the loaded image  (width x height; no --size)
};
const char* to_string(SizeForm form) noexcept;  // "n", "NxM", "MxNxK", "image"

struct LabSize {
  SizeForm form = SizeForm::Elements;
  std::array<std::int64_t, 3> dims{1, 1, 1};  // n | N, M | M, N, K | width, height

  static LabSize elements(std::int64_t n) { return {SizeForm::Elements, {n, 1, 1}}; }
  static LabSize grid(std::int64_t n, std::int64_t m) { return {SizeForm::Grid, {n, m, 1}}; }
  static LabSize matmul(std::int64_t m, std::int64_t n, std::int64_t k) { return {SizeForm::Matmul, {m, n, k}}; }
  static LabSize image(std::int64_t width, std::int64_t height) { return {SizeForm::Image, {width, height, 1}}; }

  std::int64_t n() const noexcept { return dims[0]; }
  int rank() const noexcept;                // 1, 2, 3, 2
  std::int64_t elements() const noexcept;  // the product of the dimensions
  bool operator==(const LabSize&) const = default;
};

// "1048576", "1024x768", "7x13x5"; the image form prints as its width x height.
std::string to_string(const LabSize& size);
// "2^20" where n is a power of two >= 2^10, else the decimal ("1048579"): what the CLI prints beside sizes.
std::string short_text(std::int64_t n);

// One number of a size: a decimal ("1048576"), a power ("2^20"), a binary suffix ("1K" = 2^10, "1M" = 2^20,
// "1G" = 2^30), each optionally followed by "+D" or "-D" ("2^20+3"). Usage Error naming the text otherwise
// (also for results below 1 or above 2^62).
std::int64_t parse_count(const std::string& text);
// A size of the given form: one number, "NxM" or "MxNxK" of such numbers. Usage Error when the form does not
// match ("--size 1024 for matmul: write MxNxK, e.g. 512x512x512"). SizeForm::Image takes no text (usage Error).
LabSize parse_lab_size(const std::string& text, SizeForm form, const std::string& kernel);

// Inclusive limits per dimension, and on the product (0: none). A kernel's limits; check() names the limit.
struct SizeLimits {
  std::array<std::int64_t, 3> min{1, 1, 1};
  std::array<std::int64_t, 3> max{1, 1, 1};
  std::int64_t max_elements = 0;
};
// Usage Error when `size` is not of `form` or breaks `limits`: what was asked, the allowed range.
void check_size(const LabSize& size, SizeForm form, const SizeLimits& limits, const std::string& kernel);

}  // namespace ks::lab
