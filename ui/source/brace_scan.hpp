#pragma once
// Which `{` of a source was never closed: what an editor marks when the compiler says "expected a }" at the end of
// the source. Braces in comments, strings, character literals and preprocessor lines do not count (the tokenizer
// of source_tokens.hpp tells them apart).
#include <optional>
#include <string_view>

namespace ks::source {

struct TextPosition {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in bytes
  bool operator==(const TextPosition&) const = default;
};

// The innermost `{` still open at the end of `text` (the one the compiler was still trying to close), or none
// when every `{` is closed. A `}` with no `{` to close is skipped.
std::optional<TextPosition> unclosed_brace(std::string_view text);

}  // namespace ks::source
