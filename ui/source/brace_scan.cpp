#include "source/brace_scan.hpp"

#include <vector>

#include "source/source_tokens.hpp"

namespace ks::source {

std::optional<TextPosition> unclosed_brace(std::string_view text) {
  const std::vector<std::string_view> lines = split_lines(text);
  const std::vector<std::vector<Token>> tokens = tokenize_lines(lines);
  std::vector<TextPosition> open;
  for (std::size_t l = 0; l < lines.size(); ++l)
    for (const Token& t : tokens[l]) {
      if (t.kind != TokenKind::Plain) continue;  // comments, strings, #directives
      for (std::size_t i = t.begin; i < t.begin + t.length; ++i) {
        if (lines[l][i] == '{')
          open.push_back({static_cast<int>(l) + 1, static_cast<int>(i) + 1});
        else if (lines[l][i] == '}' && !open.empty())
          open.pop_back();
      }
    }
  if (open.empty()) return std::nullopt;
  return open.back();
}

}  // namespace ks::source
