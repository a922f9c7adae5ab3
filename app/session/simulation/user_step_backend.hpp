#pragma once
// The live simulation's backend for a user's `step` kernel: a sim::SimBackend (so ks::Simulation, the runner, the
// brush, Reset, the statistics and the Timing panel treat it as any variant) whose steps run in the worker process
// (usercode/run/user_step.hpp). The state stays on the worker's GPU between requests (kept under a name, each
// request running up to kMaxStepsPerRequest launches, one per step, each timed by CUDA events and watched by the
// worker client's time-out) and comes to the host, in the kernel's form (u8 cells 0/1, f32 temperatures), only
// when read: a shown frame, the statistics, the brush, a check. A fault, a time-out or a restarted worker (whose
// GPU state is gone) is an error from step(), and the simulation goes on from the host's last state (the one
// shown), which the next step uploads.
//
// Threads: made and driven on the session's worker thread only, like every backend.
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/device_info.hpp"
#include "sim/sim_backend.hpp"
#include "session/simulation/simulation_setup.hpp"
#include "session/simulation/user_step_choice.hpp"
#include "session/worker.hpp"
#include "usercode/check/comparison.hpp"
#include "usercode/check/tolerance.hpp"
#include "usercode/run/user_step.hpp"
#include "usercode/run/worker_client.hpp"

namespace ks {
class Engine;
class Runtime;
class Simulation;
}  // namespace ks

namespace ks::app {

// What the backend needs beside the simulation's model.
struct UserStepContext {
  std::shared_ptr<const UserStepChoice> choice;
  std::shared_ptr<usercode::WorkerClient> worker;
  std::array<unsigned, 2> block{32, 8};
  std::optional<DeviceInfo> device;            // the app's GPU, for the occupancy; none: not reported
  std::function<double()> copy_bandwidth_gbps;  // the app's measured copy bandwidth (0 without a GPU)
};

// What a check of the user's kernel against the built-in simulation found.
struct UserStepCheck {
  usercode::Comparison comparison;
  long long generation = 0;  // the generation the steps started from
  long long steps = 0;
  std::string reference;      // "life on the CPU"
  usercode::Tolerance tolerance;
};

class UserStepBackend final : public sim::SimBackend {
 public:
  // Steps per worker request: its launches are watched one by one, and the state comes back once per request.
  static constexpr long long kMaxStepsPerRequest = 4096;

  // Usage Error when the kernel does not fit the model (not a step kernel, or a state of another type: Life keeps
  // u8 cells, heat f32, Gray-Scott two fields); Device error when the worker has no GPU (it is started here).
  UserStepBackend(const sim::SimModel& model, UserStepContext context);

  void load(const sim::Fields& state) override;
  void set_model(const sim::SimModel& model) override;
  void step(long long n, std::vector<double>& step_ms) override;
  sim::Fields read() override;
  void paint(const sim::Brush& brush) override;
  long long population() override;
  double total() override;
  ImageShape stored_shape() const override;
  std::string device_name() const override;
  // One more step's launch under the worker's counter profiler; the state it comes back with is dropped, so
  // the state and the generation stay.
  CounterReading read_counters() override;
  void set_counter_set(CounterSet set) noexcept { counter_set_ = set; }  // which counters read_counters reads
  std::optional<BlockShape> block() const override;
  std::optional<OccupancyReport> occupancy() const override;
  double copy_bandwidth_gbps() override;

  // Asked by the worker client while a request runs: true stops it (the app's Cancel, its closing).
  void set_cancelled(std::function<bool()> cancelled) { cancelled_ = std::move(cancelled); }

  // `steps` steps of the user's kernel and of the built-in simulation (`simulation`'s kernel and parameters, on the
  // CPU: the reference) from the current state, compared under `tolerance`; the state itself does not move. With
  // `difference`, |yours - reference| per cell goes there.
  UserStepCheck check(Runtime& runtime, const Simulation& simulation, long long steps,
                      const usercode::Tolerance& tolerance, Image* difference = nullptr);

 private:
  // `n` steps of the user's kernel from `from`; the step times are appended to `step_ms` when given.
  Image run_steps(const Image& from, long long n, std::vector<double>* step_ms);
  usercode::UserLaunchOptions launch_options() const;
  // One request of `steps` steps (0: none) from the current state, the latest kept on the worker's GPU; its
  // state on the host when `download`. Throws when it failed, the host's state then being the current one.
  usercode::UserStepRun request(int steps, bool download);
  // Whether the worker that kept the state is still the one running.
  bool state_on_worker() const;
  // The worker's state is gone: the host's goes on; throws the reply's error, or says the worker restarted.
  [[noreturn]] void lose_device_state(const usercode::WorkerReply* reply);
  // The kept state brought back to state_ when the worker's is newer.
  void bring_state_home();

  sim::SimModel model_;
  UserStepContext context_;
  ElemType type_;
  Image state_;                  // the host's state: the current one while host_current_
  bool host_current_ = true;
  std::string device_state_;     // the name the worker keeps the current state under; empty: none
  std::uint64_t device_worker_ = 0;  // the worker client's starts() when it was kept
  usercode::EntryAttributes attributes_;  // of the last run: the occupancy where NVRTC gave no ptxas report
  std::function<bool()> cancelled_;
  CounterSet counter_set_ = CounterSet::All;
};

// Makes `request` step with `setup.user` on `worker`: its own_backend runs the kernel with the setup's block (32x8
// by default); with `app_gpu` (the app's process uses its GPU) the engine's GPU gives the occupancy and the copy
// bandwidth and the backend is CUDA (the roofline's peaks), else the report has neither and the CPU's peaks. Its
// variant is "yours". `*made` is set to the backend (which the Simulation then owns) when the simulation is
// constructed. Called on the worker thread.
void attach_user_step(SimulationRequest& request, Engine& engine, bool app_gpu, const SimulationSetup& setup,
                      std::shared_ptr<usercode::WorkerClient> worker, UserStepBackend** made);

// While alive, the user kernel's requests of `backend` (none: nothing) stop when the job `ctx` is cancelled.
class UserCancelScope {
 public:
  UserCancelScope(UserStepBackend* backend, Worker::Context& ctx) : backend_(backend) {
    if (backend_) backend_->set_cancelled([&ctx] { return ctx.cancelled(); });
  }
  ~UserCancelScope() {
    if (backend_) backend_->set_cancelled({});
  }
  UserCancelScope(const UserCancelScope&) = delete;
  UserCancelScope& operator=(const UserCancelScope&) = delete;

 private:
  UserStepBackend* backend_;
};

}  // namespace ks::app
