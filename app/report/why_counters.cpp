// Pitfalls only the hardware counters show: uncoalesced access, bank conflicts, achieved occupancy below the
// theoretical one, branch divergence. Without counters this says nothing.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/text_format.hpp"
#include "report/why_detectors.hpp"
#include "report/why_fixes.hpp"
#include "report/why_thresholds.hpp"

namespace ks::report::why {

namespace {

// A block as wide as a warp (or wider, in whole warps), the run's thread count kept near.
std::optional<BlockShape> warp_wide_block(const WhyInput& in) {
  if (!in.block || in.block->x % 32 == 0) return std::nullopt;
  const int rows = std::clamp((in.block->threads() + 16) / 32, 1, 32);
  return BlockShape{32, rows};
}

std::string code_fix(const WhyInput& in, const char* otherwise) {
  if (auto b = warp_wide_block(in); b && in.block_rank == 2)
    return block_option(in, *b) + " (rows of whole warps: each warp reads one run of a row)";
  std::string fix = variant_fix(in);
  return fix.empty() ? otherwise : fix;
}

void uncoalesced(const WhyInput& in, const KernelCounters& c, std::vector<WhyFinding>& out) {
  const double loads = c.load_sectors_per_request(), stores = c.store_sectors_per_request();
  const bool load_side = loads >= stores;
  const double measured = std::max(loads, stores);
  if (std::isnan(measured) || measured <= 0) return;  // not read (one-pass counters) or no global access
  // A warp of 32 lanes reading consecutive elements of B bytes needs 32 * B / 32 = B sectors (at least 1).
  const double ideal = std::max(1, in.lane_bytes);
  const bool scattered = in.lane_bytes > 0 ? measured > why_limits::kUncoalescedFactor * ideal
                                           : measured > why_limits::kUncoalescedSectorsUnknownWidth;
  if (!scattered) return;
  std::string finding = fmt::format("Uncoalesced {}: each warp-wide {} touches {:.1f} sectors of 32 bytes",
                                    load_side ? "loads" : "stores", load_side ? "load" : "store", measured);
  if (in.lane_bytes > 0)
    finding +=
        fmt::format(" where 32 lanes reading consecutive {}-byte elements need {:.0f} ({:.1f}x as many)",
                    in.lane_bytes, ideal, measured / ideal);
  finding += ": the lanes' addresses are scattered, and every extra sector is memory traffic.";
  out.push_back({"uncoalesced", std::move(finding),
                 code_fix(in, "make consecutive lanes (threadIdx.x) read consecutive addresses")});
}

void bank_conflicts(const WhyInput& in, const KernelCounters& c, std::vector<WhyFinding>& out) {
  const double per_instruction = c.bank_conflicts_per_shared_instruction();
  if (std::isnan(per_instruction) || per_instruction < why_limits::kBankConflictsPerInstruction) return;
  const std::string later = variant_fix(in);
  out.push_back(
      {"bank-conflicts",
       fmt::format(
           "Shared-memory bank conflicts: {:.2f} extra wavefronts per shared instruction ({:.3g} "
           "conflicts over {:.3g} shared loads and stores): lanes of a warp hit the same bank and wait "
           "for each other.",
           per_instruction, c.shared_load_bank_conflicts + c.shared_store_bank_conflicts,
           c.shared_load_instructions + c.shared_store_instructions),
       later.empty() ? "pad the shared tile's rows by one 4-byte word, so that a column's elements fall in "
                       "different banks (Edit a copy in the Source section)"
                     : later});
}

void achieved_occupancy(const WhyInput& in, const KernelCounters& c, std::vector<WhyFinding>& out) {
  if (c.achieved_occupancy_pct <= 0 || near_roof(in)) return;
  const double achieved = c.achieved_occupancy_pct;
  if (in.occupancy) {
    const double theoretical = 100 * in.occupancy->occupancy;
    if (theoretical - achieved < why_limits::kAchievedBelowTheoreticalPoints) return;
    out.push_back(
        {"low-achieved-occupancy",
         fmt::format("Achieved occupancy {:.0f}% against a theoretical {:.0f}%: the SMs were often "
                     "short of warps, not of resources (blocks ending at different times, a partial "
                     "last wave, or a grid smaller than the GPU).",
                     achieved, theoretical),
         "more, smaller blocks (a smaller --block) or a larger input, so that every SM has blocks "
         "waiting"});
    return;
  }
  if (achieved >= 100 * why_limits::kLowOccupancy) return;
  out.push_back({"low-achieved-occupancy",
                 fmt::format("Achieved occupancy {:.0f}%: on average fewer than half of an SM's warps were "
                             "resident to hide memory latency.",
                             achieved),
                 "more, smaller blocks (a smaller --block) or a larger input"});
}

void divergence(const WhyInput& in, const KernelCounters& c, std::vector<WhyFinding>& out) {
  const double efficiency = c.warp_execution_efficiency_pct;
  if (efficiency <= 0 || efficiency >= why_limits::kWarpEfficiencyPercent) return;
  out.push_back({"divergence",
                 fmt::format("Branch divergence: on average only {:.0f}% of a warp's 32 lanes run each "
                             "instruction; lanes of a warp take different branches and the warp runs each "
                             "branch in turn.",
                             efficiency),
                 code_fix(in, "branch on values the whole warp shares (e.g. per block, not per thread)")});
}

}  // namespace

void find_counter_pitfalls(const WhyInput& in, std::vector<WhyFinding>& out) {
  if (!in.counters) return;
  uncoalesced(in, *in.counters, out);
  bank_conflicts(in, *in.counters, out);
  achieved_occupancy(in, *in.counters, out);
  divergence(in, *in.counters, out);
}

}  // namespace ks::report::why
