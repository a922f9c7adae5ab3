#include "usercode/check/check_record.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

// " (0..n-1)", the valid indices, when there are any.
std::string valid_range(std::int64_t count) {
  return count > 0 ? fmt::format(" (0..{})", count - 1) : std::string();
}

// Why an at() or set() failed, in the order the prelude checks: channel, column, row, then the element.
std::string image_reason(const CheckRecord& r, const char* image, bool check_position) {
  if (r.c < 0 || r.c >= r.channels)
    return fmt::format("channel {} is outside {}'s {} channels{}", r.c, image, r.channels, valid_range(r.channels));
  if (check_position && (r.x < 0 || r.x >= r.width))
    return fmt::format("x = {} is outside {}'s {} columns{}", r.x, image, r.width, valid_range(r.width));
  if (check_position && (r.y < 0 || r.y >= r.height))
    return fmt::format("y = {} is outside {}'s {} rows{}", r.y, image, r.height, valid_range(r.height));
  return fmt::format("element {} is outside {}'s {} elements", r.index, image, r.size);
}

const std::string* name_of_buffer(std::uint64_t address, std::span<const NamedBuffer> buffers) {
  for (const NamedBuffer& b : buffers)
    if (b.address == address && !b.name.empty()) return &b.name;
  return nullptr;
}

}  // namespace

std::string describe_violation(const CheckRecord& r, std::span<const NamedBuffer> buffers) {
  if (!has_violation(r)) return "no access went out of bounds";
  const std::string who = fmt::format("thread ({}, {}, {}) of block ({}, {}, {})", r.thread[0], r.thread[1],
                                      r.thread[2], r.block[0], r.block[1], r.block[2]);
  const std::string* name = name_of_buffer(r.base, buffers);
  switch (static_cast<CheckedAccessor>(r.accessor)) {
    case CheckedAccessor::InAt:
      // at() applies the border, so only the channel, or an image whose pitch is too small, can take it outside.
      return fmt::format("{} read {}.at({}, {}, {}): {}", who, name ? *name : "in", r.x, r.y, r.c,
                         image_reason(r, "the input", false));
    case CheckedAccessor::OutSet:
      return fmt::format("{} wrote {}.set({}, {}, {}, ...): {}", who, name ? *name : "out", r.x, r.y, r.c,
                         image_reason(r, "the output", true));
    case CheckedAccessor::CheckedPointer:
      return fmt::format("{} accessed {}[{}]: index {} is outside the {} elements given to ks::checked{}", who,
                         name ? *name : "ks::checked(...)", r.index, r.index, r.size, valid_range(r.size));
  }
  throw Error(ErrorKind::Internal,
              fmt::format("checked mode's record names accessor {}, which the prelude does not have", r.accessor),
              "the app and its device prelude disagree: rebuild kernelscope");
}

}  // namespace ks::usercode
