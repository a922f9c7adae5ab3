// Launch pitfalls, from the launch alone (the occupancy model, the grid, the block): low theoretical
// occupancy and what limits it, the tail effect, a block width that is not a multiple of 32.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "report/text_format.hpp"
#include "report/why_detectors.hpp"
#include "report/why_fixes.hpp"
#include "report/why_thresholds.hpp"

namespace ks::report::why {

namespace {

std::string limiter_words(const OccupancyReport& o) {
  if (o.limiter == "registers") return fmt::format("registers ({} per thread)", o.registers_per_thread);
  if (o.limiter == "shared memory")
    return fmt::format("shared memory ({} per block)",
                       format_bytes(o.static_shared_bytes + o.dynamic_shared_bytes));
  if (o.limiter == "blocks per SM")
    return fmt::format("the SM's limit of resident blocks, with only {} threads per block", o.block_threads);
  return o.limiter.empty() ? std::string("the block") : o.limiter;
}

void low_occupancy(const WhyInput& in, std::vector<WhyFinding>& out) {
  if (!in.occupancy || in.occupancy->occupancy <= 0 || near_roof(in)) return;
  const OccupancyReport& o = *in.occupancy;
  if (o.occupancy >= why_limits::kLowOccupancy) return;
  const int warps = o.active_blocks_per_sm * ((o.block_threads + 31) / 32);
  std::string finding = fmt::format(
      "Theoretical occupancy {:.0f}%: an SM holds {} block{} of {} threads ({} warps), limited by {}; too "
      "few "
      "warps to hide memory latency.",
      100 * o.occupancy, o.active_blocks_per_sm, o.active_blocks_per_sm == 1 ? "" : "s", o.block_threads,
      warps, limiter_words(o));
  std::string fix;
  if (auto choice = block_raising_occupancy(in, o.occupancy, why_limits::kOccupancyGainPoints))
    fix = fmt::format("{} (the occupancy model gives {:.0f}%: {} block{} per SM, limited by {})",
                      block_option(in, choice->block), 100 * choice->limits.occupancy,
                      choice->limits.active_blocks, choice->limits.active_blocks == 1 ? "" : "s",
                      choice->limits.limiter);
  else if (std::string v = variant_fix(in); !v.empty())
    fix = "no block of this variant raises it; " + v;
  else
    fix = o.limiter == "registers" ? "fewer registers per thread (__launch_bounds__ in a copy of the kernel: "
                                     "Edit a copy in the Source section)"
                                   : "less shared memory per block (a smaller tile)";
  out.push_back({"low-occupancy", std::move(finding), std::move(fix)});
}

// The share of the GPU's block slots left idle over all waves: 1 - waves / ceil(waves).
double idle_share(long long blocks, long long slots) {
  if (blocks <= 0 || slots <= 0) return 0;
  const double waves = double(blocks) / double(slots);
  return 1 - waves / std::ceil(waves);
}

void tail_effect(const WhyInput& in, std::vector<WhyFinding>& out) {
  if (!in.fill || near_roof(in)) return;
  const WhyLaunchFill& f = *in.fill;
  const long long slots = 1LL * f.sms * f.resident_blocks_per_sm;
  const double idle = idle_share(f.blocks, slots);
  if (slots <= 0 || idle < why_limits::kTailIdleShare) return;
  std::string finding;
  if (f.blocks < f.sms)
    finding = fmt::format(
        "The grid has {} block{} for {} SMs: {} SMs have nothing to do, and the GPU could hold {} blocks at "
        "once "
        "({} SMs x {}).",
        f.blocks, f.blocks == 1 ? "" : "s", f.sms, f.sms - f.blocks, slots, f.sms, f.resident_blocks_per_sm);
  else {
    const long long waves = (f.blocks + slots - 1) / slots;
    const long long last = f.blocks - (waves - 1) * slots;
    finding = fmt::format(
        "Tail effect: {} blocks run in {} wave{} of {} ({} SMs x {} resident); the last wave fills {} of the "
        "slots, so the GPU stands {} idle over the run.",
        f.blocks, waves, waves == 1 ? "" : "s", slots, f.sms, f.resident_blocks_per_sm,
        format_percent(100.0 * double(last) / double(slots)), format_percent(100 * idle));
  }
  // A block whose grid fills the waves better, where the grid at other blocks is known.
  std::string fix;
  if (in.grid_blocks_at) {
    double best_idle = idle;
    for (const BlockShape& b : in.candidate_blocks) {
      const auto limits = occupancy_at(in, b);
      const long long blocks = in.grid_blocks_at(b);
      if (!limits || blocks <= 0) continue;
      const double candidate = idle_share(blocks, 1LL * f.sms * limits->active_blocks);
      if (candidate < best_idle - why_limits::kTailIdleShare) {
        best_idle = candidate;
        fix = fmt::format("{} ({} blocks, {} of the GPU idle)", block_option(in, b), blocks,
                          format_percent(100 * candidate));
      }
    }
  }
  if (fix.empty())
    fix = f.blocks < slots
              ? fmt::format("a larger input (at least {} blocks: one full wave), or smaller blocks", slots)
              : fmt::format(
                    "a grid of whole waves: a block or an input size that makes the blocks a multiple of "
                    "{}, or many more waves (a larger input)",
                    slots);
  out.push_back({"tail-effect", std::move(finding), std::move(fix)});
}

// The most rows of the block one warp (32 consecutive threads, x fastest) reaches into.
int most_rows_per_warp(BlockShape b) {
  int most = 0;
  for (int first = 0; first < b.threads(); first += 32) {
    const int last = std::min(first + 32, b.threads()) - 1;
    most = std::max(most, last / b.x - first / b.x + 1);
  }
  return most;
}

void block_width(const WhyInput& in, std::vector<WhyFinding>& out) {
  if (!in.block || in.backend != Backend::Cuda) return;
  const BlockShape b = *in.block;
  // One row of threads (a lab kernel's 1-D block, or a 2-D block one row high): only idle lanes to say.
  const bool one_d = b.y == 1;
  if (b.x % 32 == 0) return;
  const int threads = b.threads();
  const int warps = (threads + 31) / 32;
  const int idle = warps * 32 - threads;
  std::string finding =
      one_d ? fmt::format("Block of {} threads, not a multiple of 32: its {} warps carry {} idle lane{}.",
                          threads, warps, idle, idle == 1 ? "" : "s")
            : fmt::format(
                  "Block {} is {} wide, not a multiple of 32: a warp (32 consecutive threads) reaches into "
                  "up to {} rows, so one load reads as many separate runs of the image{}.",
                  to_string(b), b.x, most_rows_per_warp(b),
                  idle ? fmt::format(", and {} of the block's {} lanes idle", idle, warps * 32) : "");
  // The candidate of whole-warp width nearest in threads; else 32 x (threads / 32).
  std::optional<BlockShape> fix_block;
  for (const BlockShape& c : in.candidate_blocks) {
    if (c.x % 32 != 0) continue;
    if (!fix_block || std::abs(c.threads() - threads) < std::abs(fix_block->threads() - threads))
      fix_block = c;
  }
  if (!fix_block)
    fix_block = one_d ? BlockShape{warps * 32, 1} : BlockShape{32, std::max(1, (threads + 16) / 32)};
  out.push_back(
      {"block-width", std::move(finding),
       block_option(in, *fix_block) + " (whole warps per row: no idle lanes, one run of a row per load)"});
}

}  // namespace

void find_launch_pitfalls(const WhyInput& in, std::vector<WhyFinding>& out) {
  low_occupancy(in, out);
  tail_effect(in, out);
  block_width(in, out);
}

}  // namespace ks::report::why
