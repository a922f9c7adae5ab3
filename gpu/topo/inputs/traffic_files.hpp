#pragma once
// Traffic from files, by format:
//   SNDlib native network file (its DEMANDS section: one timestamp; its LINKS become the default topology)
//   SNDlib XML file (one timestamp), or a folder of them (one timestamp per file, ordered by <meta><time>)
//   CSV long form: a header `timestamp,src,dst,value`, then one row per non-zero entry (missing entries are 0)
//   dense CSV: one n x n matrix per file (optionally with a header row of node names, and row names in the first
//     column); a folder of them is one timestamp per file, in natural order of the file names
//   QAPLIB .dat (matrix B; see qaplib.hpp)
#include <filesystem>
#include <string>

#include "topo/inputs/traffic.hpp"

namespace ks::topo {

// Detects the format from the path (folder, extension) and the first lines; Io Error naming the file and line
// for malformed content, a usage Error for a path that does not exist.
TrafficSeries load_traffic(const std::filesystem::path& path);

TrafficSeries read_traffic_csv_long(const std::filesystem::path& path);
TrafficSeries read_traffic_dense_file(const std::filesystem::path& path);
TrafficSeries read_traffic_dense_folder(const std::filesystem::path& folder);

// The traffic as CSV long form (every non-zero entry), written atomically; reading it back gives the same
// series (values are written exactly: scaled values as decimals, others with 17 significant digits).
void write_traffic_csv_long(const TrafficSeries& traffic, const std::filesystem::path& path);

// "t2" < "t10": digit runs compare as numbers.
bool natural_less(const std::string& a, const std::string& b);

}  // namespace ks::topo
