// SNDlib XML networks through pugixml: <meta> (time, unit), <networkStructure> (nodes with coordinates, links)
// and <demands>.
#include <fstream>
#include <pugixml.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "core/error.hpp"
#include "topo/inputs/sndlib.hpp"
#include "topo/inputs/text_lines.hpp"

namespace ks::topo {

namespace {

std::string text_of(const pugi::xml_node& node, const char* child) {
  return std::string(trim(node.child(child).text().as_string()));
}

// 1-based line of a byte offset into the file (pugixml reports offsets; people look for lines).
std::size_t line_of_offset(const std::filesystem::path& path, std::size_t offset) {
  std::ifstream in(path, std::ios::binary);
  std::size_t line = 1;
  for (std::size_t i = 0; i < offset && in; ++i)
    if (in.get() == '\n') ++line;
  return line;
}

}  // namespace

SndlibNetwork read_sndlib_xml(const std::filesystem::path& path) {
  const std::string name = path.string();
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_file(path.c_str());
  if (!parsed) {
    if (parsed.status == pugi::status_file_not_found || parsed.status == pugi::status_io_error)
      throw_io("cannot read '" + name + "'", "check the path and permissions");
    throw_io(name + " line " + std::to_string(line_of_offset(path, std::size_t(parsed.offset))) +
             ": not well-formed XML (" + parsed.description() + ")");
  }
  const pugi::xml_node network = doc.child("network");
  if (!network) throw_io(name + ": no <network> element", "is this an SNDlib XML file?");

  SndlibNetwork net;
  net.file = name;
  net.time = text_of(network.child("meta"), "time");
  net.unit = text_of(network.child("meta"), "unit");
  const pugi::xml_node structure = network.child("networkStructure");
  const pugi::xml_node nodes = structure.child("nodes");
  net.geographical = std::string(nodes.attribute("coordinatesType").as_string()) == "geographical";
  std::set<std::string> known;
  bool all_coordinates = true;
  for (const pugi::xml_node node : nodes.children("node")) {
    const std::string id = node.attribute("id").as_string();
    if (id.empty()) throw_io(name + ": a <node> has no id");
    if (!known.insert(id).second) throw_io(name + ": node '" + id + "' is listed twice");
    net.nodes.push_back(id);
    const pugi::xml_node c = node.child("coordinates");
    const auto x = parse_double(text_of(c, "x")), y = parse_double(text_of(c, "y"));
    if (x && y)
      net.coordinates.push_back({*x, *y});
    else
      all_coordinates = false;
  }
  if (net.nodes.empty()) throw_io(name + ": no <node> in <networkStructure><nodes>");
  if (!all_coordinates) net.coordinates.clear();
  if (net.coordinates.empty()) net.geographical = false;

  auto check_node = [&](const std::string& id, const std::string& what) {
    if (!known.count(id)) throw_io(name + ": " + what + " names node '" + id + "', which is not among the <nodes>");
  };
  for (const pugi::xml_node link : structure.child("links").children("link")) {
    SndlibNetwork::LinkEntry l{link.attribute("id").as_string(), text_of(link, "source"), text_of(link, "target")};
    check_node(l.source, "link '" + l.id + "'");
    check_node(l.target, "link '" + l.id + "'");
    net.links.push_back(std::move(l));
  }
  std::set<std::pair<std::string, std::string>> pairs;
  for (const pugi::xml_node demand : network.child("demands").children("demand")) {
    SndlibNetwork::Demand d;
    const std::string id = demand.attribute("id").as_string();
    d.source = text_of(demand, "source");
    d.target = text_of(demand, "target");
    check_node(d.source, "demand '" + id + "'");
    check_node(d.target, "demand '" + id + "'");
    if (!pairs.insert({d.source, d.target}).second)
      throw_io(name + ": a second demand from " + d.source + " to " + d.target + " (demand '" + id + "')",
               "give each directed pair once");
    const std::string value = text_of(demand, "demandValue");
    const auto v = parse_double(value);
    if (!v) throw_io(name + ": demand '" + id + "' has the value '" + value + "', which is not a number");
    if (*v < 0) throw_io(name + ": demand '" + id + "' is negative (" + value + ")");
    d.value = *v;
    d.exact = parse_decimal(value);
    net.demands.push_back(std::move(d));
  }
  return net;
}

TrafficSeries read_sndlib_xml_folder(const std::filesystem::path& folder) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".xml") files.push_back(entry.path());
  if (ec) throw_io("cannot list '" + folder.string() + "': " + ec.message());
  if (files.empty()) throw_io("'" + folder.string() + "' holds no .xml files", "expected SNDlib XML demand matrices");
  std::sort(files.begin(), files.end());

  std::vector<SndlibNetwork> nets;
  nets.reserve(files.size());
  std::map<std::string, std::string> file_of_time;
  for (const auto& f : files) {
    nets.push_back(read_sndlib_xml(f));
    const SndlibNetwork& net = nets.back();
    if (net.time.empty())
      throw_io(net.file + ": no <meta><time>", "every file of a folder needs its time to be put in order");
    if (auto [it, fresh] = file_of_time.emplace(net.time, net.file); !fresh)
      throw_io(net.file + " and " + it->second + " have the same time " + net.time,
               "each timestamp must come from one file");
  }
  // Times such as 20040301-0005 sort as text; this is the order the format's authors use.
  std::stable_sort(nets.begin(), nets.end(),
                   [](const SndlibNetwork& a, const SndlibNetwork& b) { return a.time < b.time; });

  TrafficSeries traffic = traffic_from_sndlib(nets.front(), folder.string() + " (SNDlib XML, " +
                                                                  std::to_string(nets.size()) + " files)");
  const std::size_t n = traffic.nodes.size();
  ExactValues all;
  traffic.timestamps.clear();
  for (const auto& net : nets) {
    if (net.nodes.size() != n)
      throw_io(net.file + " lists " + std::to_string(net.nodes.size()) + " nodes, " + nets.front().file + " " +
                   std::to_string(n),
               "every file of a folder must describe the same nodes");
    for (const auto& id : net.nodes)
      if (node_index(traffic, id) < 0)
        throw_io(net.file + " has node '" + id + "', which " + nets.front().file + " does not have",
                 "every file of a folder must describe the same nodes");
    add_demand_matrix(net, traffic, all);
    traffic.timestamps.push_back(net.time);
  }
  traffic.values = all.values();
  traffic.scaled = all.scaled();
  traffic.decimals = traffic.scaled ? all.decimals() : 0;
  return traffic;
}

}  // namespace ks::topo
