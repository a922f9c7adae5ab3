#pragma once
// What travels between the sweep's coordinator and its workers (threads of this process, or MPI ranks): the
// inputs of a pass, chunk assignments, their results, and the protocol's messages as bytes. Internal to gpu/topo.
//
// The protocol: a worker says Hello (or Failed, when it could not start), then receives Assigns, runs them in the
// order they came and sends a Report for each, until it receives Stop. The coordinator sends an Assign only after
// the worker's Hello, at most two ahead of the worker's Reports (the second travels while the first runs), and Stop
// only when nothing is outstanding. A worker that fails sends Failed (with the chunks it was running) and then
// ignores everything but Stop.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "topo/sweep/sweep_backend.hpp"

namespace ks::topo {

// What every chunk of a pass needs besides its items. `version` grows with every pass of every repetition.
struct PassInputs {
  std::uint64_t version = 0;
  int rep = 0;
  Pass pass = Pass::Stats;
  bool histogram_follows = false;                              // Stats
  std::vector<HistogramBins> bins;                             // Histogram, Top
  std::vector<std::array<std::uint64_t, kHistogramBins>> counts;  // Top (the CUDA top pass reads the histogram)
  int top_k = 0, top_slice = 0;                                // Top
  // Cube: host memory of the coordinator's process (local workers only).
  std::int64_t* cube_i = nullptr;
  double* cube_d = nullptr;
  std::uint64_t cube_first = 0;
};

struct ItemRange {
  std::uint64_t begin = 0, end = 0;
};

struct Assignment {
  std::uint64_t version = 0;  // of the PassInputs it belongs to
  std::vector<std::uint64_t> chunks;
  std::vector<ItemRange> items;  // of each chunk
};

// The reductions of one assignment (one chunk, or a group of chunks reported together).
struct ChunkResult {
  std::vector<RawStats> stats;                                    // Stats: [pair]
  std::vector<std::array<std::uint64_t, kHistogramBins>> counts;  // Histogram: [pair]
  std::vector<Candidate> top;                                     // Top: the best top_k of the chunk
  bool counted_values = false;  // Stats: the backend also counted the values, for the Histogram pass
};

struct ChunkReport {
  std::uint64_t version = 0;
  std::vector<std::uint64_t> chunks;
  ChunkResult result;
  double busy_ms = 0;              // the backend's time (device time on CUDA)
  std::uint64_t evaluations = 0;   // evaluations of the request's placements in the chunks
};

struct Hello {
  std::string name;                      // "NVIDIA H100 80GB HBM3 (GPU 0)", "CPU (16 threads)"
  std::uint64_t fingerprint = 0;         // of the problem and request (checkpoint.hpp): ranks must agree
  std::uint64_t default_batch = 0;       // the backend's evaluations per batch
};

enum class MessageType : std::uint8_t { Hello = 1, Failed, Report, Assign, Stop };

// A protocol message: one of the payloads, by type.
struct Message {
  MessageType type = MessageType::Stop;
  Hello hello;
  std::string failure;       // Failed
  ChunkReport report;        // Report; Failed (the chunks that were lost, when any)
  Assignment assignment;     // Assign
  bool with_inputs = false;  // Assign: `inputs` travel along (the first assignment of a pass)
  PassInputs inputs;
};

std::vector<std::uint8_t> encode(const Message& m);
// Io Error for a message that is cut short or malformed.
Message decode(const std::vector<std::uint8_t>& bytes);

// Little helpers for the encoding (plain data copied as bytes: every rank runs the same build).
class ByteWriter {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    put(std::uint64_t(v.size()));
    const auto* p = reinterpret_cast<const std::uint8_t*>(v.data());
    bytes_.insert(bytes_.end(), p, p + v.size() * sizeof(T));
  }
  void put_string(const std::string& s) {
    put(std::uint64_t(s.size()));
    bytes_.insert(bytes_.end(), s.begin(), s.end());
  }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(const std::vector<std::uint8_t>& bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T v;
    std::memcpy(&v, take(sizeof(T)), sizeof(T));
    return v;
  }
  template <class T>
  std::vector<T> get_vector() {
    const std::uint64_t n = get<std::uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) fail();
    std::vector<T> v(static_cast<std::size_t>(n));
    if (n) std::memcpy(v.data(), take(std::size_t(n) * sizeof(T)), std::size_t(n) * sizeof(T));
    return v;
  }
  std::string get_string() {
    const std::uint64_t n = get<std::uint64_t>();
    if (n > bytes_.size() - at_) fail();
    const auto* p = take(std::size_t(n));
    return std::string(reinterpret_cast<const char*>(p), std::size_t(n));
  }
  bool at_end() const { return at_ == bytes_.size(); }

 private:
  const std::uint8_t* take(std::size_t n) {
    if (n > bytes_.size() - at_) fail();
    const std::uint8_t* p = bytes_.data() + at_;
    at_ += n;
    return p;
  }
  [[noreturn]] void fail() const;

  const std::vector<std::uint8_t>& bytes_;
  std::size_t at_ = 0;
};

}  // namespace ks::topo
