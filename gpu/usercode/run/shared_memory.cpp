#include "usercode/run/shared_memory.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <utility>

#include "core/error.hpp"

namespace ks::usercode {

namespace {

// The pid keeps processes apart; a random part keeps the blocks of one process apart (O_EXCL refuses a clash).
std::string new_name() {
  std::random_device random;
  return fmt::format("/kernelscope-{}-{:08x}{:08x}", ::getpid(), random(), random());
}

[[noreturn]] void refuse(const std::string& what, std::string hint) {
  throw Error(ErrorKind::OutOfMemory, what, std::move(hint));
}

std::byte* map(int fd, std::size_t bytes, const std::string& name) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    const int err = errno;
    ::close(fd);
    refuse(fmt::format("cannot map {} bytes of shared memory {}: {}", bytes, name, std::strerror(err)),
                  "free memory or use a smaller input");
  }
  ::close(fd);  // the mapping keeps the memory
  return static_cast<std::byte*>(p);
}

}  // namespace

SharedMemory SharedMemory::create(std::uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  std::string name = new_name();
  const int fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0)
    refuse(fmt::format("cannot create shared memory {}: {}", name, std::strerror(errno)),
                  "check that /dev/shm is mounted and writable");
  if (::ftruncate(fd, static_cast<off_t>(bytes)) != 0) {
    const int err = errno;
    ::close(fd);
    ::shm_unlink(name.c_str());
    refuse(fmt::format("cannot size shared memory to {} bytes: {}", bytes, std::strerror(err)),
                  "free space in /dev/shm or use a smaller input");
  }
  try {
    std::byte* data = map(fd, bytes, name);
    return SharedMemory(std::move(name), data, bytes, true);
  } catch (...) {
    ::shm_unlink(name.c_str());
    throw;
  }
}

SharedMemory SharedMemory::open(const std::string& name, std::uint64_t bytes) {
  const int fd = ::shm_open(name.c_str(), O_RDWR, 0600);
  if (fd < 0) throw Error(ErrorKind::Internal, fmt::format("cannot open shared memory {}: {}", name, std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || static_cast<std::uint64_t>(st.st_size) < bytes) {
    ::close(fd);
    throw Error(ErrorKind::Internal, fmt::format("shared memory {} is smaller than the {} bytes asked for", name, bytes));
  }
  std::byte* data = map(fd, bytes == 0 ? 1 : bytes, name);
  return SharedMemory(name, data, bytes == 0 ? 1 : bytes, false);
}

SharedMemory::SharedMemory(SharedMemory&& other) noexcept
    : name_(std::move(other.name_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      owner_(std::exchange(other.owner_, false)) {}

SharedMemory& SharedMemory::operator=(SharedMemory&& other) noexcept {
  if (this != &other) {
    release();
    name_ = std::move(other.name_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    owner_ = std::exchange(other.owner_, false);
  }
  return *this;
}

SharedMemory::~SharedMemory() { release(); }

void SharedMemory::release() noexcept {
  if (data_) ::munmap(data_, size_);
  if (owner_) ::shm_unlink(name_.c_str());
  data_ = nullptr;
  owner_ = false;
}

}  // namespace ks::usercode
