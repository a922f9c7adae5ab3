#include "topo/sweep/checkpoint.hpp"

#include <fmt/format.h>

#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "topo/permutation.hpp"
#include "topo/sweep/sweep_plan.hpp"

namespace ks::topo {

namespace {

constexpr const char* kSchema = "kernelscope.topo.checkpoint.v1";

class Fnv1a {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 1099511628211ull;
  }
  template <class T>
  void value(const T& v) {
    bytes(&v, sizeof(T));
  }
  template <class T>
  void values(const std::vector<T>& v) {
    value(std::uint64_t(v.size()));
    bytes(v.data(), v.size() * sizeof(T));
  }
  void text(const std::string& s) {
    value(std::uint64_t(s.size()));
    bytes(s.data(), s.size());
  }
  std::uint64_t get() const { return h_; }

 private:
  std::uint64_t h_ = 14695981039346656037ull;
};

std::string hex(std::uint64_t v) { return fmt::format("{:016x}", v); }

std::uint64_t checksum(const nlohmann::ordered_json& j) {
  Fnv1a h;
  h.text(j.dump());
  return h.get();
}

std::string mode_text(const Problem& p, const EvalRequest& r) {
  switch (r.mode) {
    case PlacementMode::All: {
      const std::uint64_t end = r.range_end ? r.range_end : (p.n <= kMaxExhaustiveNodes ? factorial(p.n) : 0);
      return fmt::format("all placements {}:{}", r.range_begin, end);
    }
    case PlacementMode::Sample:
      return fmt::format("sample:{} (seed {})", r.samples, r.seed);
    default:
      return fmt::format("{} given placement(s)", r.placements.size());
  }
}

}  // namespace

std::uint64_t sweep_fingerprint(const Problem& p, const EvalRequest& r) {
  Fnv1a h;
  h.text(kSchema);
  h.value(p.n);
  h.value(p.timestamps);
  h.value(p.slices);
  h.value(p.summed_slice);
  h.value(p.configs);
  h.value(p.exact);
  h.value(p.decimals);
  h.values(p.traffic_scaled);
  h.values(p.cost_scaled);
  h.values(p.traffic_real);
  h.values(p.cost_real);
  h.value(r.mode);
  h.value(r.range_begin);
  h.value(r.range_end == 0 && p.n <= kMaxExhaustiveNodes ? factorial(p.n) : r.range_end);
  h.value(r.samples);
  h.value(r.seed);
  h.value(std::uint64_t(r.placements.size()));
  for (const auto& pl : r.placements) h.values(pl);
  h.value(r.histogram);
  h.value(r.top_k);
  h.value(r.cube_limit_bytes);
  if (r.shape.head >= 0 || r.shape.run_blocks) {  // a forced cut (tests): other chunks, other keys
    h.value(r.shape.head);
    h.value(r.shape.run_blocks);
  }
  if (!p.exact) {
    h.value(r.backend);
    h.text(r.backend == Backend::Cpu ? "cpu" : (r.variant.empty() ? "delta" : r.variant));
    if (r.backend == Backend::Cuda) h.value(r.block_threads);
  }
  return h.get();
}

std::string sweep_description(const Problem& p, const EvalRequest& r, const std::string& label) {
  std::string d = label.empty() ? "" : label + ": ";
  d += fmt::format("{} nodes, {} timestamp(s), {} configuration(s), {} costs; {}; histogram {}, top {}", p.n,
                   p.timestamps, p.configs, p.exact ? "exact" : "real-valued", mode_text(p, r),
                   r.histogram ? "on" : "off", r.top_k);
  if (!p.exact)
    d += fmt::format("; backend {}", r.backend == Backend::Cpu ? "cpu" : (r.variant.empty() ? "cuda delta" : "cuda " + r.variant));
  return d;
}

void write_checkpoint(const std::filesystem::path& path, const SweepCheckpoint& c) {
  nlohmann::ordered_json j;
  j["schema"] = kSchema;
  j["kernelscope_version"] = KS_VERSION;
  j["describes"] = c.description;
  j["fingerprint"] = hex(c.fingerprint);
  j["sessions"] = c.sessions;
  j["evaluations"] = c.evaluations;
  j["elapsed_s"] = c.elapsed_s;
  j["sweep"] = c.ledger;
  j["checksum"] = hex(checksum(j));
  write_text_atomically(path, j.dump() + "\n");
}

SweepCheckpoint read_checkpoint(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw_usage("there is no checkpoint '" + path.string() + "'",
                "give the file that --checkpoint wrote, or start afresh without --resume");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  const std::string hint = "it cannot be resumed: start afresh without --resume (or resume from an intact copy)";
  nlohmann::ordered_json j;
  try {
    j = nlohmann::ordered_json::parse(text.str());
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::Io, fmt::format("checkpoint '{}' is truncated or not a checkpoint ({})", path.string(), e.what()),
                hint);
  }
  const auto bad = [&](const std::string& why) {
    return Error(ErrorKind::Io, fmt::format("checkpoint '{}' is corrupt: {}", path.string(), why), hint);
  };
  if (!j.is_object() || !j.contains("schema") || j["schema"] != kSchema)
    throw bad(fmt::format("it is not a {} file", kSchema));
  if (!j.contains("checksum") || !j["checksum"].is_string()) throw bad("it has no checksum");
  const std::string sum = j["checksum"].get<std::string>();
  j.erase("checksum");
  if (sum != hex(checksum(j))) throw bad("its checksum does not match its content");
  SweepCheckpoint c;
  try {
    c.fingerprint = std::stoull(j.at("fingerprint").get<std::string>(), nullptr, 16);
    c.description = j.at("describes").get<std::string>();
    c.sessions = j.at("sessions").get<int>();
    c.evaluations = j.at("evaluations").get<std::uint64_t>();
    c.elapsed_s = j.at("elapsed_s").get<double>();
    c.ledger = j.at("sweep");
  } catch (const std::exception& e) {
    throw bad(e.what());
  }
  return c;
}

void check_checkpoint_fits(const SweepCheckpoint& c, const std::filesystem::path& path, std::uint64_t fingerprint,
                           const std::string& description) {
  if (c.fingerprint == fingerprint) return;
  throw_usage(fmt::format("checkpoint '{}' belongs to another sweep: it holds \"{}\", this command asks for \"{}\"",
                          path.string(), c.description, description),
              description == c.description
                  ? "the inputs' values differ (another file of the same shape?): resume with the inputs that wrote it, or "
                    "start afresh without --resume"
                  : "resume with the command that wrote it (same inputs and options), or start afresh without --resume");
}

}  // namespace ks::topo
