#include "report/text_format.hpp"

#include <fmt/format.h>

#include <cmath>

namespace ks::report {

std::string format_ms(double ms) {
  // Kernel times span five orders of magnitude between a CUDA box blur and a CPU median; keep ~3 digits.
  if (ms <= 0 || !std::isfinite(ms)) return "0";
  if (ms < 0.01) return fmt::format("{:.4f}", ms);
  if (ms < 1) return fmt::format("{:.3f}", ms);
  if (ms < 100) return fmt::format("{:.2f}", ms);
  return fmt::format("{:.1f}", ms);
}

std::string format_bytes(std::uint64_t bytes) {
  const double b = double(bytes);
  if (b < 1e3) return fmt::format("{} B", bytes);
  if (b < 1e6) return fmt::format("{:.1f} kB", b / 1e3);
  if (b < 1e9) return fmt::format("{:.2f} MB", b / 1e6);
  return fmt::format("{:.2f} GB", b / 1e9);
}

std::string format_memory(std::uint64_t bytes) {
  const double b = double(bytes);
  constexpr double kib = 1024.0, mib = kib * 1024, gib = mib * 1024;
  if (b < mib) return fmt::format("{:.0f} KiB", b / kib);
  if (b < gib) return fmt::format("{:.0f} MiB", b / mib);
  return fmt::format("{:.1f} GiB", b / gib);
}

std::string format_gbps(double gbps) {
  if (gbps <= 0 || !std::isfinite(gbps)) return "-";
  if (gbps < 10) return fmt::format("{:.2f}", gbps);
  return fmt::format("{:.1f}", gbps);
}

std::string format_gflops(double gflops) {
  if (gflops <= 0 || !std::isfinite(gflops)) return "-";
  if (gflops < 10) return fmt::format("{:.2f}", gflops);
  if (gflops < 1000) return fmt::format("{:.1f}", gflops);
  return fmt::format("{:.0f}", gflops);
}

std::string format_intensity(double intensity) {
  if (intensity <= 0 || !std::isfinite(intensity)) return "0";
  return fmt::format("{:.3g}", intensity);
}

std::string format_percent(double percent) {
  if (percent <= 0 || !std::isfinite(percent)) return "-";
  return fmt::format("{:.1f}%", percent);
}

std::string format_speedup(double ratio) {
  if (ratio <= 0 || !std::isfinite(ratio)) return "-";
  return ratio < 10 ? fmt::format("{:.2f}x", ratio) : fmt::format("{:.1f}x", ratio);
}

std::string format_shape(const ImageShape& shape) {
  return fmt::format("{}x{}, {} ch, {}", shape.width, shape.height, shape.channels, to_string(shape.type));
}

}  // namespace ks::report

namespace ks::report {

std::string wrap_text(const std::string& text, std::size_t width, std::size_t indent) {
  std::string out, line;
  std::size_t start = 0;
  auto flush = [&] {
    if (!line.empty()) out += std::string(indent, ' ') + line + '\n';
    line.clear();
  };
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) flush();
    line += (line.empty() ? "" : " ") + word;
  }
  flush();
  return out;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

}  // namespace ks::report
