#include "cli/topo_scale.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "core/error.hpp"

namespace ks::cli {

std::vector<int> parse_gpu_list(const std::string& arg, const std::vector<DeviceInfo>& devices) {
  const auto there_are = [&] {
    std::string s = fmt::format("this machine has {} CUDA device{}", devices.size(), devices.size() == 1 ? "" : "s");
    for (const DeviceInfo& d : devices) s += fmt::format("{} {}: {}", &d == &devices.front() ? ":" : ",", d.index, d.name);
    return s;
  };
  std::vector<int> out = parse_gpu_numbers(arg);
  if (arg == "all") {
    for (const DeviceInfo& d : devices) out.push_back(d.index);
    if (out.empty()) throw Error(ErrorKind::Device, "--gpus all: there is no CUDA device", "use --backend cpu");
  }
  for (int v : out)
    if (v >= int(devices.size())) throw_usage(fmt::format("--gpus {}: there is no CUDA device {}", arg, v), there_are());
  return out;
}

std::vector<int> parse_gpu_numbers(const std::string& arg) {
  std::vector<int> out;
  if (arg == "all") return out;
  std::size_t at = 0;
  while (at <= arg.size()) {
    const std::size_t comma = std::min(arg.find(',', at), arg.size());
    const std::string item = arg.substr(at, comma - at);
    char* end = nullptr;
    const long v = item.empty() || item.size() > 6 ? -1 : std::strtol(item.c_str(), &end, 10);
    if (v < 0 || *end != '\0' || item[0] == '+' || item[0] == '-')
      throw_usage(fmt::format("--gpus '{}' is not 'all' or a list of device numbers", arg), "e.g. --gpus 0,1");
    out.push_back(int(v));
    at = comma + 1;
  }
  return out;
}

double parse_duration(const std::string& text, const std::string& what) {
  if (text == "none" || text == "0") return 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  const std::string unit = end ? std::string(end) : std::string();
  double scale = 0;
  if (unit.empty() || unit == "s") scale = 1;
  else if (unit == "m" || unit == "min") scale = 60;
  else if (unit == "h") scale = 3600;
  else if (unit == "d") scale = 86400;
  if (end == text.c_str() || scale == 0 || !std::isfinite(v) || v < 0)
    throw_usage(fmt::format("{} '{}' is not a duration", what, text), "e.g. 90, 90s, 10m, 1.5h, or none");
  return v * scale;
}

namespace {

std::string quoted(const std::string& a) {
  if (!a.empty() && a.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos) return a;
  std::string q = "'";
  for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

std::string resume_command(const std::vector<std::string>& argv, const std::string& checkpoint, int ranks) {
  std::string out = ranks > 1 ? fmt::format("mpirun -np {} ", ranks) : "";
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--resume" || a == "--checkpoint") {
      ++i;  // and its value
      continue;
    }
    if (a.rfind("--resume=", 0) == 0 || a.rfind("--checkpoint=", 0) == 0) continue;
    if (i) out += ' ';
    out += quoted(a);
  }
  return out + " --resume " + quoted(checkpoint);
}

}  // namespace ks::cli
