#include "panels/simulation/simulation_save_requests.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "report/sim_frames.hpp"
#include "session/session.hpp"

namespace ks::ui {

SaveRequest simulation_gif_request(app::Session& session, long long frames, long long every) {
  SaveRequest r;
  r.title = "Export simulation animation";
  r.suggested = session.kernel().id + ".gif";
  r.filters = "Animated GIF (*.gif)";
  r.replaces = [](const std::string& path) { return std::vector<std::string>{path}; };
  r.write = [&session, frames, every](const std::string& path) {
    session.simulation().export_animation(path, frames, every, kDefaultGifDelayCs);
    return fmt::format("Writing a {}-frame GIF to {} (Cancel in the progress box stops it)", frames, path);
  };
  return r;
}

SaveRequest simulation_frames_request(app::Session& session, long long frames) {
  SaveRequest r;
  r.target = SaveRequest::Target::Folder;
  r.title = "Folder for the simulation frames";
  // The folder's own frames of those numbers: listing the folder, rather than testing each of up to a million
  // names, keeps the question quick.
  r.replaces = [frames](const std::string& dir) {
    std::vector<std::string> files;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      long long index = -1;
      const std::string name = entry.path().filename().string();
      if (std::sscanf(name.c_str(), "frame_%lld.png", &index) == 1 && index >= 0 && index < frames &&
          name == report::frame_path("", index).string())
        files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
  };
  r.write = [&session, frames](const std::string& dir) {
    session.simulation().export_sequence(dir, frames);
    return fmt::format("Writing {} frames to {} (Cancel in the progress box stops it)", frames, dir);
  };
  return r;
}

}  // namespace ks::ui
