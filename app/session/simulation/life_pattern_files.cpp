#include "session/simulation/life_pattern_files.hpp"

#include <algorithm>
#include <cctype>
#include <memory>

#include "session/session.hpp"
#include "sim/life_patterns.hpp"
#include "sim/rle.hpp"

namespace ks::app {

namespace {

void use_pattern(Session& session, sim::LifePattern pattern) {
  if (session.kernel().id != "life") session.select_kernel("life");
  // The rule the file names is what the pattern is meant for; the Kernel panel shows it (and can change it).
  if (pattern.rule) session.set_param("rule", *pattern.rule);
  session.simulation().set_pattern(std::make_shared<const sim::LifePattern>(std::move(pattern)));
  session.request_run();
}

}  // namespace

bool is_life_pattern_file(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext == ".rle";
}

void open_life_pattern(Session& session, const std::filesystem::path& path) {
  use_pattern(session, sim::load_rle_file(path));  // parsed before anything changes
}

void use_builtin_life_pattern(Session& session, const std::string& name) {
  use_pattern(session, sim::builtin_pattern(name));
}

void use_life_pattern(Session& session, const std::string& spec) {
  // Neither a built-in name nor an existing file: the built-in lookup's usage Error lists the names.
  if (!std::filesystem::exists(spec)) return use_builtin_life_pattern(session, spec);
  open_life_pattern(session, spec);
}

}  // namespace ks::app
