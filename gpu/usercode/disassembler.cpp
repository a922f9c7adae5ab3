#include "usercode/disassembler.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>

#include "core/error.hpp"
#include "usercode/tool_process.hpp"

namespace ks::usercode {

namespace {

bool executable(const std::filesystem::path& p) {
  std::error_code ec;
  return std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// A CUBIN in a temporary file, removed when this goes (after a failed disassembly too).
class TempCubin {
 public:
  explicit TempCubin(const std::vector<char>& bytes) {
    std::string pattern = (std::filesystem::temp_directory_path() / "kernelscope-XXXXXX.cubin").string();
    const int fd = ::mkstemps(pattern.data(), 6);
    if (fd < 0) throw Error(ErrorKind::Io, "could not create a temporary file for the CUBIN to disassemble");
    path_ = pattern;
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
      const ssize_t n = ::write(fd, p, left);
      if (n <= 0) break;
      p += n;
      left -= std::size_t(n);
    }
    ::close(fd);
    if (left > 0) {
      remove();
      throw Error(ErrorKind::Io, fmt::format("could not write the CUBIN to {} to disassemble it", pattern),
                  "check the free space in the temporary folder");
    }
  }
  ~TempCubin() { remove(); }
  TempCubin(const TempCubin&) = delete;
  TempCubin& operator=(const TempCubin&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  void remove() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove(path_, ec);
    path_.clear();
  }
  std::filesystem::path path_;
};

// The first line of what a failing program said, for the message.
std::string first_line(const std::string& text) {
  const auto start = text.find_first_not_of(" \t\r\n");
  if (start == std::string::npos) return {};
  const auto end = text.find('\n', start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

}  // namespace

std::filesystem::path find_nvdisasm() {
  if (const std::filesystem::path toolkit = "/usr/local/cuda/bin/nvdisasm"; executable(toolkit)) return toolkit;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "";
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string_view dir = dirs.substr(0, colon);
    if (!dir.empty())
      if (const auto candidate = std::filesystem::path(dir) / "nvdisasm"; executable(candidate)) return candidate;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  return {};
}

Listing sass_listing(const CompiledModule& m, const Disassembler& d) {
  const std::string tool = d.program.string();
  if (m.cubin.empty())
    throw Error(ErrorKind::Io, fmt::format("{} has no CUBIN to disassemble", m.file_name), "compile it for an sm_XX");
  const TempCubin cubin(m.cubin);
  const ProcessResult r = run_process(d.program, {"--print-code", "--print-line-info", cubin.path().string()},
                                      d.time_limit);
  const std::string what = fmt::format("the disassembler {}", tool);
  if (!r.started)
    throw Error(ErrorKind::Io, fmt::format("could not start {}: {}", what, r.start_error),
                "check the CUDA toolkit's installation, or look at the PTX instead");
  if (r.timed_out)
    throw Error(ErrorKind::Io,
                fmt::format("{} did not finish within {:g} s and was stopped", what, d.time_limit.count() / 1000.0),
                "look at the PTX instead");
  if (r.signal != 0)
    throw Error(ErrorKind::Io, fmt::format("{} was ended by signal {}", what, r.signal), "look at the PTX instead");
  if (r.exit_code != 0) {
    const std::string said = first_line(r.err.empty() ? r.out : r.err);
    throw Error(ErrorKind::Io,
                fmt::format("{} failed (exit status {}){}", what, r.exit_code, said.empty() ? "" : ": " + said),
                fmt::format("check that it comes from the CUDA toolkit NVRTC comes from (the CUBIN is for {}), or "
                            "look at the PTX instead",
                            m.options.front().substr(m.options.front().find('=') + 1)));
  }
  Listing listing = parse_sass_listing(r.out, m.file_name, m.kernels);
  if (listing.kernels.empty())
    throw Error(ErrorKind::Io, fmt::format("{} wrote no kernel code for {}", what, m.file_name),
                "look at the PTX instead");
  return listing;
}

Listing compiler_listing(const CompiledModule& m, ListingKind kind, const Disassembler& d) {
  if (kind == ListingKind::Ptx) return ptx_listing(m);
  std::error_code ec;
  if (d.program.empty() || !std::filesystem::exists(d.program, ec)) {
    Listing ptx = ptx_listing(m);
    ptx.note = d.program.empty() ? "SASS needs the CUDA toolkit's disassembler, nvdisasm, which is neither in "
                                   "/usr/local/cuda/bin nor on PATH: this is the PTX"
                                 : "SASS needs the CUDA toolkit's disassembler, and there is none at " +
                                       d.program.string() + ": this is the PTX";
    return ptx;
  }
  return sass_listing(m, d);
}

}  // namespace ks::usercode
