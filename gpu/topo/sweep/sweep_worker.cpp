#include "topo/sweep/sweep_worker.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/error.hpp"
#include "topo/sweep/checkpoint.hpp"
#include "topo/sweep/sweep_ledger.hpp"

namespace ks::topo {

ChunkReport ChunkRunner::run(const Assignment& a, const PassInputs& in) {
  ChunkReport rep;
  rep.version = a.version;
  rep.chunks = a.chunks;
  ChunkResult& res = rep.result;
  const std::size_t pairs = std::size_t(p_.pairs());
  if (in.pass == Pass::Histogram) res.counts.assign(pairs, {});
  if (in.pass == Pass::Top && counts_version_ != in.version) {
    counts_ = in.counts;
    counts_version_ = in.version;
  }
  for (const ItemRange& items : a.items) {
    PassIo io;
    std::vector<RawStats> stats;
    switch (in.pass) {
      case Pass::Stats:
        stats.assign(pairs, RawStats{});
        io.stats = &stats;
        io.histogram_follows = in.histogram_follows;
        break;
      case Pass::Histogram:
        io.bins = &in.bins;
        io.counts = &res.counts;
        break;
      case Pass::Top:
        io.bins = &in.bins;
        io.counts = &counts_;
        io.top = &res.top;
        io.top_k = in.top_k;
        io.top_slice = in.top_slice;
        break;
      case Pass::Cube:
        io.cube_i = in.cube_i;
        io.cube_d = in.cube_d;
        io.cube_first = in.cube_first;
        break;
    }
    rep.busy_ms += backend_.run(in.pass, w_.source, items.begin, items.end, io);
    rep.evaluations += w_.placements_in(items.begin, items.end) * evaluations_per_placement(p_, in.pass);
    if (in.pass == Pass::Stats) {
      if (res.stats.empty()) res.stats = std::move(stats);
      else for (std::size_t k = 0; k < pairs; ++k) merge_raw(res.stats[k], stats[k], p_.exact);
      res.counted_values = io.values_counted;
    }
  }
  if (in.pass == Pass::Top) {  // only the best K of a chunk can be among the best K of the sweep
    const bool exact = p_.exact;
    std::sort(res.top.begin(), res.top.end(),
              [exact](const Candidate& x, const Candidate& y) { return candidate_less(x, y, exact); });
    if (res.top.size() > std::size_t(in.top_k)) res.top.resize(std::size_t(in.top_k));
  }
  return rep;
}

std::unique_ptr<SweepBackend> make_backend(const Problem& p, const EvalRequest& r, ThreadPool* pool, CudaContext* cuda) {
  if (r.backend == Backend::Cpu) {
    if (!pool) throw Error(ErrorKind::Internal, "a CPU sweep without a thread pool");
    return make_cpu_backend(p, *pool);
  }
  if (!cuda) throw Error(ErrorKind::Device, "no CUDA context", "use --backend cpu");
  return make_cuda_backend(p, *cuda, r.variant.empty() ? "delta" : r.variant, r.block_threads);
}

std::string worker_name(const EvalRequest& r, ThreadPool* pool, CudaContext* cuda) {
  if (r.backend == Backend::Cuda && cuda) return fmt::format("{} (GPU {})", cuda->device().name, cuda->device().index);
  return fmt::format("CPU ({} threads)", pool ? pool->size() : 0u);
}

namespace {

// Waits for rank 0's answer to a failure: Stop (anything else is dropped: rank 0 stops a failed rank).
void wait_for_stop(RankLink& link) {
  while (decode(link.receive(0)).type != MessageType::Stop) {
  }
}

}  // namespace

int refuse_sweep(RankLink& link, const Error& why, const std::string& where) {
  Message m;
  m.type = MessageType::Failed;
  m.failure = where + " could not start: " + why.full_message();
  link.send(0, encode(m));
  wait_for_stop(link);
  return exit_code_for(why.kind());
}

int serve_sweep(const Problem& p, const EvalRequest& r, ThreadPool& pool, CudaContext* cuda, RankLink& link,
                const std::string& where) {
  Work work;
  std::unique_ptr<SweepBackend> backend;
  Message hello;
  hello.type = MessageType::Hello;
  try {
    check_request(p, r);
    work = plan_work(p, r, pool, cuda);
    work.bind();
    backend = make_backend(p, r, &pool, cuda);
    hello.hello.name = where + ": " + worker_name(r, &pool, cuda);
    hello.hello.fingerprint = sweep_fingerprint(p, r);
    hello.hello.default_batch = backend->default_batch_evaluations();
  } catch (const Error& e) {
    return refuse_sweep(link, e, where);
  }
  link.send(0, encode(hello));
  ChunkRunner runner(p, work, *backend);
  PassInputs inputs;
  for (;;) {
    Message m = decode(link.receive(0));
    if (m.type == MessageType::Stop) return 0;
    if (m.type != MessageType::Assign)
      throw Error(ErrorKind::Internal, "rank 0 sent a message other than Assign or Stop");
    if (m.with_inputs) inputs = std::move(m.inputs);
    Message out;
    try {
      out.report = runner.run(m.assignment, inputs);
      out.type = MessageType::Report;
    } catch (const Error& e) {
      Message failed;
      failed.type = MessageType::Failed;
      failed.failure = where + ": " + e.full_message();
      failed.report.version = m.assignment.version;
      failed.report.chunks = m.assignment.chunks;
      link.send(0, encode(failed));
      wait_for_stop(link);
      return 1;
    }
    link.send(0, encode(out));
  }
}

}  // namespace ks::topo
