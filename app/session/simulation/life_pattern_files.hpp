#pragma once
// Opening a Life pattern in the app (File > Open Life pattern, an .rle file dropped on the window, --pattern of
// --screenshot): the life kernel is selected, the pattern's rule shown as its parameter, and the simulation
// starts from the pattern at the centre of its grid.
#include <filesystem>
#include <string>

namespace ks::app {

class Session;

// Whether a path names an RLE file (.rle, any case): dropped files go to open_life_pattern rather than the
// image loader.
bool is_life_pattern_file(const std::filesystem::path& path);

// Reads and parses the file (an Io error naming the file and line when it cannot), then applies it as above.
// Nothing changes when it fails.
void open_life_pattern(Session& session, const std::filesystem::path& path);

// A built-in pattern by name ("glider", "gosper-glider-gun", ...); a usage Error listing the names otherwise.
void use_builtin_life_pattern(Session& session, const std::string& name);

// `spec` is a built-in pattern's name, or else a path to an RLE file.
void use_life_pattern(Session& session, const std::string& spec);

}  // namespace ks::app
