// GifAnimation in a build without giflib: it says so, and how to get it.
#include "core/error.hpp"
#include "io/gif_writer.hpp"

namespace ks {

void require_gif_support() {
  throw_usage("this build of kernelscope cannot write GIFs (it was built without giflib)",
              "install libgif-dev and rebuild (scripts/setup does both), or write PNG frames (--frames)");
}

struct GifAnimation::Writer {};

GifAnimation::GifAnimation(const std::filesystem::path&, int, int, std::span<const Rgb8, 256>, int) {
  require_gif_support();
}

GifAnimation::~GifAnimation() = default;

void GifAnimation::add_frame(const Image&) { require_gif_support(); }

void GifAnimation::finish() { require_gif_support(); }

}  // namespace ks
