#pragma once
// Script commands for live simulations (kernelscope --script, see script_runner.hpp):
//
//   pattern NAME|FILE.rle         life starts from a built-in pattern or an RLE file
//   sim play|pause|reset          sim step N          sim steps-per-frame N       sim grid WxH
//   sim start parameters|image|pattern               sim brush on|off [RADIUS [VALUE]]
//   sim paint X Y [X2 Y2]         (a brush stroke in grid cells, as a left drag with Paint on)
//   sim export-frames DIR N       (the next N steps as DIR/frame_00000.png ...)
//   sim export-gif FILE N K [D]   (an animated GIF: the state shown, then every K-th step; D/100 s per frame)
//   sim wait-generation N         (waits until the generation reaches N, while playing)
//   sim check [N]                 (your step kernel: N steps, default 1, of it and of the built-in from here, compared)
//   sim print                     (prints "sim kernel=life generation=N population=P playing=on ...", and with your
//                                  step kernel " yours=FILE check=\"1 step from generation 0 against life on the
//                                  CPU: matches: ...\""); a world past 2^30 cells adds " world=WxH window=X,Y+WxH@C"
//                                  (the window of it shown, C cells a pixel)
//   sim cells                     (prints "cells N: X,Y=V ...": the pixels of the frame shown that are not dead, at
//                                  the cells where they lie, the first 200)
#include <QStringList>

namespace ks::app {
class Session;
}

namespace ks::gui {

// Runs `words` when it is a simulation command and returns true; false when it is not one. Usage Errors for
// malformed commands. `wait_until_generation` is set by `sim wait-generation`.
bool run_sim_command(const QStringList& words, app::Session& session, long long& wait_until_generation);

}  // namespace ks::gui
