#include "inputs/image_files.hpp"

#include <unistd.h>

#include <cstdio>

#include "assets.hpp"
#include "core/error.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"

namespace ks::inputs {

InputImage load_sample() {
  return {load_image_from_memory(embedded::sample_png(), "embedded sample"), "embedded sample"};
}

InputImage load_input(const std::string& input) {
  if (input == kSampleName) return load_sample();
  // A large image takes seconds: on a terminal, a line redrawn in place says how far (logs get nothing). (Not
  // cli/progress_bar: this file is also the session's, which has no command line.)
  const bool terminal = ::isatty(::fileno(stderr)) != 0;
  Stopwatch clock;
  bool shown = false;
  const LoadProgress progress = [&](double fraction) {
    if (terminal && (shown || clock.elapsed_ms() > 500)) {
      std::fprintf(stderr, "\rloading %s: %3.0f%%", input.c_str(), fraction * 100);
      shown = true;
    }
    return true;
  };
  InputImage loaded{load_image(input, {}, progress), input};
  if (shown) std::fprintf(stderr, "\r\033[K");  // the line goes: what follows starts clean
  return loaded;
}

Image to_file_layout(Image result, const ImageShape& loaded) {
  Image out = restore_channels(std::move(result), loaded.channels);
  if (loaded.type == ElemType::U16 && out.type() != ElemType::U16) out = convert_type(out, ElemType::U16);
  return out;
}

void check_output_folder(const std::filesystem::path& path) {
  const std::filesystem::path folder = path.parent_path();
  std::error_code ec;
  if (!folder.empty() && !std::filesystem::is_directory(folder, ec))
    throw_io("cannot write '" + path.string() + "': the folder '" + folder.string() + "' does not exist",
             "create it first, or choose another output path");
}

}  // namespace ks::inputs
