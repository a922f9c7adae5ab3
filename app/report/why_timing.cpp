// Timing pitfalls: transfers that dominate, managed memory's page faults, a first launch that loads the
// module.
#include <fmt/format.h>

#include "report/text_format.hpp"
#include "report/why_detectors.hpp"
#include "report/why_thresholds.hpp"

namespace ks::report::why {

namespace {

void transfers(const WhyInput& in, std::vector<WhyFinding>& out) {
  const double copies = in.upload_ms + in.download_ms;
  const double kernel = in.kernel_time.median_ms;
  if (in.backend != Backend::Cuda || copies <= 0 || kernel <= 0) return;
  if (copies < why_limits::kTransferFactor * kernel) return;
  const bool pageable = in.host == lab::HostMode::Pageable;
  std::string finding = fmt::format(
      "Moving the data takes {} ms (upload {} + download {}), {:.1f}x the kernel's {} ms{}: the copies, not "
      "the "
      "kernel, set the time, and no faster kernel can change much.",
      format_ms(copies), format_ms(in.upload_ms), format_ms(in.download_ms), copies / kernel,
      format_ms(kernel),
      pageable
          ? ", from pageable host memory (the driver stages every copy through a pinned buffer of its own)"
          : "");
  std::string fix;
  if (pageable)
    fix =
        "--host pinned (page-locked host arrays: the copy engine reads them directly, without the driver's "
        "staging copy)";
  if (in.host && in.streams == 1)
    fix += std::string(fix.empty() ? "" : "; then ") +
           "--streams 4 (chunks in 4 streams: one chunk's copies overlap another's kernel)";
  if (fix.empty())
    fix = in.host ? "keep the arrays on the GPU between kernels: fewer round trips, not a faster kernel"
                  : "keep the image on the GPU between kernels (the app does: its results reach the screen "
                    "through CUDA-GL interop without a download); a faster variant cannot help here";
  out.push_back({"transfers-dominate", std::move(finding), std::move(fix)});
}

void managed_faults(const WhyInput& in, std::vector<WhyFinding>& out) {
  if (in.host != lab::HostMode::Managed || in.kernel_time.median_ms <= 0) return;
  const double gbps = in.roofline.gbps;
  std::string finding = fmt::format(
      "With --host managed the arrays move to the GPU page by page while the kernel runs: its {} ms include "
      "the "
      "page faults",
      format_ms(in.kernel_time.median_ms));
  if (gbps > 0 && in.copy_bandwidth_gbps > 0)
    finding += fmt::format(" ({} GB/s, {} of the copy bandwidth)", format_gbps(gbps),
                           format_percent(100 * gbps / in.copy_bandwidth_gbps));
  finding += ".";
  out.push_back(
      {"managed-page-faults", std::move(finding),
       "--host managed-prefetch (the pages move to the GPU before the kernel, in one go), or --host "
       "pinned with explicit copies"});
}

void first_launch(const WhyInput& in, std::vector<WhyFinding>& out) {
  if (!in.first_launch_ms || in.kernel_time.median_ms <= 0) return;
  const double first = *in.first_launch_ms, median = in.kernel_time.median_ms;
  if (first < why_limits::kFirstLaunchFactor * median || first - median < why_limits::kFirstLaunchExtraMs)
    return;
  const char* what =
      in.backend == Backend::Cuda
          ? "loading the kernel's module (CUDA loads a module on its first use) and first-touch costs"
          : "first-touch page faults of the output and waking the worker threads";
  out.push_back(
      {"first-launch",
       fmt::format(
           "The first launch took {} ms, {:.0f}x the median of {} ms: it includes {}. A single timing "
           "would report that; the median of the timed runs does not.",
           format_ms(first), first / median, format_ms(median), what),
       in.family == "simulation" ? "read the median step time over many steps (--steps N), as the table "
                                   "does; never judge a kernel by "
                                   "its first step"
                                 : "time after a warm-up and read the median (--warmup 1, the default, then "
                                   "--repeat N); never judge a "
                                   "kernel by one launch"});
}

}  // namespace

void find_timing_pitfalls(const WhyInput& in, std::vector<WhyFinding>& out) {
  transfers(in, out);
  managed_faults(in, out);
  first_launch(in, out);
}

}  // namespace ks::report::why
