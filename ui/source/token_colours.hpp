#pragma once
// The colours of the token kinds, shared by the Source panel (ImGui) and the kernel editor (Qt), so that code
// looks the same in both. Chosen to stay apart on a projector against a dark background: CUDA's own words stand
// out the most.
#include <optional>

#include "source/source_tokens.hpp"

namespace ks::source {

struct TokenColour {
  float r = 0, g = 0, b = 0;  // 0..1
};

// The colour a token is drawn in; none for Plain, which takes the surface's own text colour.
constexpr std::optional<TokenColour> token_colour(TokenKind kind) {
  switch (kind) {
    case TokenKind::Keyword:
      return TokenColour{0.40f, 0.65f, 1.00f};  // blue
    case TokenKind::Cuda:
      return TokenColour{1.00f, 0.60f, 0.15f};  // orange
    case TokenKind::Comment:
      return TokenColour{0.45f, 0.68f, 0.40f};  // green
    case TokenKind::String:
      return TokenColour{0.90f, 0.62f, 0.50f};  // salmon
    case TokenKind::Number:
      return TokenColour{0.70f, 0.90f, 0.65f};  // pale green
    case TokenKind::Preprocessor:
      return TokenColour{0.80f, 0.55f, 0.85f};  // violet
    case TokenKind::Plain:
      break;
  }
  return std::nullopt;
}

}  // namespace ks::source
