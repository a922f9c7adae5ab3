// MPI through Open MPI (KS_WITH_MPI). Messages are bytes on one tag; MPI's default error handler aborts the job
// on a communication error, which is what mpirun does anyway when a rank dies.
#include "cli/mpi_session.hpp"

#include <mpi.h>

#include <list>

#include "core/error.hpp"

namespace ks::cli {

bool mpi_built_in() { return true; }

namespace {

constexpr int kTag = 7;

// Sends do not wait for the receiver: rank 0 sends a rank its next chunk while that rank still computes the current
// one, and a blocking send of a message above MPI's eager limit (a pass's histogram bins for many slices) would hold
// rank 0's coordinator until the rank next calls MPI. Each send's bytes live until its request completes; MPI keeps
// the order of messages between two ranks.
class MpiLink final : public topo::RankLink {
 public:
  MpiLink(int size, int rank) : size_(size), rank_(rank) {}
  MpiLink(const MpiLink&) = delete;
  MpiLink& operator=(const MpiLink&) = delete;
  ~MpiLink() override { finish_sends(); }
  // Before MPI_Finalize: every send delivered (a rank that got Stop has received all it was sent before).
  void finish_sends() {
    for (Pending& p : pending_) MPI_Wait(&p.request, MPI_STATUS_IGNORE);
    pending_.clear();
  }
  int size() const override { return size_; }
  int rank() const override { return rank_; }
  bool poll(int& from, std::vector<std::uint8_t>& bytes) override {
    reap_sends();
    int flag = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, kTag, MPI_COMM_WORLD, &flag, &status);
    if (!flag) return false;
    from = status.MPI_SOURCE;
    bytes = take(status);
    return true;
  }
  std::vector<std::uint8_t> receive(int from) override {
    reap_sends();
    MPI_Status status;
    MPI_Probe(from, kTag, MPI_COMM_WORLD, &status);
    return take(status);
  }
  void send(int to, const std::vector<std::uint8_t>& bytes) override {
    reap_sends();
    Pending& p = pending_.emplace_back();
    p.bytes = bytes;
    MPI_Isend(p.bytes.data(), int(p.bytes.size()), MPI_BYTE, to, kTag, MPI_COMM_WORLD, &p.request);
  }

 private:
  struct Pending {
    std::vector<std::uint8_t> bytes;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  // Frees the sends that completed (testing also lets MPI progress the others).
  void reap_sends() {
    for (auto it = pending_.begin(); it != pending_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      it = done ? pending_.erase(it) : std::next(it);
    }
  }
  std::list<Pending> pending_;  // a list: the requests' buffers must not move
  static std::vector<std::uint8_t> take(const MPI_Status& status) {
    int count = 0;
    MPI_Get_count(&status, MPI_BYTE, &count);
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(count));
    MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, kTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return bytes;
  }
  int size_, rank_;
};

}  // namespace

struct MpiSession::Impl {
  int size = 1, rank = 0, local_rank = 0, local_size = 1;
  std::string host;
  std::unique_ptr<MpiLink> link;
};

MpiSession::MpiSession(const LaunchInfo&) : impl_(std::make_unique<Impl>()) {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_size(MPI_COMM_WORLD, &impl_->size);
  MPI_Comm_rank(MPI_COMM_WORLD, &impl_->rank);
  // The ranks that share this host: which GPU each takes, how many CPU threads.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, impl_->rank, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &impl_->local_size);
  MPI_Comm_rank(node, &impl_->local_rank);
  MPI_Comm_free(&node);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  impl_->host.assign(name, std::size_t(len));
  impl_->link = std::make_unique<MpiLink>(impl_->size, impl_->rank);
}

MpiSession::~MpiSession() {
  impl_->link->finish_sends();
  MPI_Finalize();
}

int MpiSession::size() const { return impl_->size; }
int MpiSession::rank() const { return impl_->rank; }
int MpiSession::local_rank() const { return impl_->local_rank; }
int MpiSession::local_size() const { return impl_->local_size; }
const std::string& MpiSession::host() const { return impl_->host; }
topo::RankLink& MpiSession::link() { return *impl_->link; }

}  // namespace ks::cli
