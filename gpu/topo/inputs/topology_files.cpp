// Topology files and the --topology argument.
//
// Next-hop tables and path-cost matrices are text files of this form (`#` starts a comment):
//   nexthop                  or  pathcost         what the tables hold
//   nodes A B C D            optional: position names (next hops may then be names)
//   config NAME              starts a table; optional when the file holds one
//   B B C D                  n rows of n entries; row i, entry j: the first hop from i toward j (nexthop), or
//   ...                      the cost of the route from i to j (pathcost). On a next-hop diagonal: i or '-'.
// SNDlib files (native or XML) give their links.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "core/error.hpp"
#include "topo/inputs/numbers.hpp"
#include "topo/inputs/sndlib.hpp"
#include "topo/inputs/text_lines.hpp"
#include "topo/inputs/topology.hpp"

namespace ks::topo {

namespace {

struct Table {
  std::string name;
  std::size_t line = 0;
  std::vector<std::vector<std::string_view>> rows;
  std::vector<std::size_t> row_lines;
};

std::vector<Configuration> read_table_file(const std::filesystem::path& path) {
  TextLines text(path);
  std::string kind;
  std::vector<std::string> names;
  std::vector<Table> tables;
  for (std::size_t i = 0; i < text.count(); ++i) {
    const std::string_view l = strip_comment(text.line(i), '#');
    if (l.empty()) continue;
    const auto t = split_blanks(l);
    if (kind.empty()) {
      if (t.size() != 1 || (t[0] != "nexthop" && t[0] != "pathcost"))
        text.fail(i, "expected `nexthop` or `pathcost` first, found '" + std::string(l) + "'");
      kind = std::string(t[0]);
      continue;
    }
    if (t[0] == "nodes") {
      if (!names.empty()) text.fail(i, "a second `nodes` line");
      if (!tables.empty()) text.fail(i, "`nodes` must come before the tables");
      for (std::size_t k = 1; k < t.size(); ++k) names.emplace_back(t[k]);
      continue;
    }
    if (t[0] == "config") {
      if (t.size() != 2) text.fail(i, "write `config NAME` (one word)");
      tables.push_back({std::string(t[1]), i, {}, {}});
      continue;
    }
    if (tables.empty()) tables.push_back({path.filename().string(), i, {}, {}});
    tables.back().rows.push_back(t);
    tables.back().row_lines.push_back(i);
  }
  if (kind.empty()) text.fail_file("the file is empty");
  if (tables.empty()) text.fail_file("no table", "after `" + kind + "`, give n rows of n entries");

  std::vector<Configuration> out;
  for (const Table& tb : tables) {
    const std::size_t n = tb.rows.size();
    if (n < 2) text.fail(tb.line, fmt::format("table '{}' has {} row(s)", tb.name, n));
    if (!names.empty() && names.size() != n)
      text.fail(tb.line, fmt::format("table '{}' has {} rows for the {} nodes named", tb.name, n, names.size()));
    for (std::size_t r = 0; r < n; ++r)
      if (tb.rows[r].size() != n)
        text.fail(tb.row_lines[r], fmt::format("{} entries in a row of a {} x {} table", tb.rows[r].size(), n, n));
    const std::string config_name = tables.size() == 1 && tb.name == path.filename().string()
                                        ? tb.name
                                        : path.filename().string() + ":" + tb.name;
    Configuration c;
    if (kind == "nexthop") {
      std::vector<int> next(n * n);
      for (std::size_t r = 0; r < n; ++r)
        for (std::size_t k = 0; k < n; ++k) {
          const std::string_view e = tb.rows[r][k];
          int v = -1;
          if (e == "-" && r == k) {
            v = int(r);
          } else if (auto it = std::find(names.begin(), names.end(), e); it != names.end()) {
            v = int(it - names.begin());
          } else if (auto d = parse_decimal(e); d && d->decimals == 0 && d->mantissa >= 0 && d->mantissa < (long long)n) {
            v = int(d->mantissa);
          } else {
            text.fail(tb.row_lines[r], fmt::format("entry {} ('{}') is not a position 0 .. {}{}", k + 1, e, n - 1,
                                                   names.empty() ? "" : " or a node name"));
          }
          if (r == k && v != int(r))
            text.fail(tb.row_lines[r], fmt::format("the diagonal entry of row {} must be {} or '-'", r, r));
          next[r * n + k] = v;
        }
      c = configuration_from_next_hops(next, int(n), config_name, names);
    } else {
      ExactValues v;
      for (std::size_t r = 0; r < n; ++r)
        for (std::size_t k = 0; k < n; ++k) {
          const std::string_view e = tb.rows[r][k];
          const auto x = parse_double(e);
          if (!x) text.fail(tb.row_lines[r], fmt::format("entry {} ('{}') is not a number", k + 1, e));
          if (*x < 0) text.fail(tb.row_lines[r], fmt::format("entry {} is negative ({})", k + 1, e),
                                "path costs must be zero or more");
          v.add(*x, parse_decimal(e));
        }
      c.name = config_name;
      c.metric = "given";
      c.cost = v.values();
      c.scaled = v.scaled();
      c.decimals = c.scaled ? v.decimals() : 0;
    }
    c.position_names = names;
    out.push_back(std::move(c));
  }
  return out;
}

Network network_of_sndlib(const SndlibNetwork& net) {
  Network out;
  out.positions = out.vertices = int(net.nodes.size());
  out.vertex_names = net.nodes;
  out.coordinates = net.coordinates;
  out.geographical = net.geographical;
  auto index = [&](const std::string& id) { return int(std::find(net.nodes.begin(), net.nodes.end(), id) - net.nodes.begin()); };
  for (const auto& l : net.links) {
    Link link{index(l.source), index(l.target), l.id, std::nullopt};
    if (!net.coordinates.empty())
      link.weight = link_length(net.coordinates[std::size_t(link.a)], net.coordinates[std::size_t(link.b)],
                                net.geographical);
    out.links.push_back(std::move(link));
  }
  return out;
}

std::string first_word(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const auto l = strip_comment(line, '#');
    if (!l.empty()) return std::string(split_blanks(l)[0]);
  }
  return {};
}

}  // namespace

std::vector<Configuration> load_topology(const std::string& arg, const TrafficSeries& traffic, Metric metric) {
  std::vector<Configuration> configs;
  std::error_code ec;
  const std::filesystem::path path(arg);
  if (std::filesystem::is_regular_file(path, ec)) {
    const std::string word = first_word(path);
    if (word == "nexthop" || word == "pathcost") {
      configs = read_table_file(path);
      if (metric == Metric::Weighted && word == "nexthop")
        throw_usage(arg + " holds next-hop tables, which carry no link lengths", "use --metric hops");
    } else {
      const bool xml = path.extension() == ".xml";
      if (!xml && !looks_like_sndlib_native(path))
        throw_io("'" + arg + "' is neither an SNDlib network nor a nexthop/pathcost file",
                 "see `kernelscope-cli topo --help` for the topology formats");
      const SndlibNetwork net = xml ? read_sndlib_xml(path) : read_sndlib_native(path);
      if (net.links.empty()) throw_io(arg + " has no links", "give a file with a LINKS section");
      configs.push_back(configuration_from_network(network_of_sndlib(net), metric, path.filename().string() + " links"));
    }
  } else if (std::filesystem::exists(path, ec)) {
    throw_usage("'" + arg + "' is not a file", "--topology takes a file or a spec such as torus:4x2");
  } else {
    const bool looks_like_path = arg.find('/') != std::string::npos || arg.find('.') != std::string::npos;
    try {
      configs = configurations_from_spec(arg, traffic.node_count(), metric);
    } catch (const Error& e) {
      if (looks_like_path && e.kind() == ErrorKind::Usage && std::string(e.what()).find("unknown topology family") != std::string::npos)
        throw_usage("no file '" + arg + "'", "check the path; or give a built-in topology such as ring or torus:4x2");
      throw;
    }
  }
  for (auto& c : configs) {
    if (const std::string note = align_to_traffic(c, traffic, "topology '" + c.name + "'"); !note.empty())
      c.notes.push_back(note);
  }
  return configs;
}

}  // namespace ks::topo
