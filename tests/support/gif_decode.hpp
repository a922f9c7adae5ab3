#pragma once
// Reading a GIF back for the tests, through giflib's decoder (DGif*: its own code, apart from the encoder the app
// uses): every frame's indices, the global palette, each frame's delay and whether the file asks to loop.
// Only in builds with giflib (KS_HAVE_GIF).
#include <gif_lib.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace ks::test {

struct DecodedGif {
  int width = 0, height = 0;
  std::vector<std::array<std::uint8_t, 3>> palette;  // the global colour table
  std::vector<std::vector<std::uint8_t>> frames;     // width * height indices each, row by row
  std::vector<int> delays_cs;                        // per frame, from its graphics control block (-1: none)
  bool loops = false;                                // a NETSCAPE2.0 extension with loop count 0
};

inline DecodedGif decode_gif(const std::filesystem::path& path) {
  int error = 0;
  GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
  if (!gif) throw std::runtime_error("cannot open " + path.string() + ": " + GifErrorString(error));
  DecodedGif d;
  const int slurped = DGifSlurp(gif);
  if (slurped != GIF_OK) {
    const std::string why = GifErrorString(gif->Error);
    DGifCloseFile(gif, nullptr);
    throw std::runtime_error("cannot decode " + path.string() + ": " + why);
  }
  d.width = gif->SWidth, d.height = gif->SHeight;
  if (gif->SColorMap)
    for (int i = 0; i < gif->SColorMap->ColorCount; ++i) {
      const GifColorType& c = gif->SColorMap->Colors[i];
      d.palette.push_back({c.Red, c.Green, c.Blue});
    }
  for (int i = 0; i < gif->ImageCount; ++i) {
    const SavedImage& image = gif->SavedImages[i];
    const GifImageDesc& desc = image.ImageDesc;
    // The writer puts whole frames at the origin; anything else is a failure the test should see.
    if (desc.Left != 0 || desc.Top != 0 || desc.Width != d.width || desc.Height != d.height)
      throw std::runtime_error("frame " + std::to_string(i) + " does not cover the screen");
    d.frames.emplace_back(image.RasterBits, image.RasterBits + std::size_t(d.width) * std::size_t(d.height));
    GraphicsControlBlock gcb{};
    d.delays_cs.push_back(DGifSavedExtensionToGCB(gif, i, &gcb) == GIF_OK ? gcb.DelayTime : -1);
    for (int e = 0; e + 1 < image.ExtensionBlockCount; ++e) {
      const ExtensionBlock& app = image.ExtensionBlocks[e];
      const ExtensionBlock& sub = image.ExtensionBlocks[e + 1];
      if (app.Function == APPLICATION_EXT_FUNC_CODE && app.ByteCount == 11 &&
          std::memcmp(app.Bytes, "NETSCAPE2.0", 11) == 0 && sub.ByteCount == 3 && sub.Bytes[0] == 1)
        d.loops = d.loops || (sub.Bytes[1] == 0 && sub.Bytes[2] == 0);
    }
  }
  DGifCloseFile(gif, nullptr);
  return d;
}

}  // namespace ks::test
