#pragma once
// SNDlib networks (Orlowski et al., "SNDlib 1.0", Networks 55(3), 2010): the native text format (sections META,
// NODES, LINKS, DEMANDS) and the XML format (one demand matrix per file, with its time in <meta>).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "topo/inputs/numbers.hpp"
#include "topo/inputs/traffic.hpp"

namespace ks::topo {

struct SndlibNetwork {
  std::string file;           // where it came from, for messages
  std::string time;           // META time / <meta><time>, empty when absent
  std::string unit;           // META unit / <meta><unit>
  std::vector<std::string> nodes;
  std::vector<NodeCoordinates> coordinates;  // one per node, or empty when a node has none
  bool geographical = false;  // longitude/latitude (XML says so; native files: every x in [-180, 180], y in [-90, 90])
  struct LinkEntry {
    std::string id, source, target;
  };
  std::vector<LinkEntry> links;
  struct Demand {
    std::string source, target;
    double value = 0;
    std::optional<Decimal> exact;
    std::size_t line = 0;  // native files: 1-based line, for messages
  };
  std::vector<Demand> demands;
};

// Io Errors name the file and line: unknown section syntax, a link or demand naming an unknown node, a value that
// is not a number, a node listed twice, a section that never closes.
SndlibNetwork read_sndlib_native(const std::filesystem::path& path);
SndlibNetwork read_sndlib_xml(const std::filesystem::path& path);
// Whether the file starts like an SNDlib native file ("?SNDlib native format" or a NODES section).
bool looks_like_sndlib_native(const std::filesystem::path& path);

// One timestamp (labelled with the file's time, else its name) from the demands; the links become own_links.
TrafficSeries traffic_from_sndlib(const SndlibNetwork& net, const std::string& source);
// Adds the demand matrix of `net` to `values` as one timestamp: n x n, row-major, rows and columns in the
// order of `traffic`'s nodes (every demand's nodes must be among them), 0 where no demand is given.
void add_demand_matrix(const SndlibNetwork& net, const TrafficSeries& traffic, ExactValues& values);
// A folder of SNDlib XML files: one timestamp each, ordered by <meta><time>. Every file must list the same nodes.
TrafficSeries read_sndlib_xml_folder(const std::filesystem::path& folder);

// The length of a link for the weighted metric: great-circle km rounded to whole km (integers keep weighted path
// costs exact) for geographical coordinates, the plain distance otherwise.
double link_length(const NodeCoordinates& a, const NodeCoordinates& b, bool geographical);

// Great-circle distance in km between two (longitude, latitude) points in degrees (mean Earth radius 6371 km).
double great_circle_km(const NodeCoordinates& a, const NodeCoordinates& b);

}  // namespace ks::topo
