// The CUDA backend of the topology sweep (make_cuda_backend): uploads the problem once, then runs each pass
// of a batch as one kernel (topo_kernels.cuh) and reduces on the device; only per-pair summaries, histogram
// counts, the top candidates and (when asked) the cube come back.
//
// Arithmetic: exact problems whose largest cost stays below 2^21 (so that every partial sum of the delta, at
// most 8x the bound, is below 2^24) run in float (ExactFloat: integers, every operation exact, half the
// registers of double and the FP32 units); below 2^50 (partial sums below 2^53) in double (ExactDouble, the FP64
// units); other exact problems in 64-bit integers; real-valued ones in separately rounded double
// (RealDouble). "delta" follows the same sweep plan as the CPU, so its costs equal the CPU's to the last bit
// in every mode; "naive" evaluates each placement from the definition, which equals the CPU exactly for exact
// problems and within rounding for real-valued ones.
#include <cuda_runtime.h>

#include <algorithm>
#include <type_traits>

#include "core/cuda/check.cuh"
#include "core/cuda/device_buffer.cuh"
#include "core/cuda/event_timer.cuh"
#include "core/error.hpp"
#include "topo/cuda/topo_kernels.cuh"
#include "topo/sweep/head_tables.hpp"

namespace ks::topo {

namespace {

using cuda::PassArgs;

constexpr unsigned long long kTopCapacity = 1ull << 21;  // candidates per batch (64 MB)

// (No fmt here: its headers do not compile under nvcc in C++20 mode; std::to_string instead.)
using std::to_string;

// Grows `buffer` to at least `bytes`.
void ensure(ks::cuda::DeviceBuffer& buffer, std::size_t bytes, const char* what) {
  if (buffer.bytes() < bytes) buffer = ks::cuda::DeviceBuffer(std::max<std::size_t>(bytes, 256), what);
}

// The last bin of each configuration (on the top slice) whose costs can be among the top K, from the
// histogram of the whole sweep: the smallest bin edge E below which at least K costs lie; every top-K cost is
// then below E, so within bin_c(E) of its configuration c. -1 .. 63; 63 everywhere when no edge qualifies.
std::vector<int> top_bins(const Problem& p, const PassIo& io) {
  std::vector<int> last(std::size_t(p.configs), kHistogramBins - 1);
  if (!io.counts || !io.bins) return last;
  const auto pair = [&](int c) {
    return std::size_t(io.top_slice) * std::size_t(p.configs) + std::size_t(c);
  };
  auto below = [&](std::int64_t ei, double ed, std::vector<int>& bins_at) {
    std::uint64_t n = 0;
    for (int c = 0; c < p.configs; ++c) {
      const HistogramBins& b = (*io.bins)[pair(c)];
      const int at = p.exact ? exact_bin(ei, b) : real_bin(ed, b);
      bins_at[std::size_t(c)] = at;
      for (int k = 0; k < at; ++k) n += (*io.counts)[pair(c)][std::size_t(k)];
    }
    return n;
  };
  bool found = false;
  std::int64_t best_i = 0;
  double best_d = 0;
  std::vector<int> bins_at(std::size_t(p.configs));
  for (int c = 0; c < p.configs; ++c) {
    const HistogramBins& b = (*io.bins)[pair(c)];
    for (int k = 1; k < kHistogramBins; ++k) {
      const std::int64_t ei = b.lo_i + b.width_i * k;
      const double ed = b.lo_d + b.width_d * k;
      if (found && (p.exact ? ei >= best_i : ed >= best_d)) break;
      if (below(ei, ed, bins_at) >= std::uint64_t(io.top_k)) {
        found = true;
        best_i = ei;
        best_d = ed;
        break;
      }
    }
  }
  if (found) below(best_i, best_d, last);
  return last;
}

class CudaBackend final : public SweepBackend {
 public:
  CudaBackend(const Problem& p, CudaContext& ctx, std::string variant, int block_threads)
      : p_(p), ctx_(ctx), variant_(std::move(variant)), threads_(block_threads) {
    ctx.make_current();  // the context's device, whichever thread (a worker per GPU) builds this backend
    stream_ = static_cast<cudaStream_t>(ctx.stream());
    if (p.exact && p.cost_bound < (std::uint64_t(1) << 21))
      policy_ = Policy::ExactFloat;
    else if (p.exact && p.cost_bound < (std::uint64_t(1) << 50))
      policy_ = Policy::ExactDouble;
    else if (p.exact)
      policy_ = Policy::ExactInt64;
    else
      policy_ = Policy::Real;
    ks::cuda::EventTimer timer(stream_);
    timer.start();
    if (policy_ == Policy::ExactInt64) {
      upload(traffic_, p.traffic_scaled);
      upload(cost_, p.cost_scaled);
    } else if (policy_ == Policy::ExactFloat) {
      upload(traffic_, std::vector<float>(p.traffic_scaled.begin(), p.traffic_scaled.end()));
      upload(cost_, std::vector<float>(p.cost_scaled.begin(), p.cost_scaled.end()));
    } else if (policy_ == Policy::ExactDouble) {
      upload(traffic_, std::vector<double>(p.traffic_scaled.begin(), p.traffic_scaled.end()));
      upload(cost_, std::vector<double>(p.cost_scaled.begin(), p.cost_scaled.end()));
    } else {
      upload(traffic_, p.traffic_real);
      upload(cost_, p.cost_real);
    }
    timer.stop();
    upload_ms_ = timer.elapsed_ms();
  }

  std::string device() const override { return ctx_.device().name; }
  std::string launch_description() const override { return launch_; }
  double upload_ms() const override { return upload_ms_; }
  double download_ms() const override { return download_ms_; }
  // 50 ms at 80 G evaluations/s: enough runs per launch to fill the GPU (sweep_plan.cpp), small enough that the
  // chunks of a large sweep balance across GPUs and ranks (n = 14: 20 chunks; n = 16: 4900).
  std::uint64_t default_batch_evaluations() const override { return std::uint64_t(1) << 32; }

  double run(Pass pass, const PlacementSource& src, std::uint64_t a, std::uint64_t b, PassIo& io) override {
    if (b <= a) return 0;
    ctx_.make_current();
    if (src.mode != PlacementMode::All || src.plan->h == 0 || variant_ != "delta") return run_policy(pass, src, a, b, io);
    // A sweep with a head: one launch per head, each with that head's tables (sweep_head.hpp).
    upload_head_tables(*src.plan);
    const std::uint64_t per_head = src.plan->layout.runs_per_head;
    double ms = 0;
    while (a < b) {
      const std::uint64_t end = std::min(b, (src.plan->head_of_run(a) + 1) * per_head);
      ms += run_policy(pass, src, a, end, io);
      a = end;
    }
    return ms;
  }

 private:
  enum class Policy { ExactInt64, ExactFloat, ExactDouble, Real };

  double run_policy(Pass pass, const PlacementSource& src, std::uint64_t a, std::uint64_t b, PassIo& io) {
    switch (policy_) {
      case Policy::ExactInt64:
        return run_typed<ExactInt64>(pass, src, a, b, io, false);
      case Policy::ExactFloat:
        return run_float(pass, src, a, b, io);
      case Policy::ExactDouble:
        return run_typed<ExactDouble>(pass, src, a, b, io, false);
      default:
        return run_typed<RealDouble>(pass, src, a, b, io, false);
    }
  }

  // The head tables of `plan` on the device, in the policy's type (made and uploaded on its first batch).
  void upload_head_tables(const SweepPlan& plan) {
    if (heads_uploaded_ == plan.heads && heads_t_ == plan.t) return;
    const auto put = [&](const auto& tables) {
      upload(head_traffic_, tables.traffic);
      upload(head_cost_, tables.cost);
      upload(head_lin_, tables.lin);
      upload(head_constant_, tables.constant);
    };
    switch (policy_) {
      case Policy::ExactInt64:
        put(make_head_tables<ExactInt64>(p_, plan));
        break;
      case Policy::ExactFloat:
        put(converted<float>(make_head_tables<ExactInt64>(p_, plan)));
        break;
      case Policy::ExactDouble:
        put(converted<double>(make_head_tables<ExactInt64>(p_, plan)));
        break;
      default:
        put(make_head_tables<RealDouble>(p_, plan));
    }
    heads_uploaded_ = plan.heads;
    heads_t_ = plan.t;
  }

  // A float pass; a Stats walk runs the runs that a range end cuts (at most the first and the last of the
  // sweep) apart, so that the other runs get the Stats kernel, which tests nothing per placement. Exact sums
  // and minima with their keys merge in any order, so the pieces give the bits of one launch.
  double run_float(Pass pass, const PlacementSource& src, std::uint64_t a, std::uint64_t b, PassIo& io) {
    if (pass != Pass::Stats || src.mode != PlacementMode::All || variant_ != "delta")
      return run_typed<ExactFloat>(pass, src, a, b, io, false);
    const SweepPlan& plan = *src.plan;
    double ms = 0;
    if (plan.run(a).masked) {
      ms += run_typed<ExactFloat>(pass, src, a, a + 1, io, false);
      ++a;
    }
    if (a < b && plan.run(b - 1).masked) {
      ms += run_typed<ExactFloat>(pass, src, b - 1, b, io, false);
      --b;
    }
    if (a < b) ms += run_typed<ExactFloat>(pass, src, a, b, io, true);  // last: the launch description is this one
    return ms;
  }

  template <class T>
  void upload(ks::cuda::DeviceBuffer& to, const std::vector<T>& v) {
    to = ks::cuda::DeviceBuffer(v.size() * sizeof(T), "the topology matrices");
    ks::cuda::check(
        cudaMemcpyAsync(to.get(), v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream_),
        "uploading the topology matrices");
  }

  template <class T>
  void download(T* host, const ks::cuda::DeviceBuffer& from, std::size_t count) {
    if (!count) return;
    ks::cuda::EventTimer timer(stream_);
    timer.start();
    ks::cuda::check(cudaMemcpyAsync(host, from.get(), count * sizeof(T), cudaMemcpyDeviceToHost, stream_),
                    "downloading topology results");
    timer.stop();
    download_ms_ += timer.elapsed_ms();
  }

  // Launches `kernel` over units x pairs (block rows) with the shared memory it needs.
  template <class Kernel, class Args>
  void launch(Kernel kernel, const Args& args, std::uint64_t units, int rows, std::size_t smem,
              const char* name, const std::string& shape) {
    const std::uint64_t blocks = (units + std::uint64_t(threads_) - 1) / std::uint64_t(threads_);
    if (rows > 65535)
      throw_usage(to_string(rows) + " slice x configuration pairs is more than one launch takes (65535)",
                  "evaluate fewer timestamps or configurations at once");
    if (smem > 48 * 1024)
      ks::cuda::check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)),
                      "raising the shared memory of the topology kernel");
    kernel<<<dim3(unsigned(blocks), unsigned(rows)), dim3(unsigned(threads_)), smem, stream_>>>(args);
    ks::cuda::check_launch(name);
    if (args.pass == Pass::Stats) {
      cudaFuncAttributes attr{};
      cudaFuncGetAttributes(&attr, kernel);
      launch_ = std::string(name) + " " + shape + ": " + to_string(blocks) + " x " + to_string(rows) +
                " blocks of " + to_string(threads_) + " threads, " + to_string(attr.numRegs) +
                " registers, " + to_string(smem) + " B shared, " + arithmetic();
    }
  }

  // How the kernel adds up costs, for the launch description (tests and users read which policy ran).
  const char* arithmetic() const {
    switch (policy_) {
      case Policy::ExactFloat:
        return "exact in float";
      case Policy::ExactDouble:
        return "exact in double";
      case Policy::ExactInt64:
        return "exact in 64-bit integers";
      default:
        return "real, in double";
    }
  }

  template <class A, int N>
  void launch_walk(PassArgs<typename A::Value>& args, std::uint64_t units, int rows, bool whole_runs) {
    const std::size_t smem = cuda::SharedLayout<typename A::Value>::bytes(args.n, threads_);
    const std::string shape = std::string("<n=") + (N ? to_string(N) : std::string("any")) + ">";
    // The Stats pass in float over runs that no range end cuts has a kernel of its own (topo_kernels.cuh,
    // StatsVisit); in the 8-byte types that kernel takes about 250 registers a thread (PERF.md), so they keep
    // the one kernel of every pass.
    if constexpr (std::is_same_v<A, ExactFloat>) {
      if (args.pass == Pass::Stats && whole_runs)
        return launch(cuda::walk_kernel<A, N, true>, args, units, rows, smem, "walk_kernel", shape);
    }
    launch(cuda::walk_kernel<A, N, false>, args, units, rows, smem, "walk_kernel", shape);
  }

  // The walk of one head's tail (n = 17: 16 positions, the kernel of n = 16 with the head's share added).
  template <class A>
  void launch_headed_walk(PassArgs<typename A::Value>& args, std::uint64_t units, int rows, bool whole_runs) {
    const std::size_t smem = cuda::SharedLayout<typename A::Value>::bytes(args.n, threads_, true);
    const std::string shape = "<head of " + to_string(p_.n - args.n) + ", n=any>";
    if constexpr (std::is_same_v<A, ExactFloat>) {
      if (args.pass == Pass::Stats && whole_runs)
        return launch(cuda::walk_kernel<A, 0, true, true>, args, units, rows, smem, "walk_kernel", shape);
    }
    launch(cuda::walk_kernel<A, 0, false, true>, args, units, rows, smem, "walk_kernel", shape);
  }

  // The sizes worth a kernel of their own: the O(n) swaps of the prefix and the block tables unroll.
  template <class A>
  void walk_with_size(PassArgs<typename A::Value>& args, std::uint64_t units, int rows, bool whole_runs) {
    if (args.lin) return launch_headed_walk<A>(args, units, rows, whole_runs);
    switch (args.n) {
      case 12:
        return launch_walk<A, 12>(args, units, rows, whole_runs);
      case 14:
        return launch_walk<A, 14>(args, units, rows, whole_runs);
      default:
        return launch_walk<A, 0>(args, units, rows, whole_runs);
    }
  }

  // The rows of placement indices a pass covers, and whether its threads walk runs (delta) or take items.
  struct PassRows {
    bool walk = false;
    std::uint64_t first = 0, count = 0;
  };

  // One pass over [a, b): the kernel's arguments, its buffers, the launch (timed), then the results merged
  // into io. whole_runs: a walk whose runs no range end cuts.
  template <class A>
  double run_typed(Pass pass, const PlacementSource& src, std::uint64_t a, std::uint64_t b, PassIo& io,
                   bool whole_runs) {
    using V = typename A::Value;
    PassArgs<V> args = problem_args<V>(pass, src, io);
    const PassRows rows = assign_units(src, a, b, args);
    bind_pass_buffers<V>(pass, io, rows, args);
    const double ms = launch_pass<A>(pass, rows.walk, whole_runs, args);
    collect<A>(pass, io, rows);
    return ms;
  }

  // The problem and the pass, as every kernel takes them.
  template <class V>
  PassArgs<V> problem_args(Pass pass, const PlacementSource& src, const PassIo& io) const {
    PassArgs<V> args;
    args.traffic = traffic_.as<V>();
    args.cost = cost_.as<V>();
    args.n = p_.n;
    args.slice0 = pass == Pass::Top ? io.top_slice : 0;
    args.slices = pass == Pass::Top ? 1 : p_.slices;
    args.configs = p_.configs;
    args.pass = pass;
    args.pairs = int(p_.pairs());
    args.mode = src.mode;
    args.seed = src.seed;
    return args;
  }

  // What the threads take: runs (delta), or placements, samples, list rows (items); uploads given placements.
  template <class V>
  PassRows assign_units(const PlacementSource& src, std::uint64_t a, std::uint64_t b, PassArgs<V>& args) {
    PassRows rows;
    rows.walk = src.mode == PlacementMode::All && variant_ == "delta";
    rows.first = a;
    rows.count = b - a;
    if (src.mode == PlacementMode::All) {
      const SweepPlan& plan = *src.plan;
      args.keys = plan.keys();
      rows.first = std::max(plan.layout.run_start(a), plan.lo);
      rows.count = std::min(plan.layout.run_start(b), plan.hi) - rows.first;
      if (rows.walk) {
        args.unit0 = a;
        args.units = b - a;
        args.q = plan.q;
        args.heap_steps = plan.heap.count;
        std::copy(plan.heap.step, plan.heap.step + plan.heap.count, args.heap);
        args.runs = plan.layout;
        args.head = plan.head_of_run(a);
        args.codes = plan.layout.codes_of_head(args.head);
        if (plan.h > 0) {  // runs of one head (run() cut them so): its tables
          const std::uint64_t head = args.head;
          const std::size_t tt = std::size_t(plan.t) * std::size_t(plan.t);
          const std::size_t slices = std::size_t(p_.slices), pairs = std::size_t(p_.pairs());
          args.n = plan.t;
          args.traffic = head_traffic_.as<V>() + std::size_t(head) * slices * tt;
          args.cost = head_cost_.as<V>();
          args.lin = head_lin_.as<V>() + std::size_t(head) * pairs * tt;
          args.constants = head_constant_.as<V>() + std::size_t(head) * pairs;
          args.head_bits = head << kHeadKeyShift;
          args.head_first = head * plan.layout.tail_total;
        }
      } else {
        args.unit0 = rows.first;
        args.units = rows.count;
      }
    } else {
      args.unit0 = a;
      args.units = b - a;
      if (src.mode == PlacementMode::Given) {
        if (listed_source_ != src.listed) {
          listed_ = ks::cuda::upload_array(src.listed->data(), src.listed->size(), "the given placements");
          listed_source_ = src.listed;
        }
        args.listed = listed_.as<std::uint8_t>();
      }
    }
    return rows;
  }

  // The pass's inputs and outputs on the device: histogram bins, counts, the top's bins and candidates, the
  // cube.
  template <class V>
  void bind_pass_buffers(Pass pass, const PassIo& io, const PassRows& rows, PassArgs<V>& args) {
    const std::size_t pairs = std::size_t(p_.pairs());
    if (pass == Pass::Histogram || pass == Pass::Top) {
      ensure(bins_, pairs * sizeof(HistogramBins), "histogram bins");
      ks::cuda::check(cudaMemcpyAsync(bins_.get(), io.bins->data(), pairs * sizeof(HistogramBins),
                                      cudaMemcpyHostToDevice, stream_),
                      "uploading histogram bins");
      args.bins = bins_.as<HistogramBins>();
    }
    if (pass == Pass::Histogram) {
      ensure(counts_, pairs * kHistogramBins * sizeof(unsigned long long), "histogram counts");
      ks::cuda::check(
          cudaMemsetAsync(counts_.get(), 0, pairs * kHistogramBins * sizeof(unsigned long long), stream_),
          "clearing histogram counts");
      args.counts = counts_.as<unsigned long long>();
    } else if (pass == Pass::Top) {
      const std::vector<int> top_bin = top_bins(p_, io);
      ensure(top_bin_, top_bin.size() * sizeof(int), "top bins");
      ks::cuda::check(cudaMemcpyAsync(top_bin_.get(), top_bin.data(), top_bin.size() * sizeof(int),
                                      cudaMemcpyHostToDevice, stream_),
                      "uploading top bins");
      ensure(top_, kTopCapacity * sizeof(Candidate), "top candidates");
      ensure(top_count_, sizeof(unsigned long long), "top count");
      ks::cuda::check(cudaMemsetAsync(top_count_.get(), 0, sizeof(unsigned long long), stream_),
                      "clearing top count");
      args.top_bin = top_bin_.as<int>();
      args.top = top_.as<Candidate>();
      args.top_count = top_count_.as<unsigned long long>();
      args.top_capacity = kTopCapacity;
    } else if (pass == Pass::Cube) {
      // 8 bytes a cost whatever V: exact policies write integers, the real one doubles.
      ensure(cube_, rows.count * pairs * sizeof(std::int64_t), "the cost cube");
      args.cube_i = cube_.as<std::int64_t>();
      args.cube_d = cube_.as<double>();
      args.cube_first = rows.first;
    }
  }

  // The pass's kernel (and the reduction of a Stats pass), timed by CUDA events; milliseconds.
  template <class A>
  double launch_pass(Pass pass, bool walk, bool whole_runs, PassArgs<typename A::Value>& args) {
    using V = typename A::Value;
    const std::size_t pairs = std::size_t(p_.pairs());
    ks::cuda::EventTimer timer(stream_);
    const std::uint64_t blocks = (args.units + std::uint64_t(threads_) - 1) / std::uint64_t(threads_);
    const int pair_rows = args.slices * args.configs;  // one (slice, configuration) per block row
    if (pass == Pass::Stats) {
      ensure(partial_, std::size_t(pair_rows) * blocks * sizeof(RawStats), "partial statistics");
      ensure(stats_out_, pairs * sizeof(RawStats), "statistics");
      args.partial = partial_.as<RawStats>();
    }
    timer.start();
    if (walk)
      walk_with_size<A>(args, args.units, pair_rows, whole_runs);
    else
      launch(cuda::item_kernel<A>, args, args.units, pair_rows, cuda::SharedLayout<V>::bytes(args.n, threads_),
             "item_kernel", "<one placement per thread>");
    if (pass == Pass::Stats) {
      cuda::reduce_stats<<<unsigned((pair_rows + 127) / 128), 128, 0, stream_>>>(
          partial_.as<RawStats>(), int(blocks), pair_rows, args.slice0, args.configs, A::exact, stats_out_.as<RawStats>());
      ks::cuda::check_launch("reduce_stats");
    }
    timer.stop();
    return timer.elapsed_ms();
  }

  // The pass's results downloaded and merged into io.
  template <class A>
  void collect(Pass pass, PassIo& io, const PassRows& rows) {
    const std::size_t pairs = std::size_t(p_.pairs());
    switch (pass) {
      case Pass::Stats: {
        std::vector<RawStats> out(pairs);
        download(out.data(), stats_out_, pairs);
        for (std::size_t k = 0; k < pairs; ++k) merge_raw((*io.stats)[k], out[k], A::exact);
        break;
      }
      case Pass::Histogram: {
        std::vector<unsigned long long> counts(pairs * kHistogramBins);
        download(counts.data(), counts_, counts.size());
        for (std::size_t k = 0; k < pairs; ++k)
          for (int bin = 0; bin < kHistogramBins; ++bin)
            (*io.counts)[k][std::size_t(bin)] += counts[k * kHistogramBins + std::size_t(bin)];
        break;
      }
      case Pass::Top: {
        unsigned long long count = 0;
        download(&count, top_count_, 1);
        if (count > kTopCapacity)
          throw Error(ErrorKind::Device,
                      to_string(count) + " placements tie for the top " + to_string(io.top_k) +
                          " in one batch, more than the GPU keeps (" + to_string(kTopCapacity) + ")",
                      "ask for fewer --top, or use --backend cpu");
        std::vector<Candidate> c(count);
        download(c.data(), top_, count);
        // Keep this batch's best K (the caller merges batches).
        const bool exact = A::exact;
        std::sort(c.begin(), c.end(), [exact](const Candidate& x, const Candidate& y) {
          if (exact ? x.cost_i != y.cost_i : x.cost_d != y.cost_d)
            return exact ? x.cost_i < y.cost_i : x.cost_d < y.cost_d;
          if (x.key != y.key) return x.key < y.key;
          return x.configuration < y.configuration;
        });
        if (c.size() > std::size_t(io.top_k)) c.resize(std::size_t(io.top_k));
        io.top->insert(io.top->end(), c.begin(), c.end());
        break;
      }
      case Pass::Cube: {
        const std::size_t offset = std::size_t(rows.first - io.cube_first) * pairs;
        if (A::exact) {  // the kernel writes exact costs as integers
          download(io.cube_i + offset, cube_, rows.count * pairs);
        } else {
          download(io.cube_d + offset, cube_, rows.count * pairs);
        }
        break;
      }
    }
  }

  const Problem& p_;
  CudaContext& ctx_;
  std::string variant_;
  int threads_ = 128;
  cudaStream_t stream_ = nullptr;
  Policy policy_ = Policy::Real;
  ks::cuda::DeviceBuffer traffic_, cost_, listed_, bins_, counts_, top_bin_, top_, top_count_, cube_,
      partial_, stats_out_;
  ks::cuda::DeviceBuffer head_traffic_, head_cost_, head_lin_, head_constant_;  // upload_head_tables
  std::uint64_t heads_uploaded_ = 0;
  int heads_t_ = 0;
  const std::vector<std::uint8_t>* listed_source_ = nullptr;
  double upload_ms_ = 0, download_ms_ = 0;
  std::string launch_;
};

}  // namespace

std::unique_ptr<SweepBackend> make_cuda_backend(const Problem& p, CudaContext& cuda,
                                                const std::string& variant, int block_threads) {
  if (variant != "naive" && variant != "delta")
    throw_usage("unknown CUDA variant '" + variant + "'",
                "the topology sweep has the CUDA variants naive and delta");
  return std::make_unique<CudaBackend>(p, cuda, variant, block_threads);
}

}  // namespace ks::topo
