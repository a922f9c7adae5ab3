#pragma once
// A demo playlist on screen: the caption of the current step at the bottom of the image area, large enough to
// read on a projector, with "step k of n" and the playlist's title; what could not apply under it in orange;
// and a small list of the steps at the top left, the current one marked and bad ones in red; a click on a
// step goes there.
#include <array>
#include <optional>

namespace ks::app {
class PlaylistPlayer;
}

namespace ks::ui {

struct PlaylistOverlayDrawn {
  std::optional<int> clicked;  // the step (0-based) clicked in the list, for the window to go to
  // The caption's rectangle (logical pixels: min x, min y, max x, max y): what else stands at the bottom of the
  // image area goes above it.
  std::array<float, 4> caption{};
  std::array<float, 4> list{};  // the step list's, the same way
};

// `sidebar_width`: the logical pixels the sidebar covers at the right (the caption stays left of it).
PlaylistOverlayDrawn draw_playlist_overlay(const app::PlaylistPlayer& player, float sidebar_width);

}  // namespace ks::ui
