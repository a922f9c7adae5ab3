#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <new>
#include <string>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/error.hpp"

namespace ks {

namespace fs = std::filesystem;

namespace {

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

// The reason in words people act on; the system's text for the rest.
std::string reason_for(int err, const fs::path& dir) {
  switch (err) {
    case ENOENT: return fmt::format("no such directory '{}'", dir.string());
    case ENOTDIR: return fmt::format("'{}' is not a directory", dir.string());
    case EACCES:
    case EPERM: return fmt::format("permission denied in '{}'", dir.string());
    case ENOSPC: return "disk full";
    case EDQUOT: return "disk quota exceeded";
    case EROFS: return "read-only file system";
    case EISDIR: return "a directory of that name is in the way";
    case 0: return "write error";
    default: return errno_text(err);
  }
}

std::string hint_for(int err) {
  switch (err) {
    case ENOENT: return "create the folder first or choose another path";
    case ENOTDIR: return "check the path";
    case EACCES:
    case EPERM:
    case EROFS: return "choose a folder you can write to";
    case ENOSPC:
    case EDQUOT: return "free some space or write somewhere else";
    case EFBIG: return "the file system or a size limit (ulimit -f) refuses files this large; write somewhere else";
    case EISDIR: return "choose another file name";
    default: return "check the path and the disk";
  }
}

[[noreturn]] void throw_write_error(const fs::path& target, const fs::path& dir, int err) {
  std::error_code ec;
  if (err == ENOENT && fs::is_directory(dir, ec)) {
    // What a pseudo file system such as /proc answers: the folder is there, files cannot be made in it.
    throw_io(fmt::format("could not write '{}': cannot create files in '{}'", target.string(), dir.string()),
             hint_for(EACCES));
  }
  throw_io(fmt::format("could not write '{}': {}", target.string(), reason_for(err, dir)), hint_for(err));
}

// Permissions the target would get from a plain fopen: 0666 minus the umask. umask() cannot be read without
// setting it (racy with other threads), so read it from /proc; fall back to the common 022.
mode_t new_file_mode() {
  mode_t mask = 022;
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("Umask:", 0) == 0) {
      mask = mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
      break;
    }
  }
  return 0666 & ~mask;
}

// The temporary file: removed on destruction unless commit() renamed it over the target.
// Writes go through a stdio stream of our own (fopencookie) so that the errno of a failed write is kept: glibc
// drops the buffer of a failed write, and a later fflush reports success with errno long overwritten.
class TempFile {
 public:
  TempFile(const fs::path& target, const fs::path& dir) : target_(target), dir_(dir) {
    // Hidden, and named after the target so that a leftover from a crash says where it came from.
    // (Built with += rather than "." + name: GCC 12 gives a false -Wrestrict warning for that.)
    std::string temp_name = ".";
    temp_name += target.filename().string();
    temp_name += ".tmp-XXXXXX";
    std::string pattern = (dir / temp_name).string();
    fd_ = ::mkstemp(pattern.data());
    if (fd_ < 0) throw_write_error(target_, dir_, errno);
    path_ = pattern;
    const cookie_io_functions_t io{nullptr, &TempFile::write_cookie, &TempFile::seek_cookie, nullptr};
    file_ = ::fopencookie(this, "wb", io);
    if (!file_) {
      const int err = errno;
      cleanup();
      throw_write_error(target_, dir_, err);
    }
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() { cleanup(); }

  std::FILE* file() { return file_; }

  void commit() {
    const bool flushed = std::fflush(file_) == 0 && !std::ferror(file_);
    const int closed = std::fclose(file_);  // only the stream: the descriptor is ours
    file_ = nullptr;
    if (!flushed || closed != 0) throw_write_error(target_, dir_, write_errno_);
    struct stat existing{};
    const mode_t mode = ::stat(target_.c_str(), &existing) == 0 ? (existing.st_mode & 07777) : new_file_mode();
    if (::fchmod(fd_, mode) != 0) throw_write_error(target_, dir_, errno);
    // Without fsync a crash soon after the rename can leave an empty target on some file systems.
    if (::fsync(fd_) != 0) throw_write_error(target_, dir_, errno);
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) throw_write_error(target_, dir_, errno);
    if (std::rename(path_.c_str(), target_.c_str()) != 0) throw_write_error(target_, dir_, errno);
    committed_ = true;
    sync_directory();
  }

 private:
  // Makes the rename itself durable; best effort, as not every file system supports it.
  void sync_directory() const {
    const int fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
  }

  static ssize_t write_cookie(void* cookie, const char* data, size_t size) {
    auto* self = static_cast<TempFile*>(cookie);
    size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(self->fd_, data + done, size - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        if (self->write_errno_ == 0) self->write_errno_ = n < 0 ? errno : EIO;
        // fopencookie's contract: 0 (not a short count) on error, so that stdio flags the stream.
        return done == 0 ? 0 : ssize_t(done);
      }
      done += size_t(n);
    }
    return ssize_t(done);
  }

  // Writers may ftell/fseek (e.g. to patch a header); the descriptor's offset is the stream's.
  static int seek_cookie(void* cookie, off64_t* offset, int whence) {
    const off_t at = ::lseek(static_cast<TempFile*>(cookie)->fd_, off_t(*offset), whence);
    if (at < 0) return -1;
    *offset = at;
    return 0;
  }

  void cleanup() {
    if (file_) std::fclose(std::exchange(file_, nullptr));
    if (fd_ >= 0) ::close(std::exchange(fd_, -1));
    if (!path_.empty() && !committed_) ::unlink(path_.c_str());
  }

  fs::path target_;
  fs::path dir_;
  std::string path_;
  int fd_ = -1;
  std::FILE* file_ = nullptr;
  int write_errno_ = 0;  // of the first failed write
  bool committed_ = false;
};

fs::path folder_of(const fs::path& target) {
  if (!target.has_filename()) {
    throw_usage(fmt::format("cannot write '{}': the path names a folder, not a file", target.string()),
                "add a file name");
  }
  return target.has_parent_path() ? target.parent_path() : fs::path(".");
}

}  // namespace

class AtomicFile::Temp : public TempFile {
 public:
  using TempFile::TempFile;
};

AtomicFile::AtomicFile(const fs::path& target)
    : target_(target), temp_(std::make_unique<Temp>(target, folder_of(target))) {}

AtomicFile::~AtomicFile() = default;

std::FILE* AtomicFile::file() { return temp_->file(); }

void AtomicFile::commit() { temp_->commit(); }

void write_file_atomically(const fs::path& target, const std::function<void(std::FILE*)>& write) {
  TempFile temp(target, folder_of(target));
  try {
    write(temp.file());
  } catch (const Error& e) {
    throw Error(e.kind(), fmt::format("could not write '{}': {}", target.string(), e.what()), e.hint());
  } catch (const std::bad_alloc&) {
    throw Error(ErrorKind::OutOfMemory, fmt::format("out of memory while writing '{}'", target.string()),
                "close other programs or write a smaller file");
  } catch (const std::exception& e) {
    throw_io(fmt::format("could not write '{}': {}", target.string(), e.what()));
  }
  temp.commit();
}

void write_text_atomically(const fs::path& target, std::string_view text) {
  write_file_atomically(target, [&](std::FILE* f) { std::fwrite(text.data(), 1, text.size(), f); });
}

}  // namespace ks
