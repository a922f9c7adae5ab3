#pragma once
// Specs of built-in generators and topology families, as typed on the command line:
//   FAMILY[:ITEM[,ITEM]...]   where an ITEM is KEY=VALUE, or a bare shape such as 4x2
// e.g. "gravity:n=8,t=32,seed=1", "torus:4x2", "ocs:base=ring,k=15,seed=3". Values may themselves hold ':'
// (base=torus:4x2) but not ','.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ks::topo {

class Spec {
 public:
  // `kind` names what is parsed, for messages ("traffic generator", "topology").
  Spec(const std::string& text, std::string kind);

  const std::string& text() const { return text_; }
  const std::string& family() const { return family_; }
  const std::string& shape() const { return shape_; }  // the bare item, empty when none
  bool has(const std::string& key) const { return values_.count(key) != 0; }

  // Usage Errors name the spec, the key, the value and the allowed range; nothing is clamped.
  long long get_int(const std::string& key, long long fallback, long long min, long long max) const;
  long long require_int(const std::string& key, long long min, long long max) const;
  double get_double(const std::string& key, double fallback, double min, double max) const;
  std::string get_string(const std::string& key, const std::string& fallback) const;
  // Usage Error for keys (or a shape) the family does not take, listing those it does.
  void allow_only(const std::vector<std::string>& keys, bool shape_allowed = false) const;
  [[noreturn]] void fail(const std::string& what, const std::string& hint = {}) const;

 private:
  std::string text_, kind_, family_, shape_;
  std::map<std::string, std::string> values_;
};

}  // namespace ks::topo
