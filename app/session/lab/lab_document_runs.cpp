// The Lab document's work on the session's worker: a run of the current request and the size sweep. Jobs read
// only what they captured and the engine; their results come back as closures that Session::poll() runs.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "engine/engine.hpp"
#include "session/lab/lab_document.hpp"
#include "session/lab/lab_job_control.hpp"

namespace ks::app {

namespace {

std::string size_words(const lab::LabSize& s) {
  return s.form == lab::SizeForm::Elements ? lab::short_text(s.n()) : lab::to_string(s);
}

}  // namespace

void LabDocument::run() {
  if (user_) return submit_user_run();
  const lab::LabRequest request = request_;
  const std::string variant = effective_variant();
  const std::string key = lab_request_key(request, variant, effective_size());
  const std::shared_ptr<const Image> image = takes_image() ? image_ : nullptr;
  if (takes_image() && !image)
    throw_usage(spec().id + " works on an image and none is loaded", "open an image");
  ++runs_in_flight_;
  const std::string label = fmt::format("Lab: {} ({}) at {} on the {}", request.kernel, variant,
                                        size_words(effective_size()), to_string(request.backend));
  worker_.submit(
      "lab-run", label,
      [this, request, key, image](Worker::Context& ctx) {
        try {
          lab::LabRequest r = request;
          if (image) r.image = *image;
          JobControl job(ctx, [&ctx](double f, const std::string& stage) { ctx.set_progress(f, stage); });
          lab::LabResult result = lab::run_lab(engine_, r, job.control);
          ctx.post([this, key, result = std::move(result)]() mutable {
            --runs_in_flight_;
            apply_run(std::move(result), key);
          });
        } catch (const Error& e) {
          ctx.post([this, e] { fail_run(e); });
        } catch (
            const std::exception& e) {  // out of memory and the like: the Lab section must not wait forever
          ctx.post([this, what = std::string(e.what())] {
            --runs_in_flight_;
            last_error_ =
                Error(ErrorKind::Internal, "the lab run failed: " + what, "this is a bug of kernelscope");
          });
        }
      },
      /*replace_waiting=*/false);
}

void LabDocument::fail_run(const Error& e) {
  --runs_in_flight_;
  if (e.kind() == ErrorKind::Cancelled) {
    if (hooks_.notify) hooks_.notify(false, "lab run cancelled");
    return;
  }
  last_error_ = e;
  if (hooks_.notify) hooks_.notify(true, e.full_message());
}

void LabDocument::apply_run(lab::LabResult result, const std::string& key) {
  // A run of a kernel no longer chosen still counts (the Roofline plots it), but is not the one shown.
  const bool shown = active() && result.report.kernel == spec_->id;
  if (shown) last_error_.reset();
  LabRun run;
  run.number = ++runs_finished_;
  run.key = key;
  run.report = std::move(result.report);
  // One kept report per request: a new run of the same request replaces the old one and moves to the end.
  runs_.erase(std::remove_if(runs_.begin(), runs_.end(), [&](const LabRun& r) { return r.key == key; }),
              runs_.end());
  runs_.push_back(run);
  if (runs_.size() > kKeptRuns) runs_.erase(runs_.begin());
  if (!shown) return;
  last_run_ = std::move(run);
  if (result.image) {
    result_image_ = std::make_shared<const Image>(std::move(*result.image));
    result_generation_ =
        hooks_.next_frame_generation ? hooks_.next_frame_generation() : result_generation_ + 1;
  }
}

void LabDocument::start_sweep() {
  const lab::LabInfo& lab_info = info();
  if (sweep_ && sweep_->running) throw_usage("a size sweep is already running", "wait for it or cancel it");
  LabSweep sweep;
  sweep.kernel = lab_info.id;
  sweep.backend = request_.backend;
  sweep.sizes = lab_sweep_sizes(lab_info, effective_size());
  for (const auto& v : lab_info.variants)
    if (v.backend == request_.backend) sweep.variants.push_back(v.name);
  sweep.running = true;
  sweep_ = sweep;

  // Every point runs the current request at another size and variant: the timing only (no CPU reference),
  // the variant's default block, one stream.
  lab::LabRequest base = request_;
  base.check = false;
  base.repeat = options_.sweep_repeat;
  base.block.reset();
  base.streams = 1;
  base.chunks = 0;
  worker_.submit(
      "lab-sweep", fmt::format("Lab: sweeping sizes of {}", lab_info.id),
      [this, base, sweep](Worker::Context& ctx) {
        const std::size_t total = sweep.sizes.size() * sweep.variants.size();
        std::size_t done = 0;
        bool cancelled = false;
        for (const lab::LabSize& size : sweep.sizes) {
          for (const std::string& variant : sweep.variants) {
            if (ctx.cancelled()) {
              cancelled = true;
              break;
            }
            const std::string where = fmt::format("{} at {}", variant, size_words(size));
            ctx.set_progress(double(done) / double(total),
                             fmt::format("{}, {} of {}", where, done + 1, total));
            lab::LabRequest r = base;
            r.size = size;
            r.variant = variant;
            try {
              JobControl job(ctx, {});
              const lab::LabResult result = lab::run_lab(engine_, r, job.control);
              LabSweepPoint p{variant, size, result.report.kernel_time.median_ms,
                              result.report.end_to_end_time.median_ms};
              ctx.post([this, p] {
                if (sweep_) sweep_->points.push_back(p);
              });
            } catch (const Error& e) {
              if (e.kind() == ErrorKind::Cancelled) {
                cancelled = true;
                break;
              }
              ctx.post([this, text = where + ": " + e.full_message()] {
                if (sweep_) sweep_->failures.push_back(text);
              });
            }
            ++done;
          }
          if (cancelled) break;
        }
        ctx.post([this, cancelled] {
          if (!sweep_) return;
          sweep_->running = false;
          sweep_->complete = !cancelled;
          if (cancelled && hooks_.notify)
            hooks_.notify(false, "size sweep cancelled; the points measured so far are kept");
        });
      },
      /*replace_waiting=*/false);
}

}  // namespace ks::app
