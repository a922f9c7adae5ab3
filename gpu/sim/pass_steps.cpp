#include "sim/pass_steps.hpp"

namespace ks::sim {

int steps_in_next_pass(int steps_per_pass, long long left) {
  int steps = steps_per_pass;
  while (steps > 1 && steps > left) steps /= 2;
  return steps;
}

}  // namespace ks::sim
