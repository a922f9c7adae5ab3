#pragma once
// One finding of the "Why is it slow" explainer: what the CLI prints in its Why paragraph, the JSON's "why"
// array holds ({"id", "finding", "fix"}) and the app's Why section shows.
#include <string>

namespace ks::report {

struct WhyFinding {
  std::string id;       // stable, for scripts and tests: "uncoalesced", "tail-effect", ...
  std::string finding;  // the pitfall in plain words, with this run's numbers
  std::string fix;      // what to change in kernelscope: a variant, a block, an option
};

}  // namespace ks::report
