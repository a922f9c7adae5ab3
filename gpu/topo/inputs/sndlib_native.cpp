// The SNDlib native format: sections `NAME ( ... )`, one entry per line, `#` comments, and parenthesised groups
// inside entries, e.g. `ATLAM5_ATLAng ( ATLAng ATLAM5 ) 9920.00 0.00 0.00 0.00 ( 40000.00 133.00 )`.
#include <fstream>
#include <map>

#include "core/error.hpp"
#include "topo/inputs/sndlib.hpp"
#include "topo/inputs/text_lines.hpp"

namespace ks::topo {

namespace {

// Blank-separated tokens with '(' and ')' always tokens of their own.
std::vector<std::string> tokens_of(std::string_view line) {
  std::vector<std::string> out;
  std::string current;
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '(' || c == ')') {
      if (!current.empty()) out.push_back(std::move(current));
      current.clear();
      if (c == '(' || c == ')') out.emplace_back(1, c);
    } else {
      current += c;
    }
  }
  if (!current.empty()) out.push_back(std::move(current));
  return out;
}

struct NativeParser {
  const TextLines& text;
  SndlibNetwork net;
  std::map<std::string, int> node_of;
  std::map<std::pair<std::string, std::string>, std::size_t> demand_line;

  void expect_node(std::size_t line, const std::string& name, const char* role) const {
    if (!node_of.count(name))
      text.fail(line, std::string(role) + " '" + name + "' is not in the NODES section",
                "every link and demand must name nodes listed under NODES");
  }

  double number(std::size_t line, const std::string& token, const char* what) const {
    if (auto v = parse_double(token)) return *v;
    text.fail(line, std::string("expected a number for the ") + what + ", found '" + token + "'");
  }

  void node(std::size_t line, const std::vector<std::string>& t) {
    // id ( x y )  or  id
    if (node_of.count(t[0])) text.fail(line, "node '" + t[0] + "' is listed twice");
    node_of[t[0]] = int(net.nodes.size());
    net.nodes.push_back(t[0]);
    if (t.size() >= 5 && t[1] == "(" && t[4] == ")") {
      net.coordinates.push_back({number(line, t[2], "x coordinate"), number(line, t[3], "y coordinate")});
    } else if (t.size() != 1) {
      text.fail(line, "a node is written `ID ( X Y )`");
    }
  }

  void link(std::size_t line, const std::vector<std::string>& t) {
    if (t.size() < 5 || t[1] != "(" || t[4] != ")") text.fail(line, "a link is written `ID ( SOURCE TARGET ) ...`");
    expect_node(line, t[2], "link end");
    expect_node(line, t[3], "link end");
    net.links.push_back({t[0], t[2], t[3]});
  }

  void demand(std::size_t line, const std::vector<std::string>& t) {
    // id ( source target ) routing_unit demand_value max_path_length
    if (t.size() < 7 || t[1] != "(" || t[4] != ")")
      text.fail(line, "a demand is written `ID ( SOURCE TARGET ) ROUTING_UNIT VALUE MAX_PATH_LENGTH`");
    expect_node(line, t[2], "demand source");
    expect_node(line, t[3], "demand target");
    const auto key = std::make_pair(t[2], t[3]);
    if (auto it = demand_line.find(key); it != demand_line.end())
      text.fail(line, "a demand from " + t[2] + " to " + t[3] + " was already given on line " +
                          std::to_string(it->second),
                "give each directed pair once");
    demand_line[key] = line + 1;
    SndlibNetwork::Demand d;
    d.source = t[2];
    d.target = t[3];
    d.value = number(line, t[6], "demand value");
    d.exact = parse_decimal(t[6]);
    d.line = line + 1;
    if (d.value < 0) text.fail(line, "demand value " + t[6] + " is negative");
    net.demands.push_back(std::move(d));
  }

  void meta(std::size_t line, std::string_view l) {
    const std::size_t eq = l.find('=');
    if (eq == std::string_view::npos) return;  // free text is allowed in META
    const std::string key(trim(l.substr(0, eq)));
    const std::string value(trim(l.substr(eq + 1)));
    if (key == "time") net.time = value;
    if (key == "unit") net.unit = value;
    (void)line;
  }

  void parse() {
    std::string section;
    std::size_t section_line = 0;
    for (std::size_t i = 0; i < text.count(); ++i) {
      std::string_view l = text.line(i);
      if (!l.empty() && l.front() == '?') continue;  // "?SNDlib native format; ..."
      l = strip_comment(l, '#');
      if (l.empty()) continue;
      if (section.empty()) {
        const auto t = tokens_of(l);
        if (t.size() != 2 || t[1] != "(")
          text.fail(i, "expected a section such as `NODES (`, found '" + std::string(l) + "'");
        section = t[0];
        section_line = i;
        continue;
      }
      if (l == ")") {
        section.clear();
        continue;
      }
      if (section == "META") {
        meta(i, l);
        continue;
      }
      const auto t = tokens_of(l);
      if (section == "NODES")
        node(i, t);
      else if (section == "LINKS")
        link(i, t);
      else if (section == "DEMANDS")
        demand(i, t);
      // Other sections (ADMISSIBLE_PATHS) do not concern placements.
    }
    if (!section.empty())
      text.fail(section_line, "section " + section + " is never closed", "end each section with a line `)`");
    if (net.nodes.empty()) text.fail_file("no NODES section", "is this an SNDlib native network file?");
    if (net.coordinates.size() != net.nodes.size()) net.coordinates.clear();
    net.geographical = !net.coordinates.empty();
    for (const auto& c : net.coordinates)
      if (c.x < -180 || c.x > 180 || c.y < -90 || c.y > 90) net.geographical = false;
  }
};

}  // namespace

bool looks_like_sndlib_native(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  for (int i = 0; i < 200 && std::getline(in, line); ++i) {
    if (line.rfind("?SNDlib native", 0) == 0) return true;
    const auto l = strip_comment(line, '#');
    if (l.empty()) continue;
    const auto t = tokens_of(l);
    return t.size() == 2 && t[1] == "(" && (t[0] == "META" || t[0] == "NODES");
  }
  return false;
}

SndlibNetwork read_sndlib_native(const std::filesystem::path& path) {
  TextLines text(path);
  NativeParser p{text, {}, {}, {}};
  p.net.file = path.string();
  p.parse();
  return std::move(p.net);
}

}  // namespace ks::topo
