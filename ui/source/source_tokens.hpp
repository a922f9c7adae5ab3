#pragma once
// A small C++/CUDA tokenizer for syntax colouring: enough to tell keywords, CUDA's own words, comments,
// strings, numbers and preprocessor lines apart on a projector, not a parser (templates and macros are plain
// text).
#include <cstddef>
#include <string_view>
#include <vector>

namespace ks::source {

enum class TokenKind {
  Plain,         // identifiers, operators, spaces
  Keyword,       // C++ keywords and fundamental types: for, if, const, int, float, template, ...
  Cuda,          // CUDA's qualifiers and built-ins: __global__, __shared__, __syncthreads, threadIdx, ...
  Comment,       // // ... and /* ... */ (which may span lines)
  String,        // "..." and '...'
  Number,        // 42, 0x1f, 1.5e-3f, 1'000
  Preprocessor,  // a line starting with #, up to a comment
};

struct Token {
  TokenKind kind = TokenKind::Plain;
  std::size_t begin = 0;  // offset in its line
  std::size_t length = 0;
  bool operator==(const Token&) const = default;
};

// `text` split at '\n' (a '\r' before it dropped); a final line without '\n' counts, an empty tail does not.
std::vector<std::string_view> split_lines(std::string_view text);

// The tokens of each line of `lines`, covering every character; neighbours of the same kind are merged, so a
// line of plain text is one token. Block comments carry over from line to line.
std::vector<std::vector<Token>> tokenize_lines(const std::vector<std::string_view>& lines);

// One line's tokens, as above: `in_block_comment` says whether the line starts inside a /* */ comment and is left
// saying whether the next one does (an editor colours one line at a time).
std::vector<Token> tokenize_line(std::string_view line, bool& in_block_comment);

}  // namespace ks::source
