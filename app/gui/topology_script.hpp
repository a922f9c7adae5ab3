#pragma once
// Script commands for the Topology window (kernelscope --script, see script_runner.hpp):
//
//   topo placements all|sample:N|identity|search   (the panel's placements)
//   topo generate SPEC            (traffic from a generator: gravity:n=12,t=1,seed=1, ...)
//   topo add SPEC|FILE            (a configuration: a family spec such as ring or torus:4x3, or a file)
//   topo time-limit S             (the panel's time limit, in seconds; 0: none)
//   topo run                      (the panel's Run: starts the sweep and goes on at once, as a person would)
//   topo wait                     (waits until the Topology document's worker is idle: a load, an estimate, a
//                                sweep)
//   topo cancel                   (the panel's Cancel)
//   topo print                    (prints "topo nodes=N placements=... evaluations=11.50_G estimate=... busy=on|off
//                                progress=..." : what the panel says before Run, and the progress line)
#include <QStringList>

namespace ks::app {
class Session;
}

namespace ks::gui {

// Runs `words` when it is a topology command and returns true; false when it is not one. `wait_for_topology`
// is set by `topo wait`. Usage Errors for malformed commands and refused ones.
bool run_topology_command(const QStringList& words, app::Session& session, bool& wait_for_topology);

}  // namespace ks::gui
