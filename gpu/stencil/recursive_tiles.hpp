#pragma once
// The block-parallel form of the recursive Gaussian (stencil/recursive_gaussian.hpp), after Nehab, Maximo,
// Lima and Hoppe, "GPU-efficient recursive filtering and summed-area tables" (2011): a line is cut into
// tiles, and every tile can run its recursions on its own once it knows its carry, the state the recursion
// enters it with: each section's last two outputs and the samples its feed-forward still reads (causal:
// the sample before the tile; anti-causal: the two after it). The recursion is linear, so
//   carry into tile t+1 = summary of tile t + transfer(length of t) (carry into tile t),
// where the summary is the state tile t ends in when it starts from a zero state, and the transfer is what
// the tile does to the state it is carried in with when no input comes (its feedback's powers, and the
// carried samples' share). So a line costs three steps: every tile's summary (parallel over tiles), the
// carries (a short walk over the tiles' summaries, parallel over lines), every tile again with its carry
// (parallel over tiles). A tile reads only its own samples: with the samples in the carry, it needs no halo,
// and its lines are exactly its rows and columns. At the line's ends the first carry comes from the border
// extension, by the same warm-up the sequential pass runs (causal_warmup, anticausal_warmup): the tiled line
// equals the sequential one up to float rounding, in every border mode.
//
// Shared verbatim by the CUDA kernels (cuda/recursive_gaussian.cu) and the CPU test of the decomposition
// (tests/cpu/test_recursive_tiles.cpp). A tile's samples are read through x(i), i in [0, length).
#include <math.h>

#include <vector>

#include "core/border_remap.hpp"
#include "core/hd.hpp"
#include "stencil/recursive_gaussian.hpp"

#if defined(__CUDA_ARCH__)
#define KS_RECURSIVE_UNROLL _Pragma("unroll")
#else
#define KS_RECURSIVE_UNROLL
#endif

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

// What a tile does, over `length` steps with no input, to the state it is carried in with: each section's
// outputs after = its feedback's power times its outputs before, plus the share of the carried samples
// (causal: x[-1] through n1; anti-causal: x[length] and x[length + 1] through m1, m2). Everything the tile's
// own samples add is its summary, so carry out = summary + transfer(carry in) (carry_through).
struct TileTransfer {
  float a[2][2], b[2][2];  // the feedback: (y1, y2) after from (y1, y2) before, sections 0 and 1
  float ax[2], bx[2];      // causal: (y1, y2) after from the carried x[-1]
  // anti-causal: (y1, y2) after from the carried x[length] (column 0) and x[length + 1] (column 1)
  float ay[2][2], by[2][2];
  float x2_from_x1;  // anti-causal, a one-sample tile: its x2 after is the x1 it was carried in with
};

// One section run over `length` samples with no input of its own, in double, from its state (y1, y2) and the
// carried samples (causal: xa = x[-1]; anti-causal: xa = x[length], xb = x[length + 1]): output(k, y) sees the
// k-th output of the walk (k = 0 first: position k causal, length - 1 - k anti-causal); the state it ends in
// stays in y1, y2.
template <class Output>
inline void run_without_input(const RecursiveSection& s, bool causal, int length, double& y1, double& y2,
                              double xa, double xb, const Output& output) {
  for (int k = 0; k < length; ++k) {
    const double y = causal ? s.n1 * xa + s.d1 * y1 + s.d2 * y2 : s.m1 * xa + s.m2 * xb + s.d1 * y1 + s.d2 * y2;
    xb = xa;
    xa = 0;
    y2 = y1;
    y1 = y;
    output(k, y);
  }
}

// In double, by running the sections from unit states: where a section's poles crowd near 1 (large sigma) the
// feedback's powers grow to about length / 2 and cancel, and a float walk of `length` steps would round them
// by more than the tiles' own recursion is off (tests/cpu/test_recursive_tiles.cpp).
inline TileTransfer tile_transfer(const RecursiveGaussian& f, int length) {
  struct Run {  // one section's outputs after `length` steps from (y1, y2) and the carried samples
    double y1, y2;
  };
  const auto run = [&](const RecursiveSection& s, bool causal, double y1, double y2, double xa, double xb) {
    run_without_input(s, causal, length, y1, y2, xa, xb, [](int, double) {});
    return Run{y1, y2};
  };
  TileTransfer t;
  for (int k = 0; k < 2; ++k) {
    const RecursiveSection& s = f.section[k];
    float(&m)[2][2] = k == 0 ? t.a : t.b;
    float(&x)[2] = k == 0 ? t.ax : t.bx;
    float(&y)[2][2] = k == 0 ? t.ay : t.by;
    const Run r1 = run(s, true, 1, 0, 0, 0), r2 = run(s, true, 0, 1, 0, 0), rx = run(s, true, 0, 0, 1, 0);
    const Run r3 = run(s, false, 0, 0, 1, 0), r4 = run(s, false, 0, 0, 0, 1);
    m[0][0] = float(r1.y1), m[1][0] = float(r1.y2), m[0][1] = float(r2.y1), m[1][1] = float(r2.y2);
    x[0] = float(rx.y1), x[1] = float(rx.y2);
    y[0][0] = float(r3.y1), y[1][0] = float(r3.y2), y[0][1] = float(r4.y1), y[1][1] = float(r4.y2);
  }
  t.x2_from_x1 = length == 1 ? 1.f : 0.f;
  return t;
}

// The carry after a tile: its summary (the state it ends in from a zero state) plus what it makes of the
// carry it was given.
KS_HD LineCarry feedback_through(const LineCarry& summary, const TileTransfer& t, const LineCarry& in) {
  LineCarry out;
  out.a1 = fmaf(t.a[0][0], in.a1, fmaf(t.a[0][1], in.a2, summary.a1));
  out.a2 = fmaf(t.a[1][0], in.a1, fmaf(t.a[1][1], in.a2, summary.a2));
  out.b1 = fmaf(t.b[0][0], in.b1, fmaf(t.b[0][1], in.b2, summary.b1));
  out.b2 = fmaf(t.b[1][0], in.b1, fmaf(t.b[1][1], in.b2, summary.b2));
  return out;
}
KS_HD CausalLine carry_through(const CausalLine& summary, const TileTransfer& t, const CausalLine& in) {
  CausalLine out;
  out.xp = summary.xp;
  out.s = feedback_through(summary.s, t, in.s);
  out.s.a1 = fmaf(t.ax[0], in.xp, out.s.a1);
  out.s.a2 = fmaf(t.ax[1], in.xp, out.s.a2);
  out.s.b1 = fmaf(t.bx[0], in.xp, out.s.b1);
  out.s.b2 = fmaf(t.bx[1], in.xp, out.s.b2);
  return out;
}
KS_HD AnticausalLine carry_through(const AnticausalLine& summary, const TileTransfer& t,
                                   const AnticausalLine& in) {
  AnticausalLine out;
  out.x1 = summary.x1;
  out.x2 = fmaf(t.x2_from_x1, in.x1, summary.x2);
  out.s = feedback_through(summary.s, t, in.s);
  out.s.a1 = fmaf(t.ay[0][0], in.x1, fmaf(t.ay[0][1], in.x2, out.s.a1));
  out.s.a2 = fmaf(t.ay[1][0], in.x1, fmaf(t.ay[1][1], in.x2, out.s.a2));
  out.s.b1 = fmaf(t.by[0][0], in.x1, fmaf(t.by[0][1], in.x2, out.s.b1));
  out.s.b2 = fmaf(t.by[1][0], in.x1, fmaf(t.by[1][1], in.x2, out.s.b2));
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
KS_HD CausalLine causal_warmup(const RecursiveGaussian& f, int n, Border border, float outside,
                               const Sample& sample) {
  CausalLine c;
  c.start(f, extended_sample(-f.warmup, n, border, outside, sample));
  for (int p = -f.warmup; p < 0; ++p) c.advance(f, extended_sample(p, n, border, outside, sample));
  return c;
}

// The anti-causal carry into the line's last tile: the state at position n (outputs at n and n + 1, samples n
// and n + 1).
template <class Sample>
KS_HD AnticausalLine anticausal_warmup(const RecursiveGaussian& f, int n, Border border, float outside,
                                       const Sample& sample) {
  AnticausalLine a;
  a.start(f, extended_sample(n + f.warmup - 1, n, border, outside, sample));
  for (int p = n + f.warmup - 1; p >= n; --p) a.advance(f, extended_sample(p, n, border, outside, sample));
  return a;
}

// The same warm-ups as sums of the extension's samples times their weights, which the GPU splits over many
// threads (a warm-up is a few hundred to a thousand samples, serial in the recursion's form): each sample's
// share of the end state, the start's steady state folded into the farthest sample (the one it is taken
// from).
struct WarmupWeight {
  float a1, a2, b1, b2;
};
// [q], q in [0, warmup): the sample at distance q outside the line (causal: position -1 - q; anti-causal:
// n + q).
struct WarmupWeights {
  std::vector<WarmupWeight> causal, anticausal;
};

inline WarmupWeights warmup_weights(const RecursiveGaussian& f) {
  const int w = f.warmup;
  WarmupWeights out{std::vector<WarmupWeight>(std::size_t(w)), std::vector<WarmupWeight>(std::size_t(w))};
  double share[2][2][2];  // [causal, anti-causal][section][y1, y2]: the start's, from a steady state of 1
  for (int k = 0; k < 2; ++k) {
    const RecursiveSection& s = f.section[k];
    double h1 = 0, h2 = 0, g1 = 0, g2 = 0;  // the responses at distance q - 1 and q - 2
    for (int q = 0; q < w; ++q) {
      const double h = (q == 0 ? s.n0 : q == 1 ? s.n1 : 0.0) + s.d1 * h1 + s.d2 * h2;
      const double g = (q == 1 ? s.m1 : q == 2 ? s.m2 : 0.0) + s.d1 * g1 + s.d2 * g2;
      WarmupWeight& c = out.causal[std::size_t(q)];
      WarmupWeight& a = out.anticausal[std::size_t(q)];
      (k == 0 ? c.a1 : c.b1) = float(h);
      (k == 0 ? c.a2 : c.b2) = float(h1);
      (k == 0 ? a.a1 : a.b1) = float(g);
      (k == 0 ? a.a2 : a.b2) = float(g1);
      h2 = h1, h1 = h, g2 = g1, g1 = g;
    }
    for (int direction = 0; direction < 2; ++direction) {
      const double gain = direction == 0 ? s.causal_gain : s.anticausal_gain;
      double y1 = gain, y2 = gain, x1 = 1, x2 = 1;  // the start; the samples it carries, then none
      for (int i = 0; i < w; ++i) {
        const double y = direction == 0 ? s.n1 * x1 + s.d1 * y1 + s.d2 * y2
                                        : s.m1 * x1 + s.m2 * x2 + s.d1 * y1 + s.d2 * y2;
        x2 = x1, x1 = 0, y2 = y1, y1 = y;
      }
      share[direction][k][0] = y1;
      share[direction][k][1] = y2;
    }
  }
  if (w > 0) {
    WarmupWeight& c = out.causal[std::size_t(w - 1)];
    WarmupWeight& a = out.anticausal[std::size_t(w - 1)];
    c.a1 = float(double(c.a1) + share[0][0][0]), c.a2 = float(double(c.a2) + share[0][0][1]);
    c.b1 = float(double(c.b1) + share[0][1][0]), c.b2 = float(double(c.b2) + share[0][1][1]);
    a.a1 = float(double(a.a1) + share[1][0][0]), a.a2 = float(double(a.a2) + share[1][0][1]);
    a.b1 = float(double(a.b1) + share[1][1][0]), a.b2 = float(double(a.b2) + share[1][1][1]);
  }
  return out;
}

KS_HD void add_warmup_share(const WarmupWeight& w, float x, LineCarry& s) {
  s.a1 = fmaf(w.a1, x, s.a1);
  s.a2 = fmaf(w.a2, x, s.a2);
  s.b1 = fmaf(w.b1, x, s.b1);
  s.b2 = fmaf(w.b2, x, s.b2);
}

// The shares of the samples at distances q0, q0 + step, ... of both warm-ups of a line of n samples (the
// whole warm-ups with q0 = 0, step = 1), added to causal and anticausal.
template <class Sample>
KS_HD void add_warmup_shares(const WarmupWeight* causal_weights, const WarmupWeight* anticausal_weights,
                             int warmup, int q0, int step, int n, Border border, float outside,
                             const Sample& sample, LineCarry& causal, LineCarry& anticausal) {
  for (int q = q0; q < warmup; q += step) {
    add_warmup_share(causal_weights[q], extended_sample(-1 - q, n, border, outside, sample), causal);
    add_warmup_share(anticausal_weights[q], extended_sample(n + q, n, border, outside, sample), anticausal);
  }
}

// The warm-ups' samples: the one before the line, the two after it.
template <class Sample>
KS_HD void set_warmup_samples(int n, Border border, float outside, const Sample& sample, CausalLine& causal,
                              AnticausalLine& anticausal) {
  causal.xp = extended_sample(-1, n, border, outside, sample);
  anticausal.x1 = extended_sample(n, n, border, outside, sample);
  anticausal.x2 = extended_sample(n + 1, n, border, outside, sample);
}

// Both warm-ups of a line as weighted sums, whole (the CPU test's mirror of the GPU's warm-up kernel).
template <class Sample>
void weighted_warmups(const WarmupWeights& w, int n, Border border, float outside, const Sample& sample,
                      CausalLine& causal, AnticausalLine& anticausal) {
  causal = {};
  anticausal = {};
  add_warmup_shares(w.causal.data(), w.anticausal.data(), int(w.causal.size()), 0, 1, n, border, outside,
                    sample, causal.s, anticausal.s);
  set_warmup_samples(n, border, outside, sample, causal, anticausal);
}

// ---- a tile
// ----------------------------------------------------------------------------------------------------

// The causal state the tile ends in from a zero state (its summary), by the recursion.
template <class X>
KS_HD CausalLine causal_summary(const RecursiveGaussian& f, int length, const X& x) {
  CausalLine c;
  for (int i = 0; i < length; ++i) c.advance(f, x(i));
  return c;
}

// The anti-causal state the tile ends in (at its first sample) from a zero state.
template <class X>
KS_HD AnticausalLine anticausal_summary(const RecursiveGaussian& f, int length, const X& x) {
  AnticausalLine a;
  for (int i = length - 1; i >= 0; --i) a.advance(f, x(i));
  return a;
}

// The same summaries as sums of the tile's samples times the sections' responses, which the GPU computes
// without waiting on a recursion (each sample's products are independent): a causal output from a zero state
// is the sum over the samples before it of h(distance) x, an anti-causal one of g(distance) x. Up to
// kMaxSummaryTile samples.
inline constexpr int kMaxSummaryTile = 64;
struct SummaryWeights {
  // [section][d + 1]: h[k][d + 1] the causal section's response at distance d (d = -1: none, 0),
  // g[k][d + 1] the anti-causal one's (d = 0 is 0: an anti-causal output reads only the samples after it).
  float h[2][kMaxSummaryTile + 1];
  float g[2][kMaxSummaryTile + 1];
};

inline SummaryWeights summary_weights(const RecursiveGaussian& f) {
  SummaryWeights w{};
  for (int k = 0; k < 2; ++k) {
    const RecursiveSection& s = f.section[k];
    double c1 = 0, c2 = 0, a1 = 0, a2 = 0;  // the responses' last two values
    for (int d = 0; d < kMaxSummaryTile; ++d) {
      // A unit sample at distance d: causal n0 at 0, n1 at 1; anti-causal m1 at 1, m2 at 2; then feedback.
      const double c = (d == 0 ? s.n0 : d == 1 ? s.n1 : 0.0) + s.d1 * c1 + s.d2 * c2;
      const double a = (d == 1 ? s.m1 : d == 2 ? s.m2 : 0.0) + s.d1 * a1 + s.d2 * a2;
      w.h[k][d + 1] = float(c);
      w.g[k][d + 1] = float(a);
      c2 = c1, c1 = c, a2 = a1, a1 = a;
    }
  }
  return w;
}

// Sample i's share of a causal summary of a `length`-sample tile: its output at length - 1 (a1, b1) and
// length - 2 (a2, b2).
KS_HD void add_causal_share(const SummaryWeights& w, int length, int i, float x, LineCarry& s) {
  const int d = length - 1 - i;
  s.a1 = fmaf(w.h[0][d + 1], x, s.a1);
  s.a2 = fmaf(w.h[0][d], x, s.a2);
  s.b1 = fmaf(w.h[1][d + 1], x, s.b1);
  s.b2 = fmaf(w.h[1][d], x, s.b2);
}
// Sample i's share of an anti-causal summary: its output at 0 (a1, b1) and 1 (a2, b2).
KS_HD void add_anticausal_share(const SummaryWeights& w, int i, float x, LineCarry& s) {
  s.a1 = fmaf(w.g[0][i + 1], x, s.a1);
  s.a2 = fmaf(w.g[0][i], x, s.a2);
  s.b1 = fmaf(w.g[1][i + 1], x, s.b1);
  s.b2 = fmaf(w.g[1][i], x, s.b2);
}

// kMax > 0: the tile has at most kMax samples, and the loop is unrolled over kMax (with length == kMax a
// constant, the GPU's full tiles, the weights become the multiply-adds' constant operands).
template <int kMax = 0, class X>
KS_HD void weighted_summaries(const SummaryWeights& w, int length, const X& x, CausalLine& causal,
                              AnticausalLine& anticausal) {
  causal = {};
  anticausal = {};
  KS_RECURSIVE_UNROLL
  for (int i = 0; i < (kMax > 0 ? kMax : length); ++i)
    if (kMax == 0 || i < length) {
      const float v = x(i);
      add_causal_share(w, length, i, v, causal.s);
      add_anticausal_share(w, i, v, anticausal.s);
    }
  causal.xp = x(length - 1);
  anticausal.x1 = x(0);
  anticausal.x2 = length > 1 ? x(1) : 0.f;
}

// The tile's filtered samples from its carries: keep(i) (a float&, not x's storage: the walk back reads x
// again) holds the causal result until the anti-causal walk back hands emit(i, causal + anti-causal). kMax as
// for weighted_summaries.
// The states the walks end in go to causal_end and anticausal_end where given: from zero carries they are the
// tile's summaries (the two-read form, recursive_carry_shares.hpp, takes them so, with no weighted sums).
template <int kMax = 0, class X, class Keep, class Emit>
KS_HD void filter_tile(const RecursiveGaussian& f, int length, const X& x, const CausalLine& causal_in,
                       const AnticausalLine& anticausal_in, const Keep& keep, const Emit& emit,
                       CausalLine* causal_end = nullptr, AnticausalLine* anticausal_end = nullptr) {
  CausalLine c = causal_in;
  KS_RECURSIVE_UNROLL
  for (int i = 0; i < (kMax > 0 ? kMax : length); ++i)
    if (kMax == 0 || i < length) keep(i) = c.advance(f, x(i));
  AnticausalLine a = anticausal_in;
  KS_RECURSIVE_UNROLL
  for (int i = (kMax > 0 ? kMax : length) - 1; i >= 0; --i)
    if (kMax == 0 || i < length) emit(i, keep(i) + a.advance(f, x(i)));
  if (causal_end) *causal_end = c;
  if (anticausal_end) *anticausal_end = a;
}

// ---- a line's carries from its tiles' summaries
// ----------------------------------------------------------------

// The walks read the summaries of kWalkBatch tiles at once, before they write those tiles' carries in their
// place: a walk is a chain of tiles, and a GPU thread would otherwise wait for each load in turn.
inline constexpr int kWalkBatch = 8;

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
// tile t's kFloats floats of line l lie `lines` apart (causal xp a1 a2 b1 b2, then anti-causal x1 x2 a1 a2 b1
// b2), so the lines of a tile are side by side and a walk over consecutive lines reads consecutive floats.
struct CarryTable {
  float* base;
  int lines;

  static constexpr int kFloats = 11;
  KS_HD float* at(int tile, int line) const {
    return base + (unsigned long long)tile * kFloats * (unsigned long long)lines + line;
  }
  KS_HD CausalLine causal(int tile, int line) const {
    const float* p = at(tile, line);
    const unsigned long long n = (unsigned long long)lines;
    CausalLine c;
    c.xp = p[0];
    c.s = {p[n], p[2 * n], p[3 * n], p[4 * n]};
    return c;
  }
  KS_HD AnticausalLine anticausal(int tile, int line) const {
    const float* p = at(tile, line);
    const unsigned long long n = (unsigned long long)lines;
    AnticausalLine a;
    a.x1 = p[5 * n];
    a.x2 = p[6 * n];
    a.s = {p[7 * n], p[8 * n], p[9 * n], p[10 * n]};
    return a;
  }
  KS_HD void set(int tile, int line, const CausalLine& c) const {
    float* p = at(tile, line);
    const unsigned long long n = (unsigned long long)lines;
    p[0] = c.xp;
    p[n] = c.s.a1, p[2 * n] = c.s.a2, p[3 * n] = c.s.b1, p[4 * n] = c.s.b2;
  }
  KS_HD void set(int tile, int line, const AnticausalLine& a) const {
    float* p = at(tile, line);
    const unsigned long long n = (unsigned long long)lines;
    p[5 * n] = a.x1, p[6 * n] = a.x2;
    p[7 * n] = a.s.a1, p[8 * n] = a.s.a2, p[9 * n] = a.s.b1, p[10 * n] = a.s.b2;
  }
  // Floats the table of `tiles` tiles of `lines` lines takes.
  KS_HD static unsigned long long floats(int tiles, int lines) {
    return (unsigned long long)tiles * kFloats * (unsigned long long)lines;
  }
};

// The transfers a line's walks use: over a full tile and over the last one (which may be shorter).
struct LineTransfers {
  TileTransfer full, last;
};

inline LineTransfers line_transfers(const RecursiveGaussian& f, const LineTiles& tiles) {
  return {tile_transfer(f, tiles.length), tile_transfer(f, tiles.last)};
}

// The walk over a line's `tiles` tiles: get(t) is tile t's summary; set(t, c) receives the carry into tile t,
// starting with `first`. A causal walk never carries past the last tile, so only the anti-causal one, which
// starts there, crosses the last tile's transfer: its first step, before the batches that all cross full
// tiles.
template <class Line, class Get, class Set>
KS_HD void walk_carries(int tiles, bool backwards, Line first, const Get& get, const Set& set,
                        const LineTransfers& transfers) {
  Line in = first;
  int k0 = 0;  // tiles walked
  if (backwards) {
    const Line summary = get(tiles - 1);
    set(tiles - 1, in);
    in = carry_through(summary, transfers.last, in);
    k0 = 1;
  }
  const TileTransfer& full = transfers.full;
  for (; k0 < tiles; k0 += kWalkBatch) {
    Line summary[kWalkBatch];
    KS_RECURSIVE_UNROLL
    for (int k = 0; k < kWalkBatch; ++k)
      if (k0 + k < tiles) summary[k] = get(backwards ? tiles - 1 - (k0 + k) : k0 + k);
    KS_RECURSIVE_UNROLL
    for (int k = 0; k < kWalkBatch; ++k)
      if (k0 + k < tiles) {
        set(backwards ? tiles - 1 - (k0 + k) : k0 + k, in);
        in = carry_through(summary[k], full, in);
      }
  }
}

// A line's causal and anti-causal carries in `table`, in place of its tiles' summaries, from the carries into
// its ends (`warmups`: the warm-ups over the border extension).
KS_HD void line_carries(const CarryTable& table, int line, bool backwards, const LineTiles& tiles,
                        const LineTransfers& transfers, const CarryTable& warmups) {
  if (!backwards) {
    walk_carries(
        tiles.count, false, warmups.causal(0, line), [&](int t) { return table.causal(t, line); },
        [&](int t, const CausalLine& c) { table.set(t, line, c); }, transfers);
  } else {
    walk_carries(
        tiles.count, true, warmups.anticausal(0, line), [&](int t) { return table.anticausal(t, line); },
        [&](int t, const AnticausalLine& a) { table.set(t, line, a); }, transfers);
  }
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
