#include "inputs/image_files.hpp"

#include "assets.hpp"
#include "core/error.hpp"
#include "engine/engine.hpp"
#include "io/image_io.hpp"

namespace ks::inputs {

InputImage load_sample() {
  return {load_image_from_memory(embedded::sample_png(), "embedded sample"), "embedded sample"};
}

InputImage load_input(const std::string& input) {
  if (input == kSampleName) return load_sample();
  return {load_image(input), input};
}

Image to_file_layout(const Image& result, const ImageShape& loaded) {
  Image out = restore_channels(result, loaded.channels);
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
