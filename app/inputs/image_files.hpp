#pragma once
// Images as the CLI reads and writes them (the app's exports too): `-i sample` means the embedded sample image,
// and results are saved in the depth and channel count of the file they came from (a 16-bit RGB PNG gives a
// 16-bit RGB PNG).
#include <filesystem>
#include <string>

#include "core/image.hpp"

namespace ks::inputs {

struct InputImage {
  Image image;       // as loaded: the file's own type and channel count
  std::string name;  // the path as given, or "embedded sample"
};

// The word naming the embedded sample for -i (a file called "sample" is still reachable as ./sample).
inline constexpr const char* kSampleName = "sample";

InputImage load_input(const std::string& input);
InputImage load_sample();

// Undoes what prepare_stencil_input did to the loaded image: channels back to the file's count, and 16-bit
// inputs back to U16 (F32 is how they were processed). Other type changes are left to save_image (it writes
// 8-bit PNGs from F32, float .hdr from anything).
Image to_file_layout(Image result, const ImageShape& loaded);

// Fails (Io error) before any work is done when the folder of `path` does not exist.
void check_output_folder(const std::filesystem::path& path);

}  // namespace ks::inputs
