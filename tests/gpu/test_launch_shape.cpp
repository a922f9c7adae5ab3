// Block shapes as the user types them: syntax only (the device limits are the launch validator's business), so
// these need no GPU.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "core/launch_shape.hpp"

namespace ks {
namespace {

TEST(BlockShapeText, ParsesAndPrints) {
  EXPECT_EQ(parse_block_shape("32x8"), (BlockShape{32, 8}));
  EXPECT_EQ(parse_block_shape("1X64"), (BlockShape{1, 64}));
  EXPECT_EQ(parse_block_shape("2048x1"), (BlockShape{2048, 1})) << "too many threads is the validator's call";
  EXPECT_EQ(to_string(BlockShape{16, 16}), "16x16");
  EXPECT_EQ(parse_block_shape(to_string(BlockShape{128, 1})), (BlockShape{128, 1}));
}

TEST(BlockShapeText, RejectsNonsenseAsUsageErrors) {
  for (const char* bad : {"", "32", "x8", "32x", "0x8", "8x0", "-1x8", "8x-1", "32x8x2", "a x b", " 32x8", "32x8 ",
                          "3.5x2", "99999999999x1", "100000x100000", "+4x4"}) {
    try {
      parse_block_shape(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Usage) << bad;
      EXPECT_FALSE(e.hint().empty()) << bad;
    }
  }
}

}  // namespace
}  // namespace ks
