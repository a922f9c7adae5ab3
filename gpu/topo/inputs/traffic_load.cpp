// load_traffic: which reader a path needs.
#include <algorithm>
#include <cctype>
#include <fstream>

#include "core/error.hpp"
#include "topo/inputs/qaplib.hpp"
#include "topo/inputs/sndlib.hpp"
#include "topo/inputs/text_lines.hpp"
#include "topo/inputs/traffic_files.hpp"

namespace ks::topo {

namespace {

std::string first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!trim(line).empty()) return std::string(trim(line));
  return {};
}

bool folder_has(const std::filesystem::path& folder, const char* extension) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec))
    if (e.is_regular_file() && e.path().extension() == extension) return true;
  return false;
}

}  // namespace

TrafficSeries load_traffic(const std::filesystem::path& path) {
  std::error_code ec;
  const std::string name = path.string();
  if (!std::filesystem::exists(path, ec))
    throw_usage("no file or folder '" + name + "'", "check the path given to --traffic");
  TrafficSeries t;
  if (std::filesystem::is_directory(path, ec)) {
    if (folder_has(path, ".xml"))
      t = read_sndlib_xml_folder(path);
    else if (folder_has(path, ".csv"))
      t = read_traffic_dense_folder(path);
    else
      throw_io("'" + name + "' holds neither .xml nor .csv files",
               "a traffic folder holds SNDlib XML demand matrices or dense CSV matrices, one per timestamp");
  } else {
    const std::string ext = path.extension().string();
    if (ext == ".xml") {
      t = traffic_from_sndlib(read_sndlib_xml(path), name + " (SNDlib XML)");
    } else if (ext == ".dat") {
      t = traffic_from_qaplib(read_qaplib(path));
    } else if (looks_like_sndlib_native(path)) {
      t = traffic_from_sndlib(read_sndlib_native(path), name + " (SNDlib native)");
    } else if (ext == ".csv" || ext == ".txt") {
      const std::string head = first_line(path);
      const bool long_form = head.size() >= 9 && std::equal(head.begin(), head.begin() + 9, "timestamp",
                                                            [](char a, char b) { return std::tolower((unsigned char)a) == b; });
      t = long_form ? read_traffic_csv_long(path) : read_traffic_dense_file(path);
    } else {
      throw_usage("cannot tell the format of '" + name + "'",
                  "traffic files are SNDlib (.txt native, .xml), CSV (.csv) or QAPLIB (.dat); see --help");
    }
  }
  validate_traffic(t);
  return t;
}

}  // namespace ks::topo
