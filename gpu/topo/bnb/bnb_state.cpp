#include "topo/bnb/bnb_state.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "topo/sweep/checkpoint.hpp"

namespace ks::topo {

namespace {

using nlohmann::json;

// The subtrees done as hex digits, four subtrees a digit (a few kB for tens of thousands of subtrees).
std::string bits_text(const std::vector<std::uint8_t>& bits) {
  std::string s;
  for (std::size_t k = 0; k < bits.size(); k += 4) {
    int digit = 0;
    for (std::size_t b = 0; b < 4 && k + b < bits.size(); ++b) digit |= (bits[k + b] ? 1 : 0) << b;
    s += "0123456789abcdef"[digit];
  }
  return s;
}

std::vector<std::uint8_t> bits_from(const std::string& s, std::uint64_t count) {
  if (s.size() != (count + 3) / 4) throw std::runtime_error("the subtrees done do not match their count");
  std::vector<std::uint8_t> bits(count);
  for (std::size_t k = 0; k < count; ++k) {
    const char ch = s[k / 4];
    const int digit = ch >= 'a' ? ch - 'a' + 10 : ch - '0';
    if (digit < 0 || digit > 15) throw std::runtime_error("the subtrees done are not hex digits");
    bits[k] = std::uint8_t((digit >> (k % 4)) & 1);
  }
  return bits;
}

json state_json(const ConfigurationState& s) {
  json curve = json::array();
  for (const GapPoint& g : s.curve) curve.push_back({g.time_s, g.nodes, g.bound.scaled, g.incumbent.scaled});
  return {{"configuration", s.configuration}, {"incumbent", s.incumbent},   {"search_best", s.search_best},
          {"location_of", s.location_of},     {"root_bound", s.root_bound}, {"bound", s.bound},
          {"subtrees", s.subtrees},           {"done", bits_text(s.done)},  {"explored", s.explored},
          {"seconds", s.seconds},             {"finished", s.finished},     {"curve", curve}};
}

ConfigurationState state_from(const json& j, const Problem& p) {
  ConfigurationState s;
  s.configuration = j.at("configuration").get<int>();
  s.incumbent = j.at("incumbent").get<std::int64_t>();
  s.search_best = j.at("search_best").get<std::int64_t>();
  s.location_of = j.at("location_of").get<std::vector<int>>();
  s.root_bound = j.at("root_bound").get<std::int64_t>();
  s.bound = j.at("bound").get<std::int64_t>();
  s.subtrees = j.at("subtrees").get<std::uint64_t>();
  s.done = bits_from(j.at("done").get<std::string>(), s.subtrees);
  s.explored = j.at("explored").get<std::uint64_t>();
  s.seconds = j.at("seconds").get<double>();
  s.finished = j.at("finished").get<bool>();
  for (const json& g : j.at("curve")) {
    const std::int64_t bound = g.at(2).get<std::int64_t>(), incumbent = g.at(3).get<std::int64_t>();
    s.curve.push_back({g.at(0).get<double>(), g.at(1).get<std::uint64_t>(), Cost{bound, p.cost_value(bound)},
                       Cost{incumbent, p.cost_value(incumbent)}});
  }
  if (s.configuration < 0 || s.configuration >= p.configs) throw std::runtime_error("configuration out of range");
  check_placement(s.location_of, p.n, "the checkpoint's incumbent");
  return s;
}

}  // namespace

std::uint64_t bnb_fingerprint(const Problem& p, const BnbRequest& r) {
  // The sweep's fingerprint covers every matrix; mixed with what only a proof has.
  std::uint64_t h = sweep_fingerprint(p, EvalRequest{});
  for (const unsigned char ch : std::string("bnb/1")) h = (h ^ ch) * 1099511628211ull;
  h = (h ^ std::uint64_t(r.reduced_cost_pruning)) * 1099511628211ull;
  return h;
}

std::string bnb_description(const Problem& p, const BnbRequest& r) {
  return fmt::format("{}{} nodes, {} timestamp(s), {} configuration(s), {} costs; placements bnb{}",
                     r.label.empty() ? "" : r.label + ": ", p.n, p.timestamps, p.configs,
                     p.exact ? "exact" : "real-valued", r.reduced_cost_pruning ? "" : " (no reduced-cost pruning)");
}

void write_bnb_checkpoint(const std::filesystem::path& path, const BnbCheckpoint& c) {
  SweepCheckpoint out;
  out.fingerprint = c.fingerprint;
  out.description = c.description;
  out.sessions = c.sessions;
  json configs = json::array();
  for (const ConfigurationState& s : c.configurations) {
    configs.push_back(state_json(s));
    out.evaluations += s.subtrees + s.explored;
    out.elapsed_s += s.seconds;
  }
  out.ledger = {{"kind", "bnb"}, {"configurations", configs}};
  write_checkpoint(path, out);
}

BnbCheckpoint read_bnb_checkpoint(const std::filesystem::path& path, const Problem& p, std::uint64_t fingerprint,
                                  const std::string& description) {
  const SweepCheckpoint in = read_checkpoint(path);
  check_checkpoint_fits(in, path, fingerprint, description);
  BnbCheckpoint c;
  c.fingerprint = in.fingerprint;
  c.description = in.description;
  c.sessions = in.sessions;
  try {
    if (in.ledger.at("kind") != "bnb") throw std::runtime_error("it is not a branch and bound's checkpoint");
    for (const json& j : in.ledger.at("configurations")) c.configurations.push_back(state_from(j, p));
    if (int(c.configurations.size()) != p.configs) throw std::runtime_error("it has another number of configurations");
  } catch (const std::exception& e) {
    throw Error(ErrorKind::Io, fmt::format("checkpoint '{}' is corrupt: {}", path.string(), e.what()),
                "it cannot be resumed: start afresh without --resume (or resume from an intact copy)");
  }
  return c;
}

}  // namespace ks::topo
