#pragma once
// Files embedded in the executables (see assets/README.md for where each comes from).
#include <span>

namespace ks::embedded {
std::span<const unsigned char> sample_png();  // the sample image: 1024x768 RGB, made by tools/make_sample
}
