#include "sim/step_chunks.hpp"

#include <algorithm>

namespace ks::sim {

long long next_step_chunk(long long chunk, double chunk_ms) {
  if (chunk_ms < 50) return std::min<long long>(chunk * 2, 1 << 16);
  if (chunk_ms > 400) return std::max<long long>(chunk / 2, 1);
  return chunk;
}

}  // namespace ks::sim
