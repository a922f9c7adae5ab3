#include "cli/bnb_devices.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#include "cli/request_checks.hpp"
#include "cli/topo_scale.hpp"
#include "core/error.hpp"
#include "topo/bnb/bnb.hpp"
#include "topo/bnb/gpu_feeders.hpp"

namespace ks::cli {

namespace {

// The test hook's GPU: the CPU's evaluator under a GPU's name (which device a rank took shows in the report).
class StandInGpu final : public topo::NodeEvaluator {
 public:
  explicit StandInGpu(int device) : name_(fmt::format("stand-in GPU {}", device)) {}
  void load(const std::int64_t* traffic, const std::int64_t* costs, int n) override {
    cpu_.load(traffic, costs, n);
  }
  void evaluate(const topo::NodeBatch& batch, topo::NodeBatchResult& out) override {
    cpu_.evaluate(batch, out);
  }
  std::size_t batch_nodes() const override { return cpu_.batch_nodes(); }
  std::string device() const override { return name_; }
  topo::EvaluatorTime time() const override { return cpu_.time(); }

 private:
  topo::CpuNodeEvaluator cpu_;
  std::string name_;
};

std::string feeding(int feeders) {
  return feeders > 1 ? fmt::format(" with {} feeding threads", feeders) : "";
}

int stand_in_gpus() {
  const char* v = std::getenv(kStandInGpusVariable);
  if (!v || !*v) return -1;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 0 || n > 64)
    throw_usage(fmt::format("{}={} is not a number of stand-in GPUs (0 to 64)", kStandInGpusVariable, v),
                fmt::format("unset {} (a test hook)", kStandInGpusVariable));
  return int(n);
}

std::vector<DeviceInfo> stand_in_devices(int count) {
  std::vector<DeviceInfo> out(static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d) {
    out[std::size_t(d)].index = d;
    out[std::size_t(d)].name = fmt::format("stand-in GPU {}", d);
  }
  return out;
}

}  // namespace

namespace {

// Stand-ins, being CPU work, keep one feeding thread unless asked.
int feeders_per_gpu(int asked, std::size_t threads, std::size_t gpus, bool stand_ins) {
  if (asked > 0) return asked;
  return stand_ins ? 1 : topo::default_feeders_per_gpu(threads, gpus);
}

}  // namespace

ProofDevices::ProofDevices(const std::string& backend, const std::string& gpus, int feeders,
                           const ProofPlace& place, Engine& engine) {
  if (backend != "cuda") return;
  stand_ins_ = stand_in_gpus();
  const std::vector<DeviceInfo> devices = stand_ins_ >= 0 ? stand_in_devices(stand_ins_) : list_devices();
  const std::size_t threads = engine.pool().size();
  if (!gpus.empty()) {
    const std::vector<int> listed = parse_gpu_list(gpus, devices);
    const int per_gpu = feeders_per_gpu(feeders, threads, listed.size(), stand_ins_ >= 0);
    for (int d : listed) open(d, per_gpu, engine, false);
    if (place.rank && place.local_ranks > 1)
      notes_.push_back(
          fmt::format("each of the {} ranks on {} feeds GPU(s) {} (--gpus applies to every rank): they "
                      "share them; leave --gpus out for a GPU per rank",
                      place.local_ranks, place.host, fmt::join(listed, ",")));
    return;
  }
  const int per_gpu = feeders_per_gpu(feeders, threads, 1, stand_ins_ >= 0);
  if (!place.rank) {
    open(0, per_gpu, engine, true);
    return;
  }
  if (devices.empty())
    throw Error(ErrorKind::Device,
                fmt::format("--backend cuda: {} has no usable CUDA device ({})", place.host,
                            stand_ins_ >= 0 ? "no stand-in GPUs" : no_device_reason()),
                "use --backend cpu, or start the ranks on hosts with GPUs");
  const int count = int(devices.size());
  open(devices[std::size_t(place.local_rank % count)].index, per_gpu, engine, false);
  if (place.local_ranks > count)
    notes_.push_back(
        fmt::format("{} ranks on {} share its {} GPU(s), rank k on the host taking GPU k mod {}; "
                    "start {} rank(s) per host for a GPU each",
                    place.local_ranks, place.host, count, count, count));
}

void ProofDevices::open(int device, int feeders, Engine& engine, bool engine_context) {
  if (stand_ins_ >= 0) {
    for (int k = 0; k < feeders; ++k) stand_in_evaluators_.push_back(std::make_unique<StandInGpu>(device));
    labels_.push_back(fmt::format("stand-in GPU {}{}", device, feeding(feeders)));
    return;
  }
  CudaContext* first = nullptr;
  if (engine_context) {
    first = &require_cuda(engine, "--backend cpu");
  } else {
    contexts_.push_back(CudaContext::create(device));
    first = contexts_.back().get();
  }
  feeders_.push_back(std::make_unique<topo::GpuFeeders>(*first, feeders));
  labels_.push_back(fmt::format("GPU {} ({}){}", first->device().index, first->device().name, feeding(feeders)));
}

std::vector<topo::NodeEvaluator*> ProofDevices::evaluators() const {
  std::vector<topo::NodeEvaluator*> out;
  for (const auto& e : stand_in_evaluators_) out.push_back(e.get());
  for (const auto& f : feeders_) out.insert(out.end(), f->evaluators().begin(), f->evaluators().end());
  return out;
}

}  // namespace ks::cli
