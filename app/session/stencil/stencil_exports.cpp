// The stencil document's exports: the result on screen in the file's layout with its sidecar (at once, or on
// the worker with progress and Cancel), and the timing history.
#include <fmt/format.h>

#include "inputs/image_files.hpp"
#include "session/stencil/stencil_document.hpp"

namespace ks::app {

void StencilDocument::export_result(const std::filesystem::path& path, const SaveOptions& options,
                                    const std::string& display_path) const {
  ks::app::export_result(inputs::to_file_layout(output_on_host(), loaded_shape_), path, options,
                         provenance(display_path));
}

ResultProvenance StencilDocument::provenance(const std::string& display_path) const {
  if (!has_output() || !last_report_) throw_usage("there is no result to export yet", "run a kernel first");
  ResultProvenance p;
  p.input = input_name_;
  p.input_shape = loaded_shape_;
  p.report = *last_report_;
  p.history = history_.summary(last_report_->kernel);
  p.cpu_reference = cpu_reference_;
  p.display_path = display_path;
  return p;
}

void StencilDocument::export_result_async(const std::filesystem::path& path, const SaveOptions& options,
                                          const std::string& display_path) {
  const std::string sidecar = sidecar_path_for(path).filename().string();
  // What is exported is the result of now: the job holds it (and its provenance) whatever runs after.
  worker_.submit(
      "export", "Exporting " + path.filename().string(),
      [this, path, options, sidecar, p = provenance(display_path), host = output_, device = output_device_,
       shape = loaded_shape_](Worker::Context& ctx) {
        try {
          SaveOptions o = options;
          o.progress = [&ctx](double fraction) {
            ctx.set_progress(fraction, fmt::format("{:.0f}% written", fraction * 100));
            return !ctx.cancelled();
          };
          ks::app::export_result(inputs::to_file_layout(host ? *host : download_device_image(device), shape), path,
                                 o, p);
          ctx.post([this, path, sidecar] {
            notify(Notice::Level::Info, Notice::Source::Export, "exported " + path.string() + " and " + sidecar);
          });
        } catch (const Error& e) {
          const bool cancelled = e.kind() == ErrorKind::Cancelled;
          ctx.post([this, path, cancelled, text = e.full_message()] {
            if (cancelled)
              notify(Notice::Level::Cancelled, Notice::Source::Export, "exporting " + path.string() + " was cancelled");
            else
              notify(Notice::Level::Error, Notice::Source::Export, text);
          });
        }
      },
      /*replace_waiting=*/false);
}

void StencilDocument::export_timings(const std::filesystem::path& path) const {
  if (history_.empty()) throw_usage("there are no timings to export yet", "run a kernel first");
  ks::app::export_timings(path, history_.all(), device_.cuda ? device_.info.name : device_.cpu,
                          device_.copy_bandwidth_gbps);
}

}  // namespace ks::app
