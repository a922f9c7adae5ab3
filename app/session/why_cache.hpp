#pragma once
// The Why section's explanation of the kernel on screen (a stencil's, a lab kernel's or a simulation's last
// run), worked out once per run rather than once per frame: the explainer copies a simulation's report and
// looks through the candidate blocks for one that raises the occupancy, which the section would otherwise
// repeat at the display's frame rate. Qt-free and GL-free, so the tests time it on real reports.
//
//   WhyCache cache;                                    // one per window
//   if (const WhyExplanation* e = cache.current(session)) draw(e->findings);
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/launch_shape.hpp"
#include "report/why_finding.hpp"
#include "session/launch/launch_picture.hpp"

namespace ks::app {

class Session;

struct WhyExplanation {
  std::vector<report::WhyFinding> findings;  // of the last run (report::explain_why)
  bool counters = false;                     // the run had hardware counters
  // On the CPU backend with a device model: the launch pitfalls of the CUDA variant the model pictures (the
  // Launch section's), under `modelled_heading`; empty otherwise.
  std::vector<report::WhyFinding> modelled;
  std::string modelled_heading;
};

class WhyCache {
 public:
  // The explanation of what `session` shows now, or null before its first run. Recomputed only when what it
  // reads changed: the run shown (a new stencil run, lab run, or simulation report, counters or step times),
  // the device, or the modelled launch; otherwise the last one is returned as it was.
  const WhyExplanation* current(const Session& session);
  // How many times current() ran the explainer (tests: a frame with nothing new recomputes nothing).
  std::uint64_t recomputations() const noexcept { return recomputations_; }

 private:
  // What the explanation depends on, each as cheaply as it can be read.
  struct Key {
    int family = 0;              // 0 stencil, 1 lab, 2 simulation
    std::uint64_t run = 0;       // the stencil's runs applied, the lab run's number, the simulation's revision
    bool has_run = false;
    bool cuda = false;           // the device the explainer is given
    // The modelled launch (CPU backend with a device model): what the model's findings read.
    std::string model_variant, model_device;
    std::optional<BlockShape> model_block;
    long long model_blocks = 0;
    int model_resident = 0;
    double model_occupancy = 0;
    bool operator==(const Key&) const = default;
  };
  // `picture`: the modelled launch, when there is one (read once per frame: a few arithmetic operations).
  static Key key_of(const Session& session, const std::optional<LaunchPicture>& picture);

  std::optional<Key> key_;
  std::optional<WhyExplanation> value_;
  std::uint64_t recomputations_ = 0;
};

}  // namespace ks::app
