#pragma once
// Writing a file all at once: the content goes to a temporary file beside the target, is flushed to disk, then
// renamed over the target. Readers see the old file or the complete new one, never a partial file, and a failed
// write (disk full, exception in the writer) leaves the old target untouched and no temporary behind.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <string_view>

namespace ks {

// The same for content that is written over time (the frames of an animation): the temporary file is open from
// construction; commit() puts it in place. Destroyed without a commit (an error, a cancel), it removes the
// temporary and leaves the target as it was. Write errors on file() are reported by commit().
class AtomicFile {
 public:
  explicit AtomicFile(const std::filesystem::path& target);  // Usage Error for a folder path, Io Error if no temp
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::FILE* file();
  const std::filesystem::path& target() const noexcept { return target_; }
  void commit();

 private:
  class Temp;
  std::filesystem::path target_;
  std::unique_ptr<Temp> temp_;
};

// `write` fills the open file; stdio errors it causes are detected here (no need to check each fwrite).
// Throws an Io Error naming the target and the reason; an Error thrown by `write` keeps its kind and hint.
// A new file gets the usual permissions (0666 minus umask); an existing target keeps its permissions.
void write_file_atomically(const std::filesystem::path& target, const std::function<void(std::FILE*)>& write);

void write_text_atomically(const std::filesystem::path& target, std::string_view text);

}  // namespace ks
