#include "report/user_lab_report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "lab/lab_kernel.hpp"

namespace ks::report {

lab::LabReport user_array_lab_report(const UserRunContext& c, const UserLabRun& u) {
  const usercode::WorkerReply& reply = u.run->reply;
  const std::int64_t n = u.size.n();
  const std::uint64_t element = dtype_size(u.form.element);
  const std::uint64_t in_bytes = static_cast<std::uint64_t>(u.form.inputs) * static_cast<std::uint64_t>(n) * element;
  const std::uint64_t out_bytes = u.run->output.size();
  lab::LabReport r;
  r.kernel = u.lab_kernel->id;
  r.variant = c.file_name;
  r.backend = Backend::Cuda;
  r.device = c.device;
  r.size = u.size;
  r.params = c.params;
  r.block = BlockShape{static_cast<int>(u.run->block), 1};
  r.seed = u.seed;
  r.warmup = u.warmup;
  r.upload_time = TimingStats::of({reply.upload_ms});
  r.kernel_time = TimingStats::of(reply.kernel_ms);
  r.download_time = TimingStats::of({reply.download_ms});
  r.end_to_end_time = TimingStats::of({reply.upload_ms + r.kernel_time.median_ms + reply.download_ms});
  if (reply.upload_ms > 0) r.upload_gbps = double(in_bytes) / (reply.upload_ms * 1e6);
  if (reply.download_ms > 0) r.download_gbps = double(out_bytes) / (reply.download_ms * 1e6);
  const lab::LabInfo& info = u.lab_kernel->lab->info();
  r.cost.bytes = in_bytes + out_bytes;
  r.cost.operations = u.lab_kernel->lab->cost(u.size, *u.lab_params).operations;
  r.operation_kind = info.operations;
  r.copy_bandwidth_gbps = c.copy_bandwidth_gbps;
  if (c.device_info) r.occupancy = user_occupancy(*c.kernel, reply.attributes, *c.device_info, {u.run->block, 1});
  if (r.occupancy && c.device_info) {
    lab::LaunchGeometry g;
    g.grid_x = u.run->grid;
    g.block = *r.block;
    g.work_items = n;
    g.occupancy = *r.occupancy;
    r.launch = lab::launch_arithmetic(g, c.device_info->sm_count);
    r.launch->kernel_name = c.kernel->entry_facts().name;
  }
  // The worker times the upload, the launches and the download one after another: the timeline puts them end to
  // end as they ran (one stream, one chunk).
  const double upload_end = reply.upload_ms, kernel_end = upload_end + r.kernel_time.median_ms;
  r.timeline = {{"upload", 0, 0, 0, upload_end, in_bytes},
                {"kernel", 0, 0, upload_end, kernel_end, 0},
                {"download", 0, 0, kernel_end, kernel_end + reply.download_ms, out_bytes}};
  lab::fill_rates(r, &c.peaks);
  if (reply.counters) {
    r.counters = reply.counters->counters;
    r.counters_unavailable = reply.counters->unavailable;
  }
  return r;
}

lab::LabCheck lab_check_of(const usercode::Comparison& comparison, const std::string& reference_label) {
  lab::LabCheck check;
  check.checked = true;
  check.agrees = comparison.matches();
  check.max_abs_error = comparison.max_abs_diff;
  if (comparison.max_at && comparison.max_at->expected != 0)
    check.max_rel_error = comparison.max_abs_diff / std::abs(comparison.max_at->expected);
  check.bound = comparison.tolerance.rel;  // with the absolute part in the detail
  check.detail = fmt::format("against {} within {}: {}", reference_label,
                             usercode::tolerance_text(comparison.tolerance), usercode::comparison_summary(comparison));
  return check;
}

}  // namespace ks::report
