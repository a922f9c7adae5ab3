#pragma once
// Users' kernels the tests run in more than one place (CLI, session, runner), as a user would write them.
namespace ks::test {

// The built-in box filter at radius 1 on u8 images, rounded as the built-in rounds, plus a declared `bias` added
// to every value (0 by default: then it equals box radius 1 byte for byte).
inline constexpr char kSmoothU8WithBias[] = R"(// @family stencil
// @param bias int [0, 10] = 0
__global__ void smooth_u8(ks::InImage<unsigned char> in, ks::OutImage<unsigned char> out, int bias) {
  const int x = ks::global_x(), y = ks::global_y();
  if (!out.contains(x, y)) return;
  for (int c = 0; c < in.channels; ++c) {
    int sum = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) sum += in.at(x + dx, y + dy, c);
    out.set(x, y, c, static_cast<unsigned char>(min(255, (sum + 4) / 9 + bias)));
  }
}
)";

}  // namespace ks::test
