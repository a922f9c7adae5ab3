#include "session/lab/lab_commands.hpp"

#include <fmt/format.h>

#include "report/text_format.hpp"
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"

namespace ks::app {

namespace {

LabDocument& lab_of(Session& s) {
  if (!s.in_lab()) throw_usage("no lab kernel is chosen", "choose one first, e.g. kernel vecadd");
  return s.lab();
}

}  // namespace

void lab_run(Session& s) {
  lab_of(s).run();
}
void lab_sweep(Session& s) {
  lab_of(s).start_sweep();
}
void lab_set_size(Session& s, const std::string& text) {
  lab_of(s).set_size_text(text);
}

std::string lab_status_line(const Session& session) {
  if (!session.in_lab()) throw_usage("no lab kernel is chosen", "choose one first, e.g. kernel vecadd");
  const LabDocument& lab = session.lab();
  std::string line = fmt::format("lab kernel={} runs={}", lab.spec().id, lab.runs().size());
  if (const auto& run = lab.last_run()) {
    const lab::LabCheck& c = run->report.check;
    line += fmt::format(" last={}@{} check={}", run->report.variant, lab::to_string(run->report.size),
                        !c.checked ? "unchecked"
                        : c.agrees ? "agrees"
                                   : "disagrees");
  } else {
    line += " last=none";
  }
  const Image* image = lab.result_image();
  line += image ? fmt::format(" image={}x{}", image->width(), image->height()) : std::string(" image=none");
  if (const auto& sw = lab.sweep(); sw && sw->kernel == lab.spec().id)
    line += fmt::format(" sweep={}/{} {}", sw->points.size(), sw->sizes.size() * sw->variants.size(),
                        sw->running    ? "running"
                        : sw->complete ? "complete"
                                       : "cancelled");
  else
    line += " sweep=none";
  line += " user=" + (lab.user_kernel() ? lab.user_kernel()->file_name : std::string("none"));
  if (lab.last_error()) line += " error=" + lab.last_error()->full_message();  // last: it has spaces
  return line;
}

std::string lab_status_bar_text(const Session& session) {
  const auto& run = session.lab().last_run();
  if (!run) return "lab: press Run";
  return fmt::format("{} {} {} ms", run->report.kernel, run->report.variant,
                     report::format_ms(run->report.kernel_time.median_ms));
}

}  // namespace ks::app
