#pragma once
// The block-parallel form of the recursive Gaussian (stencil/recursive_gaussian.hpp), after Nehab, Maximo,
// Lima and Hoppe, "GPU-efficient recursive filtering and summed-area tables" (2011): a line is cut into
// tiles, and every tile can run its recursions on its own once it knows its carries, the state the recursion
// enters it with (each section's last two outputs: 4 floats a direction). The recursion is linear, so
//   carry into tile t+1 = summary of tile t + transfer(length of t) * carry into tile t,
// where the summary is the state tile t ends in when it starts from a zero state, and the transfer (a 2x2
// matrix a section) is what the tile's own feedback does to a state over its length with no input. So a line
// costs three steps: every tile's summary (parallel over tiles), the carries (a short walk over the tiles'
// summaries, parallel over lines), every tile again with its carry (parallel over tiles).
//
// The feed-forward taps reach one sample before a tile (causal) and two after it (anti-causal): a tile reads
// those samples itself (its halo), so they are no part of the carry. At the line's ends the halo and the
// first carry come from the border extension, by the same warm-up the sequential pass runs (causal_warmup,
// anticausal_warmup): the tiled line equals the sequential one up to float rounding, in every border mode.
//
// Shared verbatim by the CUDA kernels (cuda/recursive_gaussian.cu) and the CPU test of the decomposition
// (tests/cpu/test_recursive_tiles.cpp). A tile's samples are read through x(i), i in [-1, length + 2).
#include <math.h>

#include "core/border_remap.hpp"
#include "core/hd.hpp"
#include "stencil/recursive_gaussian.hpp"

namespace ks {

// Both sections' last two outputs, newest first: the state a recursion carries from tile to tile.
struct LineCarry {
  float a1 = 0, a2 = 0;  // section 0
  float b1 = 0, b2 = 0;  // section 1
};

// y+[p] = n0 x[p] + n1 x[p-1] + d1 y+[p-1] + d2 y+[p-2] for each section; advance returns their sum.
struct CausalLine {
  float xp = 0;  // x[p-1]
  LineCarry s;

  // The steady state of a line that has been x for ever.
  KS_HD void start(const RecursiveGaussian& f, float x) {
    xp = x;
    s.a1 = s.a2 = f.section[0].causal_gain * x;
    s.b1 = s.b2 = f.section[1].causal_gain * x;
  }
  KS_HD float advance(const RecursiveGaussian& f, float x) {
    const RecursiveSection &s0 = f.section[0], &s1 = f.section[1];
    // The newest output last: one multiply-add per section waits for the step before.
    const float a = fmaf(s0.d1, s.a1, fmaf(s0.d2, s.a2, fmaf(s0.n1, xp, s0.n0 * x)));
    const float b = fmaf(s1.d1, s.b1, fmaf(s1.d2, s.b2, fmaf(s1.n1, xp, s1.n0 * x)));
    xp = x;
    s.a2 = s.a1;
    s.a1 = a;
    s.b2 = s.b1;
    s.b1 = b;
    return a + b;
  }
};

// y-[p] = m1 x[p+1] + m2 x[p+2] + d1 y-[p+1] + d2 y-[p+2] for each section, walking p downwards:
// advance(x[p]) returns the sum at p (which needs only the samples after p), then takes x[p] in.
struct AnticausalLine {
  float x1 = 0, x2 = 0;  // x[p+1], x[p+2]
  LineCarry s;

  KS_HD void start(const RecursiveGaussian& f, float x) {
    x1 = x2 = x;
    s.a1 = s.a2 = f.section[0].anticausal_gain * x;
    s.b1 = s.b2 = f.section[1].anticausal_gain * x;
  }
  KS_HD float advance(const RecursiveGaussian& f, float x) {
    const RecursiveSection &s0 = f.section[0], &s1 = f.section[1];
    const float a = fmaf(s0.d1, s.a1, fmaf(s0.d2, s.a2, fmaf(s0.m2, x2, s0.m1 * x1)));
    const float b = fmaf(s1.d1, s.b1, fmaf(s1.d2, s.b2, fmaf(s1.m2, x2, s1.m1 * x1)));
    x2 = x1;
    x1 = x;
    s.a2 = s.a1;
    s.a1 = a;
    s.b2 = s.b1;
    s.b1 = b;
    return a + b;
  }
};

// What `length` steps of a section's feedback do to the state (y1, y2) it starts with, when no input comes:
// (y1, y2) after = m * (y1, y2) before. The same for both directions (they share the feedback).
struct TileTransfer {
  float a[2][2];  // section 0
  float b[2][2];  // section 1
};

// The exact powers of the rounded feedback, in double: where a section's poles crowd near 1 (large sigma) the
// matrix's entries grow to about length / 2 and cancel, and a float walk of `length` steps would round them
// by more than the tiles' own recursion is off (tests/cpu/test_recursive_tiles.cpp).
KS_HD TileTransfer tile_transfer(const RecursiveGaussian& f, int length) {
  TileTransfer t;
  for (int k = 0; k < 2; ++k) {
    const double d1 = f.section[k].d1, d2 = f.section[k].d2;
    float(&m)[2][2] = k == 0 ? t.a : t.b;
    for (int column = 0; column < 2; ++column) {  // the response to y1 = 1, then to y2 = 1
      double y1 = column == 0 ? 1 : 0, y2 = column == 0 ? 0 : 1;
      for (int i = 0; i < length; ++i) {
        const double y = d1 * y1 + d2 * y2;
        y2 = y1;
        y1 = y;
      }
      m[0][column] = float(y1);
      m[1][column] = float(y2);
    }
  }
  return t;
}

// The carry after a tile: its summary (its end state from a zero start) plus what its feedback makes of the
// carry it was given.
KS_HD LineCarry carry_through(const LineCarry& summary, const TileTransfer& t, const LineCarry& in) {
  LineCarry out;
  out.a1 = fmaf(t.a[0][0], in.a1, fmaf(t.a[0][1], in.a2, summary.a1));
  out.a2 = fmaf(t.a[1][0], in.a1, fmaf(t.a[1][1], in.a2, summary.a2));
  out.b1 = fmaf(t.b[0][0], in.b1, fmaf(t.b[0][1], in.b2, summary.b1));
  out.b2 = fmaf(t.b[1][0], in.b1, fmaf(t.b[1][1], in.b2, summary.b2));
  return out;
}

// ---- a line's ends: the warm-up over the border extension
// ------------------------------------------------------

// The sample at position p of a line of n samples extended by `border` (`outside` for the constant border);
// sample(i) reads the line's sample i in [0, n).
template <class Sample>
KS_HD float extended_sample(int p, int n, Border border, float outside, const Sample& sample) {
  const int i = remap(p, n, border);
  return i < 0 ? outside : sample(i);
}

// The causal carry into the line's first tile: the state at position -1 after the warm-up the sequential pass
// runs (from the steady state of the sample at -warmup, over the extension).
template <class Sample>
KS_HD LineCarry causal_warmup(const RecursiveGaussian& f, int n, Border border, float outside,
                              const Sample& sample) {
  CausalLine c;
  c.start(f, extended_sample(-f.warmup, n, border, outside, sample));
  for (int p = -f.warmup; p < 0; ++p) c.advance(f, extended_sample(p, n, border, outside, sample));
  return c.s;
}

// The anti-causal carry into the line's last tile: the state at position n (outputs at n and n + 1).
template <class Sample>
KS_HD LineCarry anticausal_warmup(const RecursiveGaussian& f, int n, Border border, float outside,
                                  const Sample& sample) {
  AnticausalLine a;
  a.start(f, extended_sample(n + f.warmup - 1, n, border, outside, sample));
  for (int p = n + f.warmup - 1; p >= n; --p) a.advance(f, extended_sample(p, n, border, outside, sample));
  return a.s;
}

// ---- a tile
// ----------------------------------------------------------------------------------------------------

// The causal state the tile ends in from a zero carry (its summary).
template <class X>
KS_HD LineCarry causal_summary(const RecursiveGaussian& f, int length, const X& x) {
  CausalLine c;
  c.xp = x(-1);
  for (int i = 0; i < length; ++i) c.advance(f, x(i));
  return c.s;
}

// The anti-causal state the tile ends in (at its first sample) from a zero carry.
template <class X>
KS_HD LineCarry anticausal_summary(const RecursiveGaussian& f, int length, const X& x) {
  AnticausalLine a;
  a.x1 = x(length);
  a.x2 = x(length + 1);
  for (int i = length - 1; i >= 0; --i) a.advance(f, x(i));
  return a.s;
}

// The tile's filtered samples from its carries: keep(i) (a float&, not x's storage: the walk back reads x
// again) holds the causal result until the anti-causal walk back hands emit(i, causal + anti-causal).
template <class X, class Keep, class Emit>
KS_HD void filter_tile(const RecursiveGaussian& f, int length, const X& x, const LineCarry& causal_in,
                       const LineCarry& anticausal_in, const Keep& keep, const Emit& emit) {
  CausalLine c;
  c.xp = x(-1);
  c.s = causal_in;
  for (int i = 0; i < length; ++i) keep(i) = c.advance(f, x(i));
  AnticausalLine a;
  a.x1 = x(length);
  a.x2 = x(length + 1);
  a.s = anticausal_in;
  for (int i = length - 1; i >= 0; --i) emit(i, keep(i) + a.advance(f, x(i)));
}

// ---- a line's carries from its tiles' summaries
// ----------------------------------------------------------------

// The walks read the summaries of kWalkBatch tiles at once, before they write those tiles' carries in their
// place: a walk is a chain of tiles, and a GPU thread would otherwise wait for each load in turn.
inline constexpr int kWalkBatch = 8;
#if defined(__CUDA_ARCH__)
#define KS_RECURSIVE_UNROLL _Pragma("unroll")
#else
#define KS_RECURSIVE_UNROLL
#endif

// The walk over a line's `tiles` tiles of one length (the last may be shorter: it is never walked past).
// get(t) is tile t's causal summary; set(t, c) receives the carry into tile t, starting with `first`.
template <class Get, class Set>
KS_HD void causal_carries(int tiles, const TileTransfer& full, LineCarry first, const Get& get,
                          const Set& set) {
  LineCarry in = first;
  for (int t0 = 0; t0 < tiles; t0 += kWalkBatch) {
    LineCarry summary[kWalkBatch];
    KS_RECURSIVE_UNROLL
    for (int k = 0; k < kWalkBatch; ++k)
      if (t0 + k < tiles) summary[k] = get(t0 + k);
    KS_RECURSIVE_UNROLL
    for (int k = 0; k < kWalkBatch; ++k)
      if (t0 + k < tiles) {
        set(t0 + k, in);
        in = carry_through(summary[k], full, in);
      }
  }
}

// The same from the line's end: `last` is the transfer over the last tile's length, `full` over the others'.
template <class Get, class Set>
KS_HD void anticausal_carries(int tiles, const TileTransfer& full, const TileTransfer& last, LineCarry first,
                              const Get& get, const Set& set) {
  LineCarry in = first;
  for (int t0 = tiles - 1; t0 >= 0; t0 -= kWalkBatch) {
    LineCarry summary[kWalkBatch];
    KS_RECURSIVE_UNROLL
    for (int k = 0; k < kWalkBatch; ++k)
      if (t0 - k >= 0) summary[k] = get(t0 - k);
    KS_RECURSIVE_UNROLL
    for (int k = 0; k < kWalkBatch; ++k)
      if (t0 - k >= 0) {
        set(t0 - k, in);
        in = carry_through(summary[k], t0 - k == tiles - 1 ? last : full, in);
      }
  }
}

// A line's tiles: `count` tiles of `length` samples, the last one `last` samples (1 to length).
struct LineTiles {
  int count, length, last;
  KS_HD static LineTiles of(int n, int length) {
    const int count = (n + length - 1) / length;
    return {count, length, n - (count - 1) * length};
  }
  KS_HD int length_of(int t) const { return t == count - 1 ? last : length; }
};

// The summaries, then the carries, of every tile of `lines` parallel lines, as the carry walks read them:
// tile t's eight floats of line l lie `lines` apart (causal a1 a2 b1 b2, then anti-causal), so the lines of a
// tile are side by side and a walk over consecutive lines reads consecutive floats.
struct CarryTable {
  float* base;
  int lines;

  enum Direction : int { kCausal = 0, kAnticausal = 1 };
  KS_HD float* at(int tile, int direction, int line) const {
    return base + ((unsigned long long)tile * 8 + 4 * direction) * (unsigned long long)lines + line;
  }
  KS_HD LineCarry get(int tile, int direction, int line) const {
    const float* p = at(tile, direction, line);
    const unsigned long long n = (unsigned long long)lines;
    return {p[0], p[n], p[2 * n], p[3 * n]};
  }
  KS_HD void set(int tile, int direction, int line, const LineCarry& c) const {
    float* p = at(tile, direction, line);
    const unsigned long long n = (unsigned long long)lines;
    p[0] = c.a1;
    p[n] = c.a2;
    p[2 * n] = c.b1;
    p[3 * n] = c.b2;
  }
  // Floats the table of `tiles` tiles of `lines` lines takes.
  KS_HD static unsigned long long floats(int tiles, int lines) {
    return (unsigned long long)tiles * 8 * (unsigned long long)lines;
  }
};

// A line's carries in `table`, in place of its tiles' summaries: both walks, from the warm-ups over the
// border extension of the line (n samples, read through sample(i)).
template <class Sample>
KS_HD void line_carries(const CarryTable& table, int line, const LineTiles& tiles, const RecursiveGaussian& f,
                        const TileTransfer& full, const TileTransfer& last, Border border, float outside,
                        const Sample& sample) {
  const int n = (tiles.count - 1) * tiles.length + tiles.last;
  const auto get = [&](int dir) { return [&, dir](int t) { return table.get(t, dir, line); }; };
  const auto set = [&](int dir) {
    return [&, dir](int t, const LineCarry& c) { table.set(t, dir, line, c); };
  };
  causal_carries(tiles.count, full, causal_warmup(f, n, border, outside, sample), get(CarryTable::kCausal),
                 set(CarryTable::kCausal));
  anticausal_carries(tiles.count, full, last, anticausal_warmup(f, n, border, outside, sample),
                     get(CarryTable::kAnticausal), set(CarryTable::kAnticausal));
}

// The rows the columns' warm-ups read, beside their own tiles: the first and last `edge` rows of a height-n
// image (all rows when n <= 2 * edge). edge = warmup + 1 covers every border mode (reflect101 reaches row
// warmup; wrap reads the last warmup rows before the first).
struct EdgeRows {
  int n, edge;
  KS_HD static EdgeRows of(int n, int warmup) { return {n, warmup + 1 < n ? warmup + 1 : n}; }
  KS_HD int count() const { return 2 * edge < n ? 2 * edge : n; }
  // The slot of row y in the edge buffer, or -1 for a row in between.
  KS_HD int slot(int y) const {
    if (2 * edge >= n || y < edge) return y;
    return y >= n - edge ? y - (n - 2 * edge) : -1;
  }
};

}  // namespace ks
