#pragma once
// Placements as permutations, shared verbatim by the CPU backend and the CUDA kernels.
//
// A placement p puts node p[i] at position i. Placements of n nodes are numbered 0 .. n!-1 in lexicographic
// order through the factorial number system (index 0 is the identity). While enumerating, a placement of at
// most 16 nodes lives in one 64-bit "code": the node at position i in the nibble at bits 60-4i. Position 0 is
// the most significant nibble, so comparing two codes as integers compares the placements lexicographically,
// which is the same as comparing their indices: ties between equal costs are broken on the code alone. (n = 17
// is swept as 16-node tails behind a fixed head: sweep/sweep_head.hpp.)
#include <cstdint>

#include "core/hd.hpp"

namespace ks::topo {

inline constexpr int kMaxEnumeratedNodes = 16;  // nibbles in a 64-bit code

KS_HD int code_shift(int position) { return 60 - 4 * position; }

KS_HD int node_at(std::uint64_t code, int position) { return int((code >> code_shift(position)) & 15u); }

// A code read as a placement, as swap_delta.hpp takes them (`int operator[](int) const`).
struct CodePlacement {
  std::uint64_t code;
  KS_HD int operator[](int position) const { return node_at(code, position); }
};

KS_HD std::uint64_t with_node_at(std::uint64_t code, int position, int node) {
  const int shift = code_shift(position);
  return (code & ~(std::uint64_t(15) << shift)) | (std::uint64_t(node) << shift);
}

KS_HD std::uint64_t swap_positions(std::uint64_t code, int a, int b) {
  const int sa = code_shift(a), sb = code_shift(b);
  const std::uint64_t diff = ((code >> sa) ^ (code >> sb)) & 15u;
  return code ^ (diff << sa) ^ (diff << sb);
}

KS_HD std::uint64_t factorial(int n) {
  std::uint64_t f = 1;
  for (int i = 2; i <= n; ++i) f *= std::uint64_t(i);
  return f;
}

// Index of the lowest set bit of a non-zero mask.
KS_HD int lowest_bit(unsigned mask) {
#if defined(__CUDA_ARCH__)
  return __ffs(int(mask)) - 1;
#else
  return __builtin_ctz(mask);
#endif
}

KS_HD int bit_count(unsigned mask) {
#if defined(__CUDA_ARCH__)
  return __popc(mask);
#else
  return __builtin_popcount(mask);
#endif
}

// The `rank`-th smallest (0-based) member of the set `mask`.
KS_HD int nth_member(unsigned mask, std::uint64_t rank) {
  for (std::uint64_t r = 0; r < rank; ++r) mask &= mask - 1;  // drop the lowest member
  return lowest_bit(mask);
}

// Placement number `index` (0 <= index < n!) of n <= 16 nodes: digit i of the factorial number system picks
// which of the nodes not yet placed goes to position i.
KS_HD std::uint64_t code_of_index(std::uint64_t index, int n) {
  std::uint64_t code = 0;
  unsigned unused = (n >= 32 ? ~0u : (1u << n) - 1u);
  std::uint64_t radix = factorial(n - 1);
  for (int i = 0; i < n; ++i) {
    const std::uint64_t digit = index / radix;
    index %= radix;
    const int node = nth_member(unused, digit);
    unused &= ~(1u << node);
    code |= std::uint64_t(node) << code_shift(i);
    if (i + 1 < n) radix /= std::uint64_t(n - 1 - i);
  }
  return code;
}

// The inverse of code_of_index.
KS_HD std::uint64_t index_of_code(std::uint64_t code, int n) {
  std::uint64_t index = 0;
  unsigned unused = (n >= 32 ? ~0u : (1u << n) - 1u);
  for (int i = 0; i < n; ++i) {
    const int node = node_at(code, i);
    const int smaller_unused = bit_count(unused & ((1u << node) - 1u));
    index = index * std::uint64_t(n - i) + std::uint64_t(smaller_unused);
    unused &= ~(1u << node);
  }
  return index;
}

// Positions 0 .. q-1 of `code` hold a prefix; returns the code whose prefix is the next q-permutation of the n
// nodes in lexicographic order (positions q .. n-1 then hold the remaining nodes in ascending order), or false
// when the prefix was the last one. Used to step from one block of placements sharing a prefix to the next.
KS_HD bool next_prefix(std::uint64_t& code, int n, int q) {
  const unsigned all = (1u << n) - 1u;
  unsigned used = 0;
  for (int i = 0; i < q; ++i) used |= 1u << node_at(code, i);
  for (int i = q - 1; i >= 0; --i) {
    const int node = node_at(code, i);
    used &= ~(1u << node);  // `used` now holds the nodes of positions 0 .. i-1
    const unsigned larger = all & ~used & ~((2u << node) - 1u);
    if (!larger) continue;
    const int next = lowest_bit(larger);
    code = with_node_at(code, i, next);
    used |= 1u << next;
    for (int j = i + 1; j < n; ++j) {
      const int smallest = lowest_bit(all & ~used);
      code = with_node_at(code, j, smallest);
      used |= 1u << smallest;
    }
    return true;
  }
  return false;
}

// Heap's algorithm visits every arrangement of m elements with one transposition between neighbours in the
// sequence; which two slots it swaps at each step depends only on the step, not on the elements, so every
// thread of a warp swaps the same positions at the same time. Step s (1 .. m!-1) swaps (a, b) = (slot >> 4,
// slot & 15).
inline constexpr int kMaxHeapSlots = 5;
struct HeapSwaps {
  std::uint8_t step[119] = {};  // 5! - 1
  int count = 0;                // m! - 1
};

constexpr HeapSwaps make_heap_swaps(int m) {
  HeapSwaps h;
  int c[kMaxHeapSlots] = {};
  int i = 1;
  while (i < m) {
    if (c[i] < i) {
      const int a = (i % 2 == 0) ? 0 : c[i];
      h.step[h.count++] = std::uint8_t((a << 4) | i);
      ++c[i];
      i = 1;
    } else {
      c[i] = 0;
      ++i;
    }
  }
  return h;
}

}  // namespace ks::topo
