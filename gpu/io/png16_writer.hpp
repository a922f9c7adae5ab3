#pragma once
// 16-bit PNG encoding, private to gpu/io: stb_image_write only writes 8-bit PNG.
#include <vector>

#include "core/image.hpp"

namespace ks {

// The complete PNG file of a U16 image with 1-4 channels, at bit depth 16. The caller (save_image) converts to U16
// and checks the size first: the filtered rows go through one int-sized buffer. Throws an OutOfMemory Error when
// compression fails.
std::vector<unsigned char> encode_png16(const Image& img);

}  // namespace ks
