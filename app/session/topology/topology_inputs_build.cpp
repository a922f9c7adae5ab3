// Building the Topology document's inputs: traffic from a file or a generator, configurations from their
// sources for that traffic and metric. What `kernelscope-cli topo` does in cli/topo_inputs.cpp, but
// incremental: the user adds topologies one at a time and swaps the traffic under them, so sources are kept
// and rebuilt.
#include "session/topology/topology_inputs_build.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/error.hpp"
#include "session/topology/topology_document.hpp"
#include "topo/inputs/qaplib.hpp"
#include "topo/inputs/traffic_files.hpp"
#include "topo/inputs/traffic_generators.hpp"

namespace ks::app {

void build_configurations(TopologyInputs& in, bool drop_misfits) {
  const topo::Metric metric = topo::metric_from_string(in.metric);
  in.configs.clear();
  in.config_source.clear();
  std::vector<TopologySource> kept;
  for (const TopologySource& src : in.sources) {
    std::vector<topo::Configuration> made;
    try {
      if (src.fixed) {
        topo::Configuration c = *src.fixed;
        if (std::string note = topo::align_to_traffic(c, in.traffic, c.name); !note.empty())
          c.notes.push_back(note);
        made.push_back(std::move(c));
      } else if (src.text == kOwnLinks) {
        made.push_back(topo::own_links_configuration(in.traffic, metric));
      } else {
        made = topo::load_topology(src.text, in.traffic, metric);
      }
    } catch (const Error& e) {
      if (!drop_misfits) throw;
      in.notes.push_back(fmt::format("{} was dropped: {}", src.text, e.full_message()));
      continue;
    }
    for (topo::Configuration& c : made) {
      for (const std::string& note : c.notes) in.notes.push_back(note);
      in.configs.push_back(std::move(c));
      in.config_source.push_back(int(kept.size()));
    }
    kept.push_back(src);
  }
  in.sources = std::move(kept);
}

namespace {

// The sources that carry over to new traffic: families and files, not the previous traffic's own links or
// QAPLIB matrix.
std::vector<TopologySource> portable_sources(const TopologyInputs* previous) {
  std::vector<TopologySource> out;
  if (!previous) return out;
  for (const TopologySource& s : previous->sources)
    if (!s.fixed && s.text != kOwnLinks) out.push_back(s);
  return out;
}

bool is_qaplib(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".dat" && std::filesystem::is_regular_file(path);
}

TopologyInputs with_traffic(topo::TrafficSeries traffic, const TopologyInputs* previous) {
  TopologyInputs in;
  in.metric = previous ? previous->metric : "hops";
  in.traffic = std::move(traffic);
  in.sources = portable_sources(previous);
  if (in.traffic.own_links) in.sources.insert(in.sources.begin(), TopologySource{kOwnLinks, std::nullopt});
  build_configurations(in, true);
  return in;
}

}  // namespace

TopologyInputs inputs_from_file(const std::filesystem::path& path, const TopologyInputs* previous) {
  if (!std::filesystem::exists(path))
    throw_usage("no file or folder '" + path.string() + "'", "check the path");
  if (is_qaplib(path)) {
    const topo::QaplibInstance q = topo::read_qaplib(path);
    TopologyInputs in;
    in.metric = previous ? previous->metric : "hops";
    in.traffic = topo::traffic_from_qaplib(q);
    topo::Configuration a = topo::configuration_from_qaplib(q);
    in.sources.push_back({a.name, std::move(a)});
    in.qaplib_instance = q.name;
    in.qaplib_file = path.string();
    build_configurations(in, false);
    return in;
  }
  return with_traffic(topo::load_traffic(path), previous);
}

TopologyInputs inputs_from_generator(const std::string& spec, const TopologyInputs* previous) {
  return with_traffic(topo::generate_traffic(spec), previous);
}

TopologyInputs sample_inputs() {
  TopologyInputs in;
  in.traffic = topo::generate_traffic(kSampleTraffic);
  for (const char* t : kSampleTopologies) in.sources.push_back({t, std::nullopt});
  build_configurations(in, false);
  return in;
}

}  // namespace ks::app
