#pragma once
// A block of POSIX shared memory that a client and its worker process both map: the client creates it (named
// after its pid and a counter, so concurrent clients never meet) and removes the name when the object goes; the
// worker opens the same name. How a user kernel's inputs, CUBIN and outputs cross between the app or CLI and the
// worker that runs it, without a copy through a pipe.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace ks::usercode {

class SharedMemory {
 public:
  // Creates and maps `bytes` (at least 1) of zeroed shared memory. Runtime Error when the system refuses (the
  // message says how much was asked and why it failed).
  static SharedMemory create(std::uint64_t bytes);
  // Maps an existing block by name; `bytes` must not exceed its size.
  static SharedMemory open(const std::string& name, std::uint64_t bytes);

  SharedMemory(SharedMemory&& other) noexcept;
  SharedMemory& operator=(SharedMemory&& other) noexcept;
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;
  ~SharedMemory();

  const std::string& name() const { return name_; }
  std::span<std::byte> bytes() const { return {data_, size_}; }

 private:
  SharedMemory(std::string name, std::byte* data, std::size_t size, bool owner)
      : name_(std::move(name)), data_(data), size_(size), owner_(owner) {}
  void release() noexcept;

  std::string name_;
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool owner_ = false;  // the creator unlinks the name
};

}  // namespace ks::usercode
