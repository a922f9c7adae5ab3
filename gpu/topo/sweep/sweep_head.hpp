#pragma once
// Sweeps of more nodes than a 64-bit code holds (n = 17), shared verbatim by the CPU backend and the CUDA kernels.
//
// Placements keep their lexicographic numbering (permutation.hpp); those with index in [r * t!, (r + 1) * t!),
// t = n - h, all put the same nodes at positions 0 .. h-1: the head, number r (the r-th h-permutation of the n
// nodes in lexicographic order). With the head fixed, the cost of a placement is a cost of t nodes on positions
// h .. n-1, with the other nodes relabelled 0 .. t-1 in ascending order, plus a linear term and a constant:
//   cost = sum over tail positions i, j of D[h+i][h+j] T[x_i][x_j]
//        + sum over tail positions i of lin[i][x_i]      lin[i][x] = sum over k < h of D[k][h+i] T[y_k][x] + D[h+i][k] T[x][y_k]
//        + constant                                       constant = sum over k, l < h of D[k][l] T[y_k][y_l]
// (y_k the head's nodes, x_i the tail's). The relabelling is monotone, so within a head the tail's order is the
// placements' order: a sweep walks each head's t! placements as a sweep of t nodes (sweep_core.hpp, the walkers'
// Headed form) and ties still go to the smallest index.
//
// Keys (what a minimum or a top candidate remembers of its placement): without a head, the placement's code;
// with one, the head number and the tail's code packed into 64 bits so that comparing keys compares indices: the
// head number in bits 57-63, the tail's nibbles 0 .. 13 below it, and in bit 0 whether the last two of a 16-node
// tail come in descending order (its last two nodes are the two not in nibbles 0 .. 13). A few instructions, so a
// walk whose every placement ties for the minimum (esc16f's costs are all 0) stays as fast as without a head.
#include <cstdint>

#include "core/hd.hpp"
#include "topo/permutation.hpp"

namespace ks::topo {

inline constexpr int kHeadKeyShift = 57;
inline constexpr std::uint64_t kMaxHeads = std::uint64_t(1) << (64 - kHeadKeyShift);  // head numbers in 7 bits
inline constexpr int kMaxPlacementNodes = 20;  // 20! < 2^63: indices of the numbering fit 64 bits

// The key of the placement with head number `head` and tail `tail_code` (t nodes); head_bits = head << 57.
KS_HD std::uint64_t headed_key(std::uint64_t head_bits, std::uint64_t tail_code, int t) {
  const std::uint64_t last_two_descending = node_at(tail_code, t - 2) > node_at(tail_code, t - 1) ? 1u : 0u;
  return head_bits | ((tail_code >> 8) << 1) | last_two_descending;
}

// How the keys of a sweep read (h = 0: codes of n <= 16 nodes).
struct SweepKeys {
  int n = 0;
  int h = 0;                      // head positions
  int t = 0;                      // tail positions, n - h
  std::uint64_t tail_total = 0;   // t!

  // The nodes of head number `head`, positions 0 .. h-1; returns the set of the other nodes (a bit mask).
  KS_HD unsigned head_nodes(std::uint64_t head, int* nodes) const {
    unsigned unused = (1u << n) - 1u;
    for (int i = 0; i < h; ++i) {
      std::uint64_t radix = 1;  // h-permutations of the nodes left after position i
      for (int j = i + 1; j < h; ++j) radix *= std::uint64_t(n - j);
      const int node = nth_member(unused, head / radix);
      head %= radix;
      nodes[i] = node;
      unused &= ~(1u << node);
    }
    return unused;
  }

  KS_HD std::uint64_t tail_code_of_key(std::uint64_t key) const {
    std::uint64_t code = ((key >> 1) & ((std::uint64_t(1) << 56) - 1)) << 8;
    const int known = t < 14 ? t : 14;
    unsigned unused = (1u << t) - 1u;
    for (int i = 0; i < known; ++i) unused &= ~(1u << node_at(code, i));
    for (int i = known; i < t; ++i) {
      const int node = lowest_bit(unused);
      code = with_node_at(code, i, node);
      unused &= ~(1u << node);
    }
    if (t == 16 && (key & 1u)) code = swap_positions(code, 14, 15);
    return code;
  }

  KS_HD std::uint64_t index_of_key(std::uint64_t key) const {
    if (h == 0) return index_of_code(key, n);
    return (key >> kHeadKeyShift) * tail_total + index_of_code(tail_code_of_key(key), t);
  }

  // The node at each position of the placement a key names.
  KS_HD void placement_of_key(std::uint64_t key, int* placement) const {
    if (h == 0) {
      for (int i = 0; i < n; ++i) placement[i] = node_at(key, i);
      return;
    }
    const unsigned rest = head_nodes(key >> kHeadKeyShift, placement);
    const std::uint64_t tail = tail_code_of_key(key);
    for (int i = 0; i < t; ++i) placement[h + i] = nth_member(rest, std::uint64_t(node_at(tail, i)));
  }

  // The key of placement `index`, and its nodes (placement: n entries).
  KS_HD std::uint64_t key_of_index(std::uint64_t index, std::uint8_t* placement) const {
    int nodes[kMaxPlacementNodes];
    std::uint64_t key = 0;
    if (h == 0) {
      key = code_of_index(index, n);
    } else {
      const std::uint64_t head = index / tail_total;
      key = headed_key(head << kHeadKeyShift, code_of_index(index % tail_total, t), t);
    }
    placement_of_key(key, nodes);
    for (int i = 0; i < n; ++i) placement[i] = std::uint8_t(nodes[i]);
    return key;
  }
};

}  // namespace ks::topo
