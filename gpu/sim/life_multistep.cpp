#include "sim/life_multistep.hpp"

namespace ks::sim {

bool is_multistep_pass(int k) {
  return k == 1 || k == 2 || k == 4 || k == 8;
}

}  // namespace ks::sim
