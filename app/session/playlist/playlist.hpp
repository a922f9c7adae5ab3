#pragma once
// A demo playlist (schema "kernelscope.playlist/1"): a title and steps, each saying what to change — the
// image or Life pattern, kernel, backend, variant, element type, block, parameters, panels, split, colormap,
// playing — and a caption for the audience. Qt-free: the window, --screenshot and the tests share it.
//
// Every step is checked against the kernel registry when the file is read. A step that fails keeps its error
// ("step 3 (\"Tiled\"): block '33x8' ...") and applies nothing; the others stay usable, so a show with one
// typo still runs. Only a file that cannot be read at all (bad JSON, wrong schema, no steps) throws.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "usercode/family.hpp"

namespace ks::app {

struct PlaylistStep {
  int number = 0;     // 1-based, as the caption and errors say it
  std::string label;  // the caption's first line (shortened), or a summary of the step when it has none
  // "sample", or an image path made absolute against the playlist's folder.
  std::optional<std::string> open;
  // A built-in Life pattern's name, or an .rle path made absolute; implies the life kernel.
  std::optional<std::string> pattern;
  std::optional<std::string> kernel, backend, variant, type, colormap;
  std::optional<std::string> block;                         // "16x16", or "default"
  std::vector<std::pair<std::string, std::string>> params;  // name, value as text, in the file's order
  std::optional<bool> panels, split, play;
  // The sidebar sections to show open (the others closed), as --sections names them: "why", "timing", ...
  std::optional<std::vector<std::string>> sections;
  std::optional<long long> steps;  // simulation steps to run on arriving at this step
  std::optional<std::pair<int, int>> grid;  // a simulation's grid, width x height cells
  // "kernel_file": a kernel of the user's (a .cu path made absolute against the playlist's folder) that runs
  // instead of the built-in from this step on, checked against it; an empty string (JSON null) goes back to the
  // built-in. Its `// @family` says where it runs (a file without one is a stencil): a stencil in place of the
  // image kernel, an array kernel in the Lab on the lab kernel's inputs, a step kernel stepping life or heat
  // (user_kernel_fit.hpp). "kernel_params": values of its declared parameters.
  std::optional<std::string> kernel_file;
  usercode::Family kernel_family = usercode::Family::Stencil;  // of a non-empty kernel_file
  std::vector<std::pair<std::string, std::string>> kernel_params;
  std::string caption;             // may hold several lines
  // Why the step cannot be used ("step 3 (\"Tiled\"): ..."); empty when it can.
  std::string error;

  bool ok() const noexcept { return error.empty(); }
};

struct Playlist {
  std::string title;
  std::string source;  // the file (or embedded name) it came from, for messages
  std::vector<PlaylistStep> steps;

  int error_count() const;
};

inline constexpr std::string_view kPlaylistSchema = "kernelscope.playlist/1";

// `base_dir` resolves relative image and pattern paths. Throws a usage Error for text that is not JSON (with
// its line and column), another schema, or no steps; bad steps are kept with their error instead.
Playlist parse_playlist(std::string_view json_text, const std::filesystem::path& base_dir,
                        std::string source);
// Reads the file (an Io error when it cannot) and parses it against the file's folder.
Playlist load_playlist(const std::filesystem::path& file);
// A file, or else the name of a demo playlist embedded in the app ("naive-tiled-separable"); an Io error that
// lists the demos when it is neither.
Playlist load_playlist_or_demo(const std::string& spec);
// The names of the embedded demo playlists, in the order a course would show them.
std::vector<std::string> demo_playlist_names();

}  // namespace ks::app
