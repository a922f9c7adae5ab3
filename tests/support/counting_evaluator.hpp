#pragma once
// A CPU node evaluator (CpuNodeEvaluator) standing in for a GPU in the proof's tests, which run where there is
// none: it counts the nodes it was given (which "device" did how much), and fails on its `fail_at`-th batch when
// asked to (as a GPU can: a lost device).
#include <cstdint>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "topo/bnb/node_batch.hpp"

namespace ks::test {

class CountingEvaluator final : public topo::NodeEvaluator {
 public:
  explicit CountingEvaluator(std::string name, int fail_at = 0) : name_(std::move(name)), fail_at_(fail_at) {}
  void load(const std::int64_t* t, const std::int64_t* c, int n) override { inner_.load(t, c, n); }
  void evaluate(const topo::NodeBatch& b, topo::NodeBatchResult& out) override {
    if (++calls_ == fail_at_) throw Error(ErrorKind::Device, name_ + " was lost");
    nodes_ += b.nodes;
    inner_.evaluate(b, out);
  }
  int calls() const { return calls_; }
  std::size_t batch_nodes() const override { return inner_.batch_nodes(); }
  std::string device() const override { return name_; }
  std::uint64_t nodes() const { return nodes_; }  // read after the feeding thread was joined

 private:
  topo::CpuNodeEvaluator inner_{128};
  std::string name_;
  int fail_at_ = 0, calls_ = 0;
  std::uint64_t nodes_ = 0;
};

}  // namespace ks::test
