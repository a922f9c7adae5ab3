#pragma once
// Text for the charts: a TrueType font read from a file and rasterised by stb_truetype (Debian's libstb-dev),
// drawn anti-aliased onto a Canvas. The default is DejaVu Sans from Debian's fonts-dejavu-core; a missing
// font is an Io error that names the package, thrown by the constructor, so a command can check before it
// writes.
#include <filesystem>
#include <memory>
#include <string>

#include "report/canvas.hpp"

namespace ks::report {

inline constexpr const char* kDefaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";
inline constexpr const char* kDefaultFontPackage = "fonts-dejavu-core";

class Font {
 public:
  explicit Font(const std::filesystem::path& path = kDefaultFontPath);
  ~Font();
  Font(const Font&) = delete;
  Font& operator=(const Font&) = delete;

  // Advance width of `text` (UTF-8; ASCII and Latin-1 are what the charts use) at `size` pixels (em height).
  double text_width(const std::string& text, double size) const;
  // Distance from the baseline to the top of capitals and to the bottom of descenders, at `size`.
  double ascent(double size) const;
  double descent(double size) const;
  // Draws `text` with its baseline starting at (x, y). `vertical`: rotated a quarter turn counter-clockwise,
  // reading upwards from (x, y) (axis titles).
  void draw(Canvas& canvas, double x, double y, const std::string& text, double size, Rgb color,
            bool vertical = false) const;

 private:
  struct Data;
  std::unique_ptr<Data> data_;
};

}  // namespace ks::report
