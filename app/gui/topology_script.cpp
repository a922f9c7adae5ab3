#include "gui/topology_script.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "session/session.hpp"
#include "session/topology/topology_document.hpp"

namespace ks::gui {

namespace {

std::string words(std::string s) {
  for (char& c : s)
    if (c == ' ') c = '_';
  return s;
}

std::string status(app::TopologyDocument& doc) {
  std::string line = fmt::format("topo nodes={} placements={}",
                                 doc.has_traffic() ? doc.inputs()->traffic.node_count() : 0,
                                 doc.settings().placements);
  if (const app::SweepForecast* f = doc.forecast()) {
    if (!f->error.empty()) line += " forecast_error=" + words(f->error);
    line += " evaluations=" + words(app::evaluation_count_text(f->evaluations));
    line += " per_pass=" + fmt::format("{:.4g}", double(f->evaluations_per_pass));
    line += f->seconds ? fmt::format(" estimate_s={:.3g}", *f->seconds) : std::string(" estimate_s=none");
  }
  const app::Worker::Status job = doc.job_status();
  line += std::string(" busy=") + (job.busy ? "on" : "off");
  if (job.busy) line += " progress=" + words(job.label + ": " + job.detail);
  line += std::string(" result=") + (doc.run_result() ? "yes" : "no");
  return line;
}

}  // namespace

bool run_topology_command(const QStringList& w, app::Session& session, bool& wait_for_topology) {
  if (w[0] != "topo") return false;
  app::TopologyDocument& doc = session.topology();
  const QString sub = w.size() > 1 ? w[1] : QString();
  if (sub == "placements") {
    if (w.size() < 3) throw_usage("topo placements needs all, sample:N, identity or search");
    doc.settings().placements = w[2].toStdString();
    doc.check_settings();
  } else if (sub == "generate") {
    if (w.size() < 3) throw_usage("topo generate needs a generator spec (gravity:n=12,t=1,seed=1, ...)");
    doc.generate_traffic(w[2].toStdString());
  } else if (sub == "add") {
    if (w.size() < 3) throw_usage("topo add needs a topology spec or file (ring, torus:4x3, ...)");
    doc.add_topology(w[2].toStdString());
  } else if (sub == "time-limit") {
    bool ok = false;
    const double s = w.size() > 2 ? w[2].toDouble(&ok) : 0;
    if (!ok || s < 0) throw_usage("topo time-limit needs seconds (0: none)");
    doc.settings().max_time_s = s;
  } else if (sub == "run") {
    doc.run();
  } else if (sub == "wait") {
    wait_for_topology = true;
  } else if (sub == "cancel") {
    doc.cancel();
  } else if (sub == "print") {
    doc.poll();  // what the worker posted (the window polls only while the panel shows)
    std::puts(status(doc).c_str());
    std::fflush(stdout);
  } else {
    throw_usage("unknown topo command '" + sub.toStdString() + "'", "generate SPEC, add SPEC, placements SPEC, time-limit S, run, wait, cancel, print");
  }
  return true;
}

}  // namespace ks::gui
