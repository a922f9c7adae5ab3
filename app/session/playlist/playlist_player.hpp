#pragma once
// Plays a playlist on a Session: step k puts the session where the steps 1..k together leave it, whether the
// presenter arrives from step k-1 or goes back from k+1, so "previous" shows what the audience saw before.
// Only what differs is changed (a running simulation is not restarted by a step that changes its variant).
//
// What cannot apply on this machine (a CUDA variant without a GPU, a block the GPU refuses) is reported as a
// note of the step and the show goes on: the CPU backend stands in for CUDA. A step that failed its checks
// applies nothing and shows its error.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "session/playlist/playlist.hpp"
#include "usercode/compile_cache.hpp"

namespace ks::app {

class Session;

// The parts of a step that belong to the window rather than the session.
struct PlaylistViewChange {
  std::optional<bool> panels, split;
  std::optional<std::string> colormap;
  std::optional<std::vector<std::string>> sections;  // open these sidebar sections only (names as --sections)
};

class PlaylistPlayer {
 public:
  explicit PlaylistPlayer(Playlist playlist) : playlist_(std::move(playlist)) {}

  const Playlist& playlist() const noexcept { return playlist_; }
  int step_count() const noexcept { return int(playlist_.steps.size()); }
  int current() const noexcept { return current_; }  // 0-based; -1 before the first step
  const PlaylistStep* current_step() const {
    return current_ >= 0 ? &playlist_.steps[std::size_t(current_)] : nullptr;
  }
  // The current step's error and what could not apply at run time, one line each.
  const std::vector<std::string>& notes() const noexcept { return notes_; }

  // Puts the session at step `index` (clamped to the playlist). Returns the window's part of it.
  PlaylistViewChange go_to(Session& session, int index);
  // False (and nothing changes) at the last / first step.
  bool next(Session& session, PlaylistViewChange* view);
  bool previous(Session& session, PlaylistViewChange* view);

 private:
  Playlist playlist_;
  int current_ = -1;
  std::string applied_input_;  // the image or pattern this player last opened: not opened again
  // Users' kernels of the playlist, compiled once however often the show goes back and forth.
  std::shared_ptr<usercode::CompileCache> kernel_cache_ = std::make_shared<usercode::CompileCache>(8);
  std::string applied_kernel_;  // the user kernel (file and parameters) this player put in place; empty: none
  usercode::Family applied_family_ = usercode::Family::Stencil;
  std::vector<std::string> notes_;
};

}  // namespace ks::app
