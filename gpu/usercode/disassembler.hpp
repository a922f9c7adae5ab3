#pragma once
// The SASS of a compiled module through the CUDA toolkit's disassembler (nvdisasm), run as a child process on
// the CUBIN written to a temporary file (removed in every case). Where the toolkit has no nvdisasm the listing is
// the PTX, with a note that says so. Needs no GPU.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

#include "usercode/listing.hpp"

namespace ks::usercode {

struct Disassembler {
  std::filesystem::path program;  // nvdisasm; empty: none found
  std::chrono::milliseconds time_limit{30000};
};

// nvdisasm from /usr/local/cuda/bin (where the toolkit installs it), else the first on PATH; empty if neither.
std::filesystem::path find_nvdisasm();

// nvdisasm's listing of m.cubin (m.ok). Io Error, saying what happened and what to do, when the program cannot be
// started, runs past its time limit, fails (its message), or writes no code.
Listing sass_listing(const CompiledModule& m, const Disassembler& disassembler);

// The listing of `kind`: SASS needs disassembler.program; where it is empty or names no file the listing is the
// PTX, with Listing::note saying why. A disassembler that fails throws as sass_listing does.
Listing compiler_listing(const CompiledModule& m, ListingKind kind, const Disassembler& disassembler);

}  // namespace ks::usercode
