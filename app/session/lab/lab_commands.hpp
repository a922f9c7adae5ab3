#pragma once
// The lab as Qt code reaches it (the window's status bar, the --script runner). Qt defines `slots` as a
// macro, which breaks the lab's headers (LaunchArithmetic::slots), so this header names no lab type: it takes
// the Session and gives text.
#include <string>

namespace ks::app {

class Session;

// The Lab section's Run, Sweep sizes and exact size field (usage Errors as LabDocument's).
void lab_run(Session& session);
void lab_sweep(Session& session);
void lab_set_size(Session& session, const std::string& text);

// "lab kernel=ID runs=N last=VARIANT@SIZE check=agrees|disagrees|unchecked image=WxH|none
//  sweep=POINTS/TOTAL complete|running|cancelled|none user=FILE|none[ error=MESSAGE]" (user: your array
//  kernel running there; error: why the last run failed); a usage Error when no lab kernel is chosen.
std::string lab_status_line(const Session& session);
// For the status bar: "vecadd cpu 1.23 ms", or "lab: press Run".
std::string lab_status_bar_text(const Session& session);

}  // namespace ks::app
