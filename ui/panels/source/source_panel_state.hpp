#pragma once
// What the Source section shows and what it computed for it: the file's lines, their tokens and the diff are
// worked out once per choice, not on every frame (a diff of two 500-line files is a quarter million cells).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "copies/kernel_copy.hpp"

#include "source/line_diff.hpp"
#include "source/source_tokens.hpp"

namespace ks::ui {

struct SourcePanelState {
  // Whose source is shown: empty follows the running variant; any variant of the kernel can be read, also one
  // this machine cannot run (a teacher without a GPU can still show the CUDA code).
  std::string variant;
  std::string compare;  // the variant to compare with; empty: none
  int file = 0;         // which of the variant's files (most of them have one)

  // Derived from the choice above for `shown_key` ("kernel/variant/file/compare").
  std::string shown_key;
  std::string path, compare_path;
  std::vector<std::string_view> lines, compare_lines;  // views into the embedded files (static storage)
  std::vector<std::vector<source::Token>> tokens, compare_tokens;
  std::vector<source::DiffLine> diff;  // empty unless comparing two different files
  int anchor_row = -1;                 // the row of the variant's function, scrolled to on a new choice
  int scroll_frames = 0;  // frames left to keep asking for that scroll (a new child has no size yet)

  // Edit a copy (app/copies) of the shown variant at the session's parameters and element type, made again
  // only when `copy_key` ("kernel/variant/type/parameters") changes.
  std::string copy_key;
  copies::EditCopy copy;
};

// The Source panel's Edit a copy, until the window opens it in the kernel editor (MainWindow::tick; headless
// frames have no editor and leave it).
struct EditCopyRequest {
  std::string file_name;  // "gaussian_naive.cu": the untitled document's name
  std::string text;
};

}  // namespace ks::ui
