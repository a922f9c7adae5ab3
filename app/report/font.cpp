#include "report/font.hpp"

#define STB_TRUETYPE_IMPLEMENTATION
#define STBTT_STATIC
#include <stb_truetype.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <vector>

#include "core/error.hpp"

namespace ks::report {

struct Font::Data {
  std::vector<unsigned char> bytes;
  stbtt_fontinfo info{};
};

namespace {

// UTF-8 to code points; a malformed byte stands for itself (Latin-1), never an error in a label.
std::vector<int> code_points(const std::string& text) {
  std::vector<int> out;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
    if (extra == 0 || i + std::size_t(extra) >= text.size()) {
      out.push_back(c);
      ++i;
      continue;
    }
    int cp = c & (0x3F >> extra);
    bool ok = true;
    for (int k = 1; k <= extra; ++k) {
      const auto d = static_cast<unsigned char>(text[i + std::size_t(k)]);
      if ((d & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (d & 0x3F);
    }
    out.push_back(ok ? cp : c);
    i += ok ? std::size_t(extra) + 1 : 1;
  }
  return out;
}

}  // namespace

Font::Font(const std::filesystem::path& path) : data_(std::make_unique<Data>()) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorKind::Io, "the font " + path.string() + " for the chart's text is missing",
                std::string("install Debian's ") + kDefaultFontPackage + " (sudo apt-get install " +
                    kDefaultFontPackage + ")");
  data_->bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (data_->bytes.empty() ||
      !stbtt_InitFont(&data_->info, data_->bytes.data(), stbtt_GetFontOffsetForIndex(data_->bytes.data(), 0)))
    throw Error(ErrorKind::Io, "the font " + path.string() + " is not a TrueType font stb_truetype can read",
                std::string("reinstall Debian's ") + kDefaultFontPackage);
}

Font::~Font() = default;

double Font::text_width(const std::string& text, double size) const {
  const float scale = stbtt_ScaleForPixelHeight(&data_->info, float(size));
  const std::vector<int> cps = code_points(text);
  double w = 0;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    int advance = 0, bearing = 0;
    stbtt_GetCodepointHMetrics(&data_->info, cps[i], &advance, &bearing);
    w += advance * scale;
    if (i + 1 < cps.size()) w += stbtt_GetCodepointKernAdvance(&data_->info, cps[i], cps[i + 1]) * scale;
  }
  return w;
}

double Font::ascent(double size) const {
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(&data_->info, &ascent, &descent, &gap);
  return ascent * stbtt_ScaleForPixelHeight(&data_->info, float(size));
}

double Font::descent(double size) const {
  int ascent = 0, descent = 0, gap = 0;
  stbtt_GetFontVMetrics(&data_->info, &ascent, &descent, &gap);
  return -descent * stbtt_ScaleForPixelHeight(&data_->info, float(size));
}

void Font::draw(Canvas& canvas, double x, double y, const std::string& text, double size, Rgb color,
                bool vertical) const {
  const float scale = stbtt_ScaleForPixelHeight(&data_->info, float(size));
  const std::vector<int> cps = code_points(text);
  double pen = 0;  // along the baseline, from (x, y)
  std::vector<unsigned char> glyph;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const double shift = pen - std::floor(pen);
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    stbtt_GetCodepointBitmapBoxSubpixel(&data_->info, cps[i], scale, scale, float(shift), 0, &x0, &y0, &x1,
                                        &y1);
    const int w = x1 - x0, h = y1 - y0;
    if (w > 0 && h > 0) {
      glyph.assign(std::size_t(w) * std::size_t(h), 0);
      stbtt_MakeCodepointBitmapSubpixel(&data_->info, glyph.data(), w, h, w, scale, scale, float(shift), 0,
                                        cps[i]);
      const int base_u = int(std::floor(pen)) + x0;  // glyph column 0, along the baseline
      for (int gy = 0; gy < h; ++gy) {
        for (int gx = 0; gx < w; ++gx) {
          const double a = glyph[std::size_t(gy) * std::size_t(w) + std::size_t(gx)] / 255.0;
          if (a <= 0) continue;
          const int u = base_u + gx, v = y0 + gy;  // along the baseline, and below it
          if (vertical)
            canvas.blend(int(std::lround(x)) + v, int(std::lround(y)) - u - 1, color, a);
          else
            canvas.blend(int(std::lround(x)) + u, int(std::lround(y)) + v, color, a);
        }
      }
    }
    int advance = 0, bearing = 0;
    stbtt_GetCodepointHMetrics(&data_->info, cps[i], &advance, &bearing);
    pen += advance * scale;
    if (i + 1 < cps.size()) pen += stbtt_GetCodepointKernAdvance(&data_->info, cps[i], cps[i + 1]) * scale;
  }
}

}  // namespace ks::report
