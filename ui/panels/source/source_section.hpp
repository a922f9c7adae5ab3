#pragma once
// The Source section's colours, shared with the render tests that look for them in a frame.
#include <imgui.h>

#include "source/source_tokens.hpp"

namespace ks::ui::panels {

// The colour a token is drawn in (Plain: the style's text colour).
ImVec4 source_token_colour(source::TokenKind kind);

// Row backgrounds of a comparison: lines only in the other variant's file, lines only in this one.
inline constexpr ImU32 kSourceRemovedBackground = IM_COL32(150, 40, 40, 110);
inline constexpr ImU32 kSourceAddedBackground = IM_COL32(40, 140, 60, 110);

}  // namespace ks::ui::panels
