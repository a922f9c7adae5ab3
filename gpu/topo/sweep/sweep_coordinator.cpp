// The coordinator: one loop on the calling thread. Events come from the local workers' threads (an inbox) and
// from the other ranks (RankRoster::poll); each Hello or Report is answered by the next chunk of the pass, by
// nothing yet (the worker waits until the pass is merged and the next one starts), or by Stop. Other ranks are
// kept one chunk ahead while the pass has more chunks to do than workers: their next assignment is already on its
// way while they run the current one, so a rank never waits a round trip to rank 0 between chunks.
#include "topo/sweep/sweep_coordinator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "topo/sweep/checkpoint.hpp"
#include "topo/random.hpp"
#include "topo/sweep/rank_link.hpp"
#include "topo/sweep/sweep_ledger.hpp"
#include "topo/sweep/sweep_worker.hpp"

namespace ks::topo {

namespace {

struct Event {
  int worker = 0;
  Message message;
};

class Inbox {
 public:
  void push(Event e) {
    {
      std::lock_guard lock(mutex_);
      events_.push_back(std::move(e));
    }
    ready_.notify_one();
  }
  bool pop(Event& e, double wait_ms) {
    std::unique_lock lock(mutex_);
    ready_.wait_for(lock, std::chrono::microseconds(long(wait_ms * 1000)), [&] { return !events_.empty(); });
    if (events_.empty()) return false;
    e = std::move(events_.front());
    events_.pop_front();
    return true;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Event> events_;
};

// A worker of this process: a thread with its own backend (on CUDA its own context and stream; the backend makes
// the context's device current on this thread).
class LocalWorker {
 public:
  using MakeBackend = std::function<std::unique_ptr<SweepBackend>()>;

  LocalWorker(int id, std::string name, const Problem& p, const Work& w, MakeBackend make, Inbox& inbox)
      : id_(id), name_(std::move(name)), p_(p), w_(w), make_(std::move(make)), inbox_(inbox) {
    thread_ = std::thread([this] { loop(); });
  }
  ~LocalWorker() { join(); }
  LocalWorker(const LocalWorker&) = delete;
  LocalWorker& operator=(const LocalWorker&) = delete;

  void assign(Assignment a, std::shared_ptr<const PassInputs> in) {
    {
      std::lock_guard lock(mutex_);
      next_.emplace(std::move(a), std::move(in));
    }
    wake_.notify_one();
  }
  void stop() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    wake_.notify_one();
  }
  // Stops it and waits for the chunk under way, if any.
  void join() {
    stop();
    if (thread_.joinable()) thread_.join();
  }
  struct Details {
    std::string device, launch;
    double upload_ms = 0, download_ms = 0;
  };
  Details details() {
    std::lock_guard lock(mutex_);
    return details_;
  }

 private:
  void fail(const std::string& why, const std::vector<std::uint64_t>& chunks, std::uint64_t version) {
    Event e{id_, {}};
    e.message.type = MessageType::Failed;
    e.message.failure = name_ + ": " + why;
    e.message.report.chunks = chunks;
    e.message.report.version = version;
    inbox_.push(std::move(e));
  }

  void loop() {
    std::unique_ptr<SweepBackend> backend;
    try {
      backend = make_();
    } catch (const std::exception& e) {
      const auto* err = dynamic_cast<const Error*>(&e);
      return fail(err ? err->full_message() : e.what(), {}, 0);
    }
    Event hello{id_, {}};
    hello.message.type = MessageType::Hello;
    hello.message.hello.name = name_;
    hello.message.hello.default_batch = backend->default_batch_evaluations();
    inbox_.push(std::move(hello));
    ChunkRunner runner(p_, w_, *backend);
    for (;;) {
      std::pair<Assignment, std::shared_ptr<const PassInputs>> job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || next_; });
        if (!next_) break;
        job = std::move(*next_);
        next_.reset();
      }
      Event e{id_, {}};
      try {
        e.message.report = runner.run(job.first, *job.second);
        e.message.type = MessageType::Report;
      } catch (const std::exception& ex) {
        const auto* err = dynamic_cast<const Error*>(&ex);
        fail(err ? err->full_message() : ex.what(), job.first.chunks, job.first.version);
        break;
      }
      inbox_.push(std::move(e));
    }
    std::lock_guard lock(mutex_);
    details_ = {backend->device(), backend->launch_description(), backend->upload_ms(), backend->download_ms()};
  }

  int id_;
  std::string name_;
  const Problem& p_;
  const Work& w_;
  MakeBackend make_;
  Inbox& inbox_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<std::pair<Assignment, std::shared_ptr<const PassInputs>>> next_;
  bool stop_ = false;
  Details details_;
  std::thread thread_;
};

std::string rate_text(double per_second) {
  if (per_second >= 1e9) return fmt::format("{:.2f} G", per_second / 1e9);
  if (per_second >= 1e6) return fmt::format("{:.2f} M", per_second / 1e6);
  return fmt::format("{:.0f} ", per_second);
}


class Coordinator {
 public:
  Coordinator(const Problem& p, const EvalRequest& r, const EvalControl& ctl, const SweepSetup& setup, const Work& w)
      : p_(p), r_(r), ctl_(ctl), setup_(setup), w_(w), plan_(pass_plan(r)), reps_(r.warmup + r.repeat),
        fingerprint_(sweep_fingerprint(p, r)), description_(sweep_description(p, r, setup.label)) {}

  ~Coordinator() {
    for (auto& l : locals_) l->stop();
    locals_.clear();  // joins
  }

  EvalResult run();

 private:
  enum class State { Starting, Idle, Busy, Stopped, Failed };
  enum class Stop { None, Cancel, Abort, Failure, TooLong };
  struct Slot {
    std::string name;
    State state = State::Starting;
    int rank = 0;                // > 0: another rank
    LocalWorker* local = nullptr;
    std::uint64_t inputs_version = ~std::uint64_t(0);
    std::deque<Assignment> out;  // handed out, not reported yet, oldest first
    std::uint64_t chunks = 0, evaluations = 0;  // sweep pass, this repetition
    double busy_ms = 0;
    double ready_s = -1;  // when its Hello came, from the sweep's start
  };

  void check_setup() const;
  void restore();
  void start_workers();
  bool next_event(Event& e, double wait_ms);
  void handle(Event& e);
  void on_hello(int w, const Hello& h);
  void on_failed(int w, Message& m);
  void hand_out();
  std::size_t depth(const Slot& s) const;
  void give(int w, Assignment a);
  void lose_outstanding(int w);
  void stop_worker(int w);
  void start_pass();
  void finish_pass();
  bool advance();  // false: every repetition is done
  void count_totals();
  void progress();
  void maybe_checkpoint(bool force);
  void maybe_estimate();
  std::string workers_text() const;
  std::string lost_text(int w, const std::vector<std::uint64_t>& chunks) const;
  bool winding_down_done() const;
  EvalResult assemble();
  Cost cost_of(std::int64_t scaled, double real) const;
  std::vector<int> placement_of_key(std::uint64_t key, std::uint64_t& index) const;

  const Problem& p_;
  const EvalRequest& r_;
  const EvalControl& ctl_;
  const SweepSetup& setup_;
  const Work& w_;
  PassPlan plan_;
  int reps_ = 1, rep_ = 0;
  std::uint64_t fingerprint_;
  std::string description_;

  Inbox inbox_;
  std::vector<std::unique_ptr<LocalWorker>> locals_;
  std::vector<Slot> slots_;
  int local_count_ = 0;

  std::optional<ChunkLayout> layout_;
  std::optional<SweepLedger> ledger_;
  std::optional<SweepCheckpoint> resumed_;
  std::shared_ptr<PassInputs> inputs_;
  std::uint64_t version_ = 0;
  bool done_ = false;
  Stop stop_ = Stop::None;
  std::string failure_, too_long_, too_long_hint_;
  std::vector<std::string> lost_;
  bool counted_values_ = false;

  // Evaluations: of the whole request (every repetition), done, done before this run (resumed).
  std::uint64_t total_ = 0, done_evals_ = 0, at_start_ = 0;
  Stopwatch session_;
  Stopwatch pass_clock_;
  double pass_busy_ms_ = 0;
  std::uint64_t pass_evals_ = 0;
  std::array<std::vector<double>, 4> times_;
  std::array<std::uint64_t, 4> timed_evals_{};
  Stopwatch since_checkpoint_;
  bool dirty_ = false;
  std::string checkpoint_written_;
  bool estimated_ = false;
  Stopwatch since_progress_;
  EvalResult res_;
};

void Coordinator::check_setup() const {
  const bool keeps_state = !setup_.checkpoint.empty() || !setup_.resume.empty();
  if (keeps_state && (r_.repeat != 1 || r_.warmup != 0))
    throw_usage("checkpoints cover one sweep", "drop --repeat and --warmup, or --checkpoint and --resume");
  if (plan_.cube && (setup_.ranks || keeps_state))
    throw_usage("every cost (the cube) is kept in one process only", "run it without MPI ranks and checkpoints");
  if (r_.backend == Backend::Cpu ? setup_.cpu_workers.empty() : setup_.gpu_workers.empty())
    throw Error(ErrorKind::Internal, "a sweep without a worker for its backend");
}

void Coordinator::restore() {
  const SweepCheckpoint c = read_checkpoint(setup_.resume);
  check_checkpoint_fits(c, setup_.resume, fingerprint_, description_);
  const auto corrupt = [&](const std::string& why) {
    return Error(ErrorKind::Io, fmt::format("checkpoint '{}' is corrupt: {}", setup_.resume, why),
                 "it cannot be resumed: start afresh without --resume (or resume from an intact copy)");
  };
  try {
    const auto& ch = c.ledger.at("chunks");
    ChunkLayout l{ch.at("first").get<std::uint64_t>(), ch.at("end").get<std::uint64_t>(),
                  ch.at("per_chunk").get<std::uint64_t>()};
    if (l.first != w_.first || l.end != w_.end || l.per_chunk == 0) throw std::runtime_error("its chunks do not fit");
    layout_ = l;
    ledger_.emplace(p_, r_, l);
    ledger_->from_json(c.ledger);
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw corrupt(e.what());
  }
  resumed_ = c;
}

void Coordinator::start_workers() {
  const bool cpu = r_.backend == Backend::Cpu;
  const int n = int(cpu ? setup_.cpu_workers.size() : setup_.gpu_workers.size());
  for (int i = 0; i < n; ++i) {
    ThreadPool* pool = cpu ? setup_.cpu_workers[std::size_t(i)] : nullptr;
    CudaContext* cuda = cpu ? nullptr : setup_.gpu_workers[std::size_t(i)];
    Slot s;
    s.name = (setup_.where.empty() ? "" : setup_.where + ": ") + worker_name(r_, pool, cuda);
    slots_.push_back(s);
  }
  local_count_ = n;
  if (setup_.ranks)
    for (int rank = 1; rank < setup_.ranks->size(); ++rank) {
      Slot s;
      s.rank = rank;
      s.name = fmt::format("rank {}", rank);
      slots_.push_back(s);
    }
  for (int i = 0; i < n; ++i) {
    ThreadPool* pool = cpu ? setup_.cpu_workers[std::size_t(i)] : nullptr;
    CudaContext* cuda = cpu ? nullptr : setup_.gpu_workers[std::size_t(i)];
    auto make = [this, pool, cuda, i]() {
      std::unique_ptr<SweepBackend> b = make_backend(p_, r_, pool, cuda);
      return setup_.wrap_backend ? setup_.wrap_backend(i, std::move(b)) : std::move(b);
    };
    locals_.push_back(std::make_unique<LocalWorker>(i, slots_[std::size_t(i)].name, p_, w_, make, inbox_));
    slots_[std::size_t(i)].local = locals_.back().get();
  }
}

bool Coordinator::next_event(Event& e, double wait_ms) {
  if (setup_.ranks) {
    int from = 0;
    std::vector<std::uint8_t> bytes;
    if (setup_.ranks->poll(from, bytes)) {
      e.worker = local_count_ + from - 1;
      try {
        e.message = decode(bytes);
      } catch (const Error& err) {
        e.message = Message{};
        e.message.type = MessageType::Failed;
        e.message.failure = fmt::format("rank {}: {}", from, err.full_message());
      }
      return true;
    }
  }
  return inbox_.pop(e, wait_ms);
}

void Coordinator::handle(Event& e) {
  Slot& s = slots_[std::size_t(e.worker)];
  Message& m = e.message;
  switch (m.type) {
    case MessageType::Hello:
      return on_hello(e.worker, m.hello);
    case MessageType::Failed:
      return on_failed(e.worker, m);
    case MessageType::Report: {
      ChunkReport& rep = m.report;
      if (!ledger_ || rep.version != inputs_->version || s.out.empty() || s.out.front().chunks != rep.chunks)
        throw Error(ErrorKind::Internal, "a sweep report arrived for chunks that were not handed out");
      s.out.pop_front();
      s.state = s.out.empty() ? State::Idle : State::Busy;
      if (ledger_->pass() == Pass::Stats) {
        s.chunks += rep.chunks.size();
        s.evaluations += rep.evaluations;
        s.busy_ms += rep.busy_ms;
        counted_values_ = counted_values_ || rep.result.counted_values;
      }
      pass_busy_ms_ += rep.busy_ms;
      pass_evals_ += rep.evaluations;
      done_evals_ += rep.evaluations;
      ledger_->record(rep.chunks, std::move(rep.result), e.worker);
      dirty_ = true;
      progress();
      return;
    }
    default:
      throw Error(ErrorKind::Internal, "a worker sent a message workers do not send");
  }
}

void Coordinator::on_hello(int w, const Hello& h) {
  Slot& s = slots_[std::size_t(w)];
  s.state = State::Idle;
  s.ready_s = session_.elapsed_ms() / 1e3;
  if (s.rank > 0) {
    s.name = h.name;
    if (h.fingerprint != fingerprint_) {
      Message m;
      m.type = MessageType::Failed;
      m.failure = fmt::format("{} swept other inputs than rank 0 (every rank must read the same files with the same "
                              "options; is a file different on its host?)",
                              h.name);
      return on_failed(w, m);
    }
  }
  if (!layout_) {
    layout_ = chunk_layout(p_, w_, r_.batch_evaluations ? r_.batch_evaluations : h.default_batch);
    ledger_.emplace(p_, r_, *layout_);
    ledger_->begin();
    count_totals();
    start_pass();
  }
}

// What a worker that failed or was abandoned had in hand (the chunk it ran and the one sent ahead) is to do again.
void Coordinator::lose_outstanding(int w) {
  Slot& s = slots_[std::size_t(w)];
  for (const Assignment& a : s.out)
    if (ledger_ && inputs_ && a.version == inputs_->version && !a.chunks.empty()) {
      ledger_->give_back(a.chunks);
      lost_.push_back(lost_text(w, a.chunks));
    }
  s.out.clear();
}

void Coordinator::on_failed(int w, Message& m) {
  Slot& s = slots_[std::size_t(w)];
  lose_outstanding(w);  // m.report.chunks, when any, are the oldest of these
  s.state = State::Failed;
  if (s.rank > 0) {
    setup_.ranks->send(s.rank, encode(Message{}));  // the rank waits for Stop
  }
  if (failure_.empty()) failure_ = m.failure;
  if (stop_ != Stop::Abort) stop_ = Stop::Failure;
}

std::string Coordinator::lost_text(int w, const std::vector<std::uint64_t>& chunks) const {
  std::string list;
  for (std::size_t i = 0; i < chunks.size() && i < 8; ++i) list += fmt::format("{}{}", i ? ", " : "", chunks[i]);
  if (chunks.size() > 8) list += fmt::format(" and {} more", chunks.size() - 8);
  return fmt::format("{} pass chunk{} {} of {} (on {})", pass_name(ledger_->pass()), chunks.size() > 1 ? "s" : "", list,
                     ledger_->layout().count(), slots_[std::size_t(w)].name);
}

void Coordinator::give(int w, Assignment a) {
  Slot& s = slots_[std::size_t(w)];
  s.state = State::Busy;
  s.out.push_back(a);
  if (s.local) return s.local->assign(std::move(a), inputs_);
  Message m;
  m.type = MessageType::Assign;
  m.assignment = std::move(a);
  if (s.inputs_version != inputs_->version) {
    m.with_inputs = true;
    m.inputs = *inputs_;
    s.inputs_version = inputs_->version;
  }
  setup_.ranks->send(s.rank, encode(m));
}

void Coordinator::stop_worker(int w) {
  Slot& s = slots_[std::size_t(w)];
  if (s.state == State::Stopped || s.state == State::Failed) return;
  if (s.local) s.local->stop();
  else setup_.ranks->send(s.rank, encode(Message{}));
  s.state = State::Stopped;
}

// How many assignments a worker holds at once: local workers one (their hand-off costs microseconds); other ranks
// two while the pass has more chunks left than workers, so that the next one travels while the current one runs.
// Near the pass's end one, so that no rank sits on a chunk another worker could be running.
std::size_t Coordinator::depth(const Slot& s) const {
  if (s.local) return 1;
  const std::uint64_t left = ledger_->layout().count() - ledger_->chunks_done() - ledger_->chunks_handed_out();
  return left > slots_.size() ? 2 : 1;
}

void Coordinator::hand_out() {
  std::vector<bool> alive(slots_.size());
  for (std::size_t i = 0; i < slots_.size(); ++i)
    alive[i] = slots_[i].state != State::Failed && slots_[i].state != State::Stopped;
  for (std::size_t w = 0; w < slots_.size(); ++w) {
    if (slots_[w].state != State::Idle && slots_[w].state != State::Busy) continue;
    if (slots_[w].out.size() >= depth(slots_[w])) continue;
    std::vector<std::uint64_t> chunks = ledger_->take(int(w), alive);
    if (chunks.empty()) continue;
    Assignment a;
    a.version = inputs_->version;
    for (std::uint64_t k : chunks) {
      const auto [b, e] = ledger_->layout().items(k);
      a.items.push_back({b, e});
    }
    a.chunks = std::move(chunks);
    give(int(w), std::move(a));
  }
}

void Coordinator::start_pass() {
  auto in = std::make_shared<PassInputs>();
  in->version = ++version_;
  in->rep = rep_;
  in->pass = ledger_->pass();
  in->histogram_follows = plan_.histogram;
  if (in->pass == Pass::Histogram || in->pass == Pass::Top) in->bins = ledger_->bins();
  if (in->pass == Pass::Top) {
    in->counts = ledger_->counts();
    in->top_k = r_.top_k;
    in->top_slice = p_.summed_slice ? p_.timestamps : 0;
  }
  if (in->pass == Pass::Cube) {
    const std::size_t cells = std::size_t(w_.placements) * std::size_t(p_.pairs());
    if (p_.exact) res_.cube_scaled.assign(cells, 0); else res_.cube_real.assign(cells, 0.0);
    in->cube_i = res_.cube_scaled.data();
    in->cube_d = res_.cube_real.data();
    in->cube_first = r_.mode == PlacementMode::All ? w_.plan.lo : 0;
  }
  inputs_ = in;
  pass_clock_.restart();
  pass_busy_ms_ = 0;
  pass_evals_ = 0;
}

void Coordinator::finish_pass() {
  if (rep_ < r_.warmup) return;
  const int k = int(ledger_->pass());
  // One worker: its own (device) time, as a single sweep has always been timed; several: the wall time.
  const double ms = slots_.size() == 1 ? pass_busy_ms_ : pass_clock_.elapsed_ms();
  times_[std::size_t(k)].push_back(ms);
  timed_evals_[std::size_t(k)] = pass_evals_;
}

bool Coordinator::advance() {
  finish_pass();
  dirty_ = true;
  if (ledger_->advance()) {
    start_pass();
    return true;
  }
  if (++rep_ >= reps_) return false;
  ledger_.emplace(p_, r_, *layout_);
  ledger_->begin();
  for (Slot& s : slots_) s.chunks = s.evaluations = 0, s.busy_ms = 0;
  start_pass();
  return true;
}

void Coordinator::count_totals() {
  const std::uint64_t per_pass_placements = w_.placements;
  // One count for the progress line and for what the app shows before Run (sweep_work.hpp).
  const auto per_rep = std::uint64_t(evaluations_over_passes(p_, r_, (long double)per_pass_placements));
  total_ = per_rep * std::uint64_t(reps_);
  if (!resumed_) return;
  // What the checkpoint holds: the passes behind it, and the done chunks of its pass.
  const Pass now = ledger_->pass();
  std::uint64_t done = 0;
  for (Pass q : {Pass::Stats, Pass::Histogram, Pass::Top, Pass::Cube}) {
    const bool runs = q == Pass::Stats || (q == Pass::Histogram && plan_.histogram) || (q == Pass::Top && plan_.top) ||
                      (q == Pass::Cube && plan_.cube);
    if (!runs) continue;
    if (ledger_->finished() || int(q) < int(now)) {
      done += per_pass_placements * evaluations_per_placement(p_, q);
    } else if (q == now) {
      for (std::uint64_t k = 0; k < ledger_->layout().count(); ++k)
        if (ledger_->state(k) == ChunkState::Done) {
          const auto [a, b] = ledger_->layout().items(k);
          done += w_.placements_in(a, b) * evaluations_per_placement(p_, q);
        }
    }
  }
  done_evals_ = at_start_ = done;
}

void Coordinator::progress() {
  if (!ctl_.progress || !ledger_) return;
  EvalProgress pr;
  pr.evaluations_done = done_evals_;
  pr.evaluations_total = total_;
  pr.evaluations_at_start = at_start_;
  pr.elapsed_s = session_.elapsed_ms() / 1000.0;
  pr.pass = pass_name(ledger_->pass());
  ctl_.progress(pr);
  since_progress_.restart();
}

void Coordinator::maybe_checkpoint(bool force) {
  std::string path = setup_.checkpoint;
  // Asked for no checkpoint: only a sweep that failed or was killed keeps what it merged, to resume from.
  if (path.empty() && force && (stop_ == Stop::Failure || stop_ == Stop::Abort) && done_evals_ > at_start_)
    path = setup_.checkpoint_on_stop;
  if (path.empty() || !ledger_) return;
  if (!force && (!dirty_ || since_checkpoint_.elapsed_ms() < setup_.checkpoint_every_s * 1000)) return;
  SweepCheckpoint c;
  c.fingerprint = fingerprint_;
  c.description = description_;
  c.ledger = nlohmann::json(ledger_->to_json());
  c.evaluations = (resumed_ ? resumed_->evaluations : 0) + (done_evals_ - at_start_);
  c.elapsed_s = (resumed_ ? resumed_->elapsed_s : 0) + session_.elapsed_ms() / 1000.0;
  c.sessions = (resumed_ ? resumed_->sessions : 0) + 1;
  write_checkpoint(path, c);
  checkpoint_written_ = path;
  dirty_ = false;
  since_checkpoint_.restart();
}

std::string Coordinator::workers_text() const {
  std::string s;
  for (const Slot& w : slots_) {
    if (w.busy_ms <= 0) continue;
    s += fmt::format("{}{}: {}evaluations/s", s.empty() ? "" : "; ", w.name,
                     rate_text(double(w.evaluations) / (w.busy_ms / 1e3)));
  }
  return s;
}

void Coordinator::maybe_estimate() {
  if (estimated_ || !ledger_ || stop_ != Stop::None || rep_ != 0) return;
  const double elapsed = session_.elapsed_ms() / 1000.0;
  const std::uint64_t done = done_evals_ - at_start_;
  if (elapsed < setup_.estimate_after_s || done == 0) return;
  estimated_ = true;
  std::uint64_t remaining = total_ - done_evals_;
  // The CPU reads the histogram from values counted during the sweep pass: that pass costs next to nothing.
  if (counted_values_ && plan_.histogram && (ledger_->pass() == Pass::Stats || ledger_->pass() == Pass::Histogram)) {
    const std::uint64_t hist = w_.placements * evaluations_per_placement(p_, Pass::Histogram);
    remaining -= std::min(remaining, ledger_->pass() == Pass::Stats ? hist : hist - std::min(hist, pass_evals_));
  }
  const double rate = double(done) / elapsed;
  const double seconds = elapsed + double(remaining) / rate;
  std::size_t busy = 0;
  for (const Slot& s : slots_) busy += s.busy_ms > 0;
  const std::string on = fmt::format("{} worker{} at {}evaluations/s in all ({})", busy, busy == 1 ? "" : "s",
                                     rate_text(rate), workers_text());
  if (seconds > 60 && setup_.note)
    setup_.note(fmt::format("estimate: this sweep takes about {} ({:.3g} evaluations) on {}, measured over its first "
                            "{:.1f} s",
                            duration_words(seconds), double(total_ - at_start_), on, elapsed));
  if (setup_.max_time_s > 0 && seconds > setup_.max_time_s) {
    const double share = setup_.max_time_s / seconds;
    std::string fits;
    if (r_.mode == PlacementMode::All) {
      const std::uint64_t n = std::max<std::uint64_t>(1, std::uint64_t(double(w_.placements) * share * 0.9));
      fits = fmt::format("sweep a part with --range {}:{} (the rest later, with more GPUs or ranks)", w_.plan.lo,
                         w_.plan.lo + n);
    } else if (r_.mode == PlacementMode::Sample) {
      fits = fmt::format("sample fewer placements (about sample:{})",
                         std::max<std::uint64_t>(1, std::uint64_t(double(r_.samples) * share * 0.9)));
    } else {
      fits = "give fewer placements";
    }
    too_long_ = fmt::format("this sweep would take about {} on {} (measured over its first {:.1f} s), more than the "
                            "time limit of {}",
                            duration_words(seconds), on, elapsed, duration_words(setup_.max_time_s));
    too_long_hint_ = fmt::format("the limit covers about {:.0f}% of it: {}, or raise the limit (--max-time)",
                                 share * 100, fits);
    stop_ = Stop::TooLong;
  }
}

bool Coordinator::winding_down_done() const {
  for (const Slot& s : slots_) {
    if (s.state == State::Busy || s.state == State::Starting) return false;
  }
  return true;
}

EvalResult Coordinator::run() {
  check_setup();
  if (!setup_.resume.empty()) restore();
  start_workers();
  if (ledger_) {  // resumed: the layout comes from the checkpoint
    count_totals();
    if (ledger_->finished()) done_ = true;
    else start_pass();
  }
  since_checkpoint_.restart();
  bool told_idle = false;
  for (;;) {
    Event e;
    const double wait_ms = setup_.ranks ? 1 : 20;
    for (int n = 0; n < 64 && next_event(e, n == 0 ? wait_ms : 0); ++n) handle(e);
    if (ctl_.abort && ctl_.abort->load()) stop_ = Stop::Abort;
    if (stop_ == Stop::None && ctl_.cancel && ctl_.cancel->load()) stop_ = Stop::Cancel;
    if (stop_ == Stop::Abort) break;
    if (ledger_ && stop_ == Stop::None && !done_) {
      while (!done_ && ledger_->pass_complete())
        if (!advance()) done_ = true;
      if (!done_) hand_out();
      if (!told_idle && slots_.size() > 1 && setup_.note && ledger_->layout().count() < slots_.size()) {
        told_idle = true;
        setup_.note(fmt::format("{} workers share {} chunk{} of work: {} of them have nothing to do (--chunk cuts "
                                "the work finer)",
                                slots_.size(), ledger_->layout().count(), ledger_->layout().count() == 1 ? "" : "s",
                                slots_.size() - ledger_->layout().count()));
      }
    }
    if (done_ || stop_ != Stop::None) {
      // No more work is handed out: stop every worker that waits, collect what the busy ones finish.
      for (std::size_t w = 0; w < slots_.size(); ++w)
        if (slots_[w].state == State::Idle) stop_worker(int(w));
      if (winding_down_done()) break;
    } else {
      bool any = false;
      for (const Slot& s : slots_) any = any || (s.state != State::Failed && s.state != State::Stopped);
      if (!any) {
        stop_ = Stop::Failure;
        if (failure_.empty()) failure_ = "no worker is left";
      }
    }
    if (since_progress_.elapsed_ms() > 50) progress();  // also where the caller looks at its signals
    maybe_checkpoint(false);
    maybe_estimate();
  }
  if (stop_ == Stop::Abort && ledger_) {
    // Whatever runs now is lost: the checkpoint keeps what was merged; a resume runs these chunks again.
    for (std::size_t w = 0; w < slots_.size(); ++w)
      if (slots_[w].state == State::Busy) {
        lose_outstanding(int(w));
        slots_[w].state = State::Stopped;
      }
  }
  maybe_checkpoint(true);
  for (auto& l : locals_) l->stop();
  for (auto& l : locals_) l->join();  // their backends' details are final once they ended
  if (stop_ == Stop::TooLong) {
    std::string hint = too_long_hint_;
    if (!checkpoint_written_.empty()) hint += fmt::format("; what was swept is kept in {}", checkpoint_written_);
    throw_usage(too_long_, hint);
  }
  if (!ledger_) {
    // Nothing ever started (every worker failed on the way up).
    throw Error(ErrorKind::Device, failure_.empty() ? "the sweep could not start" : failure_);
  }
  return assemble();
}

Cost Coordinator::cost_of(std::int64_t scaled, double real) const {
  Cost c;
  if (p_.exact) {
    c.scaled = scaled;
    c.value = p_.cost_value(scaled);
  } else {
    c.value = real;
  }
  return c;
}

// The placement a reduction's key names: a code or a headed key (All: sweep_head.hpp), a sample number or a list
// row.
std::vector<int> Coordinator::placement_of_key(std::uint64_t key, std::uint64_t& index) const {
  std::vector<int> out(std::size_t(p_.n));
  if (r_.mode == PlacementMode::All) {
    const SweepKeys keys = w_.plan.keys();
    index = keys.index_of_key(key);
    keys.placement_of_key(key, out.data());
  } else if (r_.mode == PlacementMode::Sample) {
    index = key;
    std::vector<std::uint8_t> pl(std::size_t(p_.n));
    SplitMix64 rng = sample_stream(r_.seed, key);
    random_placement(rng, pl.data(), p_.n);
    out.assign(pl.begin(), pl.end());
  } else {
    index = key;
    out.assign(w_.listed.begin() + std::ptrdiff_t(key * std::uint64_t(p_.n)),
               w_.listed.begin() + std::ptrdiff_t((key + 1) * std::uint64_t(p_.n)));
  }
  return out;
}

EvalResult Coordinator::assemble() {
  EvalResult res = std::move(res_);
  res.problem = &p_;
  res.mode = r_.mode;
  res.exact = p_.exact;
  res.decimals = p_.decimals;
  if (!p_.exact) res.notes.push_back("costs are summed in double: " + p_.real_reason);
  res.top_slice = p_.summed_slice ? p_.timestamps : 0;
  const SweepLedger& L = *ledger_;
  const bool complete = done_ && stop_ == Stop::None;
  res.complete = complete;
  res.failed = stop_ == Stop::Failure;
  res.stopped = stop_ == Stop::None ? "" : stop_ == Stop::Cancel ? "cancelled" : stop_ == Stop::Abort ? "terminated" : failure_;
  res.lost = lost_;
  res.checkpoint = checkpoint_written_;
  res.sessions = (resumed_ ? resumed_->sessions : 0) + 1;

  // What the statistics cover.
  const std::vector<bool> done = L.stats_done();
  const std::uint64_t prefix = L.stats_prefix();
  std::uint64_t placements = 0;
  for (std::uint64_t k = 0; k < done.size(); ++k)
    if (done[std::size_t(k)]) {
      const auto [a, b] = L.layout().items(k);
      placements += w_.placements_in(a, b);
    }
  const std::uint64_t prefix_end = prefix == 0 ? L.layout().first : L.layout().items(prefix - 1).second;
  if (r_.mode == PlacementMode::All) {
    res.range_begin = w_.plan.lo;
    res.range_end = w_.plan.hi;
    res.evaluated_end = std::max(w_.plan.lo, prefix == 0 ? w_.plan.lo : w_.plan.end_index(prefix_end));
  } else {
    res.range_end = w_.placements;
    res.evaluated_end = prefix_end;
  }
  res.placements = placements;
  res.evaluations = placements * p_.pairs();

  const std::vector<RawStats> stats = L.stats();
  const bool have_hist = L.histogram_done();
  const std::size_t pairs = std::size_t(p_.pairs());
  res.slices.resize(pairs);
  for (int s = 0; s < p_.slices; ++s)
    for (int c = 0; c < p_.configs; ++c) {
      const std::size_t k = std::size_t(s) * std::size_t(p_.configs) + std::size_t(c);
      SliceResult& out = res.slices[k];
      out.slice = s;
      out.configuration = c;
      const RawStats& st = stats[k];
      out.count = st.count;
      if (st.count == 0) continue;
      out.min = cost_of(st.min_i, st.min_d);
      out.max = cost_of(st.max_i, st.max_d);
      out.mean = p_.exact ? double(st.sum_i.value() / (long double)st.count) / std::pow(10.0, p_.decimals)
                          : st.sum_d / double(st.count);
      out.placement = placement_of_key(st.key, out.argmin);
      if (have_hist) {
        Histogram h;
        h.lo = cost_of(L.bins()[k].lo_i, L.bins()[k].lo_d);
        h.width = cost_of(L.bins()[k].width_i, L.bins()[k].width_d);
        h.counts = L.counts()[k];
        out.histogram = h;
      }
    }
  if (L.top_done())
    for (const Candidate& c : L.top()) {
      RankedPlacement rp;
      rp.cost = cost_of(c.cost_i, c.cost_d);
      rp.configuration = c.configuration;
      rp.placement = placement_of_key(c.key, rp.index);
      res.top.push_back(std::move(rp));
    }
  if (plan_.cube && !(L.finished() && complete)) {
    res.cube_scaled.clear();
    res.cube_real.clear();
  }

  EvalTiming& t = res.timing;
  t.variant = r_.backend == Backend::Cpu ? "cpu" : (r_.variant.empty() ? "delta" : r_.variant);
  if (!locals_.empty()) {
    const LocalWorker::Details d = locals_.front()->details();
    t.upload_ms = d.upload_ms;
    t.download_ms = d.download_ms;
    t.launch = d.launch;
    t.device = d.device;
  }
  t.ranks = setup_.ranks ? setup_.ranks->size() : 1;
  t.wall_s = session_.elapsed_ms() / 1e3;
  if (slots_.size() > 1) {
    t.device = t.ranks > 1 ? fmt::format("{} ranks", t.ranks) : fmt::format("{} workers", slots_.size());
    t.device += r_.backend == Backend::Cuda ? " (CUDA)" : " (CPU)";
  }
  const auto pass_timing = [&](Pass q) {
    return PassTiming{TimingStats::of(times_[std::size_t(q)]), timed_evals_[std::size_t(q)]};
  };
  t.sweep = pass_timing(Pass::Stats);
  t.histogram = pass_timing(Pass::Histogram);
  t.top = pass_timing(Pass::Top);
  t.cube = pass_timing(Pass::Cube);
  if (t.sweep.time.median_ms > 0) t.evaluations_per_second = double(t.sweep.evaluations) / (t.sweep.time.median_ms / 1e3);
  double best = 0;
  for (const Slot& s : slots_) {
    WorkerTiming wt;
    wt.name = s.name;
    wt.rank = s.rank;
    wt.chunks = s.chunks;
    wt.evaluations = s.evaluations;
    wt.busy_s = s.busy_ms / 1e3;
    wt.evaluations_per_second = s.busy_ms > 0 ? double(s.evaluations) / wt.busy_s : 0;
    wt.failed = s.state == State::Failed;
    wt.ready_s = s.ready_s;
    best = std::max(best, wt.evaluations_per_second);
    t.workers.push_back(wt);
  }
  if (slots_.size() > 1 && best > 0 && t.evaluations_per_second > 0)
    t.parallel_efficiency = t.evaluations_per_second / (best * double(slots_.size()));
  return res;
}

}  // namespace

EvalResult run_sweep(const Problem& p, const EvalRequest& r, const EvalControl& ctl, const SweepSetup& setup,
                     const Work& work) {
  Coordinator c(p, r, ctl, setup, work);
  return c.run();
}

}  // namespace ks::topo
