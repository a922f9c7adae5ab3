#pragma once
// Where the "Why" explainer draws its lines. Each value is a judgement, said here with its reason, so that a
// finding means the same in the CLI, the JSON and the app, and a test can take the other side of each line.
namespace ks::report::why_limits {

// Uncoalesced access: a warp whose 32 lanes each read the next element of B bytes touches 32 * B / 32 = B
// sectors of 32 bytes (at least 1). Up to twice that is what an unaligned row start or a window's shifted tap
// costs anyway (the warp straddles one more sector per 32-byte run); beyond it the lanes scatter.
inline constexpr double kUncoalescedFactor = 2.0;
// Where a variant's load width is not known (vector loads of 4 to 16 bytes a lane: the tiled and separable
// stencils, the lab's kernels): a warp of 16-byte lanes reading one run needs 512 bytes, 16 sectors, and the
// same slack as above applies to it. Recorded on an H100 (tests/fixtures/why, docs/PERF.md "Counters against
// Nsight Compute"), coalesced kernels of this kind go past 16: the separable u8 box 16.2 sectors per request,
// the tiled f32 box 18.75, the separable f32 Gaussian 19.03; the first limit, 16, called them uncoalesced.
// Above twice 16, no coalesced load of any width explains the sectors.
inline constexpr double kUncoalescedSectorsUnknownWidth = kUncoalescedFactor * 16.0;

// Bank conflicts: extra shared-memory wavefronts per shared instruction. 0 is conflict-free; 1 means every
// instruction replays once (a 2-way conflict throughout). Above a quarter the replays cost a visible share
// of the shared-memory bandwidth the tile was meant to save.
inline constexpr double kBankConflictsPerInstruction = 0.25;

// Occupancy below half of the SM's warps leaves too few warps to hide memory latency in a memory-bound
// kernel (each SM then has fewer than 32 warps to switch between while loads are in flight).
inline constexpr double kLowOccupancy = 0.5;
// Achieved occupancy this far below the theoretical one means warps were not there to run (blocks ending at
// different times, a partial last wave, a grid too small), not that resources limited them.
inline constexpr double kAchievedBelowTheoreticalPoints = 20.0;
// A block is worth naming only if it raises the theoretical occupancy by this much (one SM's 64 warps: 6 or
// more warps more).
inline constexpr double kOccupancyGainPoints = 10.0;
// A run this close to its roof is not held back by occupancy or launch shape: nothing to fix there.
inline constexpr double kNearRoofPercent = 70.0;

// Branch divergence: below this share of a warp's lanes running each instruction, a fifth of the lanes sit
// out on average — more than the idle lanes of image edges ever cost at the sizes the app runs.
inline constexpr double kWarpEfficiencyPercent = 80.0;

// Tail effect: the last, partial wave of blocks leaves SMs idle. Named when the idle share of the slots over
// all waves (1 - waves / ceil(waves)) is at least this: a tenth of the GPU's time spent waiting.
inline constexpr double kTailIdleShare = 0.10;

// Transfers dominate when upload + download take at least this many times the kernel: then no kernel
// variant can change the total by much.
inline constexpr double kTransferFactor = 2.0;

// The first launch is an outlier when it takes this many times the median and at least this much longer:
// smaller gaps are clock ramp-up and noise, not loading.
inline constexpr double kFirstLaunchFactor = 3.0;
inline constexpr double kFirstLaunchExtraMs = 0.5;

// Far below the roof: under half of the ceiling that applies, there is at least 2x to gain before the
// hardware, not the code, is the limit.
inline constexpr double kFarBelowRoofPercent = 50.0;

}  // namespace ks::report::why_limits
