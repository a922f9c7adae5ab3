#include "inputs/topo_inputs.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "core/error.hpp"
#include "topo/inputs/numbers.hpp"
#include "topo/inputs/qaplib.hpp"
#include "topo/inputs/text_lines.hpp"
#include "topo/inputs/traffic_files.hpp"
#include "topo/inputs/traffic_generators.hpp"

namespace ks::inputs {

TopoInputs load_topo_inputs(const TopoSource& src) {
  const int given = int(!src.traffic.empty()) + int(!src.generate.empty()) + int(!src.qaplib.empty());
  if (given != 1)
    throw_usage(given == 0 ? "no traffic given" : "give only one of --traffic, --generate and --qaplib",
                "e.g. --traffic abilene.txt, --generate gravity:n=8,t=32 or --qaplib nug12.dat");
  TopoInputs in;
  const topo::Metric metric = topo::metric_from_string(src.metric);
  in.metric = src.metric;
  if (!src.qaplib.empty()) {
    if (!src.topologies.empty())
      throw_usage("--topology does not apply to --qaplib",
                  "a QAPLIB instance brings its own path costs (matrix A)");
    if (!std::filesystem::exists(src.qaplib)) throw_usage("no file '" + src.qaplib + "'", "check the path");
    const topo::QaplibInstance q = topo::read_qaplib(src.qaplib);
    in.traffic = topo::traffic_from_qaplib(q);
    in.configs.push_back(topo::configuration_from_qaplib(q));
    in.metric = "given";
    in.qaplib_instance = q.name;
    return in;
  }
  if (!src.traffic.empty()) {
    if (!std::filesystem::exists(src.traffic))
      throw_usage("no file or folder '" + src.traffic + "'", "check the path");
    in.traffic = topo::load_traffic(src.traffic);
  } else {
    in.traffic = topo::generate_traffic(src.generate);
  }
  if (src.topologies.empty()) {
    if (!in.traffic.own_links)
      throw_usage(in.traffic.source + " brings no links of its own",
                  "give --topology (e.g. ring, torus:4x2, a file)");
    in.configs.push_back(topo::own_links_configuration(in.traffic, metric));
  }
  for (const auto& t : src.topologies)
    for (auto& c : topo::load_topology(t, in.traffic, metric)) in.configs.push_back(std::move(c));
  return in;
}

namespace {

std::uint64_t parse_count(const std::string& text, const std::string& what) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-')
    throw_usage(fmt::format("{} '{}' is not a whole number", what, text));
  return v;
}

std::vector<std::vector<int>> read_placements_file(const std::filesystem::path& path,
                                                   const topo::TrafficSeries& traffic) {
  topo::TextLines text(path);
  std::vector<std::vector<int>> out;
  for (std::size_t i = 0; i < text.count(); ++i) {
    const std::string_view line = topo::strip_comment(text.line(i), '#');
    if (line.empty()) continue;
    std::string spaced(line);
    for (char& ch : spaced)
      if (ch == ',') ch = ' ';
    std::vector<int> p;
    std::vector<char> seen(traffic.nodes.size(), 0);
    for (std::string_view name : topo::split_blanks(spaced)) {
      const int node = topo::node_index(traffic, std::string(name));
      if (node < 0)
        text.fail(i, fmt::format("'{}' is not a node of {}", name, traffic.source),
                  "list node names as the traffic names them, one placement per line");
      if (seen[std::size_t(node)])
        text.fail(i, fmt::format("node '{}' is placed twice", name), "every node exactly once");
      seen[std::size_t(node)] = 1;
      p.push_back(node);
    }
    if (p.size() != traffic.nodes.size())
      text.fail(i, fmt::format("{} nodes placed, the traffic has {}", p.size(), traffic.nodes.size()),
                "a placement lists every node once");
    out.push_back(std::move(p));
  }
  if (out.empty())
    text.fail_file("no placement in the file", "one placement per line: node names in position order");
  return out;
}

}  // namespace

void apply_placements(const std::string& arg, const topo::TrafficSeries& traffic,
                      topo::EvalRequest& request) {
  if (arg == "all") {
    request.mode = topo::PlacementMode::All;
  } else if (arg == "identity") {
    request.mode = topo::PlacementMode::Given;
    std::vector<int> id(traffic.nodes.size());
    for (std::size_t i = 0; i < id.size(); ++i) id[i] = int(i);
    request.placements = {id};
  } else if (arg.rfind("sample:", 0) == 0) {
    request.mode = topo::PlacementMode::Sample;
    request.samples = parse_count(arg.substr(7), "sample count");
    if (request.samples == 0) throw_usage("sample:0 samples nothing", "give sample:N with N >= 1");
  } else if (std::filesystem::is_regular_file(arg)) {
    request.mode = topo::PlacementMode::Given;
    request.placements = read_placements_file(arg, traffic);
  } else {
    throw_usage("--placements '" + arg + "' is neither all, sample:N, identity, search nor a file",
                "check the spelling or path");
  }
}

void apply_range(const std::string& arg, topo::EvalRequest& request) {
  const auto colon = arg.find(':');
  if (colon == std::string::npos)
    throw_usage("--range '" + arg + "' is not START:END", "e.g. --range 0:1000000");
  request.range_begin = parse_count(arg.substr(0, colon), "range start");
  const std::string end = arg.substr(colon + 1);
  request.range_end = end.empty() ? 0 : parse_count(end, "range end");
  if (!end.empty() && request.range_end <= request.range_begin)
    throw_usage("--range " + arg + " is empty", "give START < END");
}

}  // namespace ks::inputs
