#pragma once
// A host image: interleaved channels, rows packed without padding (row r starts at r * row_bytes()).
// Kernels take U8 and F32; U16 exists so that 16-bit files load and save without loss.
// An image owns its bytes, or borrows someone else's (Image::borrow: a numpy array handed to the Python module is
// read in place, not copied).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ks {

enum class ElemType { U8, U16, F32 };

std::size_t elem_size(ElemType t) noexcept;
const char* to_string(ElemType t) noexcept;
ElemType elem_type_from_string(const std::string& s);  // "u8", "u16", "f32"; throws a usage Error otherwise

struct ImageShape {
  int width = 0;
  int height = 0;
  int channels = 0;
  ElemType type = ElemType::U8;

  std::size_t pixel_count() const noexcept { return std::size_t(width) * std::size_t(height); }
  std::size_t row_bytes() const noexcept { return std::size_t(width) * channels * elem_size(type); }
  std::size_t byte_size() const noexcept { return row_bytes() * std::size_t(height); }
  bool operator==(const ImageShape&) const = default;
};

class Image {
 public:
  Image() = default;
  // Allocates width*height*channels elements, zero-filled. Throws OutOfMemory with the size asked for.
  explicit Image(ImageShape shape);
  Image(int width, int height, int channels, ElemType type) : Image(ImageShape{width, height, channels, type}) {}
  // A copy of `bytes` (exactly the shape's byte size, else an Internal Error), without zero-filling first: for
  // results that arrive in memory the image does not own (a worker's shared memory).
  Image(ImageShape shape, std::span<const std::byte> bytes);
  // An image over `data` (exactly the shape's byte size, packed as above), which it does not own or copy: the
  // caller keeps that memory alive, and unchanged while anything reads the image. Copying a borrowed image makes
  // an image that owns a copy; moving one moves the borrow. The shape is checked as for any image.
  static Image borrow(ImageShape shape, std::byte* data);
  // The same, with `keeper` owning that memory: the image (and whatever it is moved into) holds it alive, so a
  // result can read a worker's shared memory in place and the block outlives the client that made it. The
  // keeper's use count tells its owner whether any image still reads the memory.
  static Image borrow(ImageShape shape, std::byte* data, std::shared_ptr<const void> keeper);

  Image(const Image& other);
  Image& operator=(const Image& other);
  Image(Image&& other) noexcept;
  Image& operator=(Image&& other) noexcept;
  ~Image() = default;

  const ImageShape& shape() const noexcept { return shape_; }
  int width() const noexcept { return shape_.width; }
  int height() const noexcept { return shape_.height; }
  int channels() const noexcept { return shape_.channels; }
  ElemType type() const noexcept { return shape_.type; }
  bool empty() const noexcept { return shape_.pixel_count() == 0; }
  bool borrowed() const noexcept { return borrowed_ != nullptr; }

  std::byte* data() noexcept { return borrowed_ ? borrowed_ : bytes_.data(); }
  const std::byte* data() const noexcept { return borrowed_ ? borrowed_ : bytes_.data(); }
  std::size_t byte_size() const noexcept { return borrowed_ ? shape_.byte_size() : bytes_.size(); }

  template <class T>
  T* row(int y) noexcept {
    return reinterpret_cast<T*>(data() + std::size_t(y) * shape_.row_bytes());
  }
  template <class T>
  const T* row(int y) const noexcept {
    return reinterpret_cast<const T*>(data() + std::size_t(y) * shape_.row_bytes());
  }
  template <class T>
  std::span<T> elements() noexcept {
    return {reinterpret_cast<T*>(data()), byte_size() / sizeof(T)};
  }
  template <class T>
  std::span<const T> elements() const noexcept {
    return {reinterpret_cast<const T*>(data()), byte_size() / sizeof(T)};
  }

 private:
  void allocate(ImageShape shape, const std::span<const std::byte>* copy, bool allocate_bytes = true);

  ImageShape shape_{};
  std::vector<std::byte> bytes_;   // what an owning image holds; empty while borrowing
  std::byte* borrowed_ = nullptr;  // the memory a borrowing image reads (Image::borrow)
  std::shared_ptr<const void> keeper_;  // what keeps that memory alive, when the borrow was given one
};

// Element type conversion. U8 <-> F32 maps 0..255 to 0..1; U16 <-> F32 maps 0..65535 to 0..1;
// towards integers values are rounded to nearest and saturated.
Image convert_type(const Image& src, ElemType to);
// Channel conversion used around kernels that take 1 or 4 channels: 1->3, 1->4 (gray to RGB/RGBA, alpha opaque),
// 2->4 (gray+alpha), 3->4 (alpha opaque), 4->3 (alpha dropped), 3->1 and 4->1 (Rec. 601 luma), n->n copies.
Image convert_channels(const Image& src, int to_channels);

}  // namespace ks
