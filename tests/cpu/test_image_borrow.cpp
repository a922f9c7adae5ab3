// Image::borrow: an image over memory it does not own (how the Python module reads a numpy array in place).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "engine/engine.hpp"
#include "registry/registry.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

TEST(ImageBorrow, ReadsTheGivenMemoryWithoutCopying) {
  std::vector<std::uint8_t> pixels(7 * 5 * 3);
  for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = std::uint8_t(i * 7 + 1);
  const Image img = Image::borrow({7, 5, 3, ElemType::U8}, reinterpret_cast<std::byte*>(pixels.data()));
  EXPECT_TRUE(img.borrowed());
  EXPECT_EQ(static_cast<const void*>(img.data()), static_cast<const void*>(pixels.data()));
  EXPECT_EQ(img.byte_size(), pixels.size());
  EXPECT_EQ(img.row<std::uint8_t>(2), pixels.data() + 2 * 7 * 3);
  EXPECT_EQ(img.elements<std::uint8_t>().size(), pixels.size());
  pixels[40] = 200;  // the image sees the memory itself
  EXPECT_EQ(img.elements<std::uint8_t>()[40], 200);
}

TEST(ImageBorrow, ACopyOwnsItsBytesAndAMoveKeepsTheBorrow) {
  std::vector<float> pixels(3 * 2, 0.25f);
  Image img = Image::borrow({3, 2, 1, ElemType::F32}, reinterpret_cast<std::byte*>(pixels.data()));
  const Image copy = img;
  EXPECT_FALSE(copy.borrowed());
  EXPECT_NE(static_cast<const void*>(copy.data()), static_cast<const void*>(pixels.data()));
  pixels[0] = 9.0f;
  EXPECT_EQ(copy.elements<float>()[0], 0.25f);
  Image assigned;
  assigned = img;
  EXPECT_FALSE(assigned.borrowed());
  EXPECT_EQ(assigned.elements<float>()[0], 9.0f);

  const Image moved = std::move(img);
  EXPECT_TRUE(moved.borrowed());
  EXPECT_EQ(static_cast<const void*>(moved.data()), static_cast<const void*>(pixels.data()));
  EXPECT_FALSE(
      img.borrowed());  // NOLINT(bugprone-use-after-move): the moved-from image lets go of the memory
}

TEST(ImageBorrow, ChecksTheShapeAsAnyImage) {
  std::vector<std::byte> bytes(16);
  const std::string message = test::usage_error([&] {
    Image::borrow({2, 2, 5, ElemType::U8}, bytes.data());
  });
  EXPECT_NE(message.find("5"), std::string::npos) << message;
}

// A borrow given a keeper holds it as long as the image (or what it is moved into) lives: the memory of a result
// read in place (a worker's shared memory) cannot go while the image reads it; a copy owns its bytes and holds
// nothing.
TEST(ImageBorrow, AKeeperLivesAsLongAsTheBorrowingImage) {
  auto memory = std::make_shared<std::vector<float>>(5 * 3 * 4, 0.5f);
  (*memory)[7] = 2.f;
  std::optional<Image> moved;
  {
    Image img = Image::borrow({5, 3, 4, ElemType::F32}, reinterpret_cast<std::byte*>(memory->data()), memory);
    EXPECT_EQ(memory.use_count(), 2);
    const Image copy = img;
    EXPECT_FALSE(copy.borrowed());
    EXPECT_EQ(memory.use_count(), 2);  // the copy holds its own bytes, not the memory
    moved = std::move(img);
  }
  EXPECT_EQ(memory.use_count(), 2);  // the move took the keeper along
  const std::weak_ptr<std::vector<float>> watch = memory;
  memory.reset();
  ASSERT_FALSE(watch.expired());  // the image keeps it
  EXPECT_EQ(moved->elements<float>()[7], 2.f);
  moved.reset();
  EXPECT_TRUE(watch.expired());
}

// The engine reads a borrowed image where it lies: a grey or RGBA image of a kernel's type goes in unchanged,
// and the result is the same as from an owned copy of the same pixels.
TEST(ImageBorrow, TheEngineRunsOnTheBorrowedMemory) {
  Image owned = test::random_image(13, 9, 4, ElemType::U8, 7);
  std::vector<std::byte> memory(owned.byte_size());
  std::memcpy(memory.data(), owned.data(), memory.size());
  const auto borrowed = std::make_shared<const Image>(Image::borrow(owned.shape(), memory.data()));
  const auto prepared = prepare_stencil_input(borrowed, std::nullopt);
  EXPECT_EQ(prepared.get(), borrowed.get());
  EXPECT_EQ(static_cast<const void*>(prepared->data()), static_cast<const void*>(memory.data()));

  Engine engine;
  StencilRequest request;
  request.kernel = "box";
  request.params = KernelRegistry::builtin().get("box").default_params();
  request.repeat = 1;
  request.warmup = 0;
  const StencilResult from_borrowed = engine.run_stencil(*prepared, request);
  const StencilResult from_owned = engine.run_stencil(owned, request);
  EXPECT_TRUE(test::images_match(from_borrowed.output, from_owned.output));
}

}  // namespace
}  // namespace ks
