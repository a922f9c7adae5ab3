// Messages in the window's words (ui/panels/window_words.hpp): the library's command-line flags become the names
// of the window's widgets, and wrapping breaks lines at spaces only, never inside a number such as 0.25.
#ifdef KS_HAVE_SCREENSHOT  // the panels library is built with the renderer
#include <gtest/gtest.h>

#include "panels/window_words.hpp"

namespace ks::ui {
namespace {

TEST(WindowWords, FlagsBecomeTheNamesOfTheWidgets) {
  EXPECT_EQ(in_window_words("use --param dt=0.25 or less, or a smaller diffusivity"),
            "use dt = 0.25 or less, or a smaller diffusivity");
  EXPECT_EQ(in_window_words("CUDA is not available; use --backend cpu"), "CUDA is not available; use the CPU backend");
  EXPECT_EQ(in_window_words("use --backend cuda with it, or drop --variant"),
            "use the CUDA backend with it, or drop variant");
  EXPECT_EQ(in_window_words("convert with --type u8 or --type f32"), "convert with type u8 or type f32");
  EXPECT_EQ(in_window_words("a value of -3 is below 0"), "a value of -3 is below 0") << "no flag, no change";
}

// Each character 1 unit wide: lines of at most `width` characters.
float chars(const std::string& s) { return float(s.size()); }

TEST(WindowWords, WrapsAtSpacesOnly) {
  const std::string text = "dt=0.3 is above the limit dt <= 0.25 for diffusivity=1";
  const std::string wrapped = wrapped_at_spaces(text, 14, chars);
  EXPECT_EQ(wrapped, "dt=0.3 is\nabove the\nlimit dt <=\n0.25 for\ndiffusivity=1");
  std::string joined = wrapped;
  for (char& c : joined)
    if (c == '\n') c = ' ';
  EXPECT_EQ(joined, text) << "only spaces became line breaks";
  EXPECT_EQ(wrapped_at_spaces("averyveryverylongword and", 5, chars), "averyveryverylongword\nand");
  EXPECT_EQ(wrapped_at_spaces("first\nsecond line", 40, chars), "first\nsecond line") << "its own breaks stay";
  EXPECT_EQ(wrapped_at_spaces("", 10, chars), "");
}

}  // namespace
}  // namespace ks::ui
#endif
