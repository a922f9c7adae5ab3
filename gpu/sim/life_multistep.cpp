#include "sim/life_multistep.hpp"

namespace ks::sim {

bool is_multistep_pass(int k) {
  return k == 1 || k == 2 || k == 4 || k == 8;
}

int multistep_pass(long long left, int k) {
  if (left >= k) return k;
  int p = 1;
  while (2LL * p <= left) p *= 2;
  return p;
}

}  // namespace ks::sim
