#pragma once
// The text form of a RunReport: the timing table `run` prints (upload, kernel, download) and the lines around
// it. Free of CLI concerns like report_json.hpp, so the GUI's "copy as text" can use it too.
#include <string>

#include "report/table.hpp"
#include "engine/engine.hpp"

namespace ks::report {

// "box (variant tiled, block 32x8) on NVIDIA H100 via CUDA; image 1024x768, 4 ch, u8; 5 timed runs"
std::string run_heading(const RunReport& report);
// Rows upload / kernel / download; ms columns for all, bytes, GB/s, % of copy bandwidth and occupancy for the
// kernel. Upload and download read "-" on the CPU backend, where nothing is copied.
Table run_timing_table(const RunReport& report);
// "occupancy 75% (12 blocks of 256 threads per SM), limited by registers; 40 registers/thread, 2.30 kB shared
// memory per block (kernel stencil_tiled)"; empty without an occupancy report.
std::string occupancy_line(const RunReport& report);
// "75% (registers)" for table cells; "-" without one.
std::string occupancy_cell(const RunReport& report);
// "roofline: I op/B, R GOP/s, B GB/s = P% of the roof (DEVICE: KIND ceiling C GOP/s, MEMORY M GB/s)", e.g.
// KIND "u8 integer" and MEMORY "copy of 2 MiB (cached)": the ceiling of the run's own operations and of its
// bytes; empty when the peaks are unknown.
std::string roofline_line(const RooflineFigures& figures);
// Heading, table, occupancy and roofline lines together, each line ending in '\n'.
std::string run_report_text(const RunReport& report);

}  // namespace ks::report
