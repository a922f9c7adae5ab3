#include "copies/sim_copy.hpp"

#include <fmt/format.h>

#include <map>
#include <vector>

#include "assets.hpp"
#include "copies/copy_template.hpp"
#include "core/error.hpp"
#include "sim/life_rule.hpp"
#include "sim/sim_params.hpp"

namespace ks::copies {

namespace {

// "0b000001000 (3)": the mask of neighbour counts 0..8 in binary, and the counts it holds.
std::string mask_literal(unsigned mask) {
  std::string bits;
  for (int n = 8; n >= 0; --n) bits += (mask >> n & 1u) ? '1' : '0';
  return "0b" + bits;
}
std::string counts(unsigned mask, const char* none) {
  std::vector<std::string> n;
  for (int i = 0; i <= 8; ++i)
    if (mask >> i & 1u) n.push_back(std::to_string(i));
  return n.empty() ? std::string(none) : fmt::format("{} live neighbours", fmt::join(n, ", "));
}

KernelCopy life_naive(const KernelSpec& kernel, const ParamSet& params) {
  const sim::LifeRule rule = sim::parse_life_rule(params.get_text("rule"));
  const bool torus = params.get_choice("border") == "torus";
  const std::string entry = "life_naive";
  const std::map<std::string, std::string> values = {
      {"TITLE", kernel.title},
      {"RULE", sim::to_string(rule)},
      {"BORDER", params.get_choice("border")},
      {"FILE", entry + ".cu"},
      {"ENTRY", entry},
      {"BIRTH_MASK", mask_literal(rule.birth)},
      {"BIRTH_COUNTS", "born with " + counts(rule.birth, "no count: never born")},
      {"SURVIVE_MASK", mask_literal(rule.survive)},
      {"SURVIVE_COUNTS", "survives with " + counts(rule.survive, "no count: never survives")},
      {"BORDER_NOTE", torus ? "A torus: the edges wrap around (x = -1 is the last column)."
                            : "Dead borders: the cells beyond the edges are dead."},
      {"TORUS", torus ? "true" : "false"}};
  const std::string_view text = embedded::kernel_copy_template("life_naive.cu");
  if (text.empty()) throw Error(ErrorKind::Internal, "no embedded copy template life_naive.cu");
  return {entry + ".cu", entry, "step", expand_template(text, values, {})};
}

KernelCopy heat_naive(const KernelSpec& kernel, const ParamSet& params) {
  const sim::HeatParams heat = sim::heat_params(params);  // refuses an unstable dt, as the built-in does
  const std::string boundary = params.get_choice("boundary");
  const std::string entry = "heat_naive";
  const float outside = boundary == "fixed" ? float(heat.boundary_value) : 0.0f;
  const std::map<std::string, std::string> values = {
      {"TITLE", kernel.title},
      {"PARAMS", comment_lines(fmt::format("Made at diffusivity={}, dt={}, boundary={}{}.", params.get_float("diffusivity"),
                                           params.get_float("dt"), boundary,
                                           boundary == "fixed" ? fmt::format(", boundary_value={}", heat.boundary_value)
                                                               : ""))},
      {"FILE", entry + ".cu"},
      {"ENTRY", entry},
      // The declared default reads back as the built-in's float(diffusivity * dt).
      {"R", float_text(heat.coefficients().r)},
      {"BOUNDARY_NOTE", boundary == "fixed"      ? "fixed, the outside held at boundary_value."
                        : boundary == "periodic" ? "periodic, the grid wraps around (kOutside is not read)."
                                                 : "insulated, the outside mirrors the edge (kOutside is not read)."},
      {"OUTSIDE", float_literal(outside)}};
  const std::string_view text = embedded::kernel_copy_template("heat_naive.cu");
  if (text.empty()) throw Error(ErrorKind::Internal, "no embedded copy template heat_naive.cu");
  return {entry + ".cu", entry, "step", expand_template(text, values, {boundary})};
}

}  // namespace

std::optional<KernelCopy> sim_copy(const KernelSpec& kernel, const std::string& variant, const ParamSet& params) {
  if (kernel.id == "life" && variant == "naive") return life_naive(kernel, params);
  if (kernel.id == "heat" && variant == "naive") return heat_naive(kernel, params);
  return std::nullopt;
}

}  // namespace ks::copies
