#pragma once
// How many steps a front end runs between its progress updates and Ctrl-C checks (`kernelscope-cli sim`,
// ks.sim).

namespace ks::sim {

// The next chunk after one of `chunk` steps took `chunk_ms`: doubled while a chunk takes under 50 ms (up to
// 2^16 steps), halved above 400 ms (down to 1), so a fast GPU does not wait on the host and a slow CPU still
// answers Ctrl-C promptly.
long long next_step_chunk(long long chunk, double chunk_ms);

}  // namespace ks::sim
