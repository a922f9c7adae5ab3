#pragma once
// What the compiler made of a user's kernel, instruction by instruction, with the source line each came from:
// the PTX (NVRTC's, with `-lineinfo`: its `.loc` directives) or the SASS (the toolkit's disassembler, nvdisasm,
// on the CUBIN: its `//## File "...", line N` comments). Only the user's own lines count as source lines; an
// instruction the compiler placed at a line of the prelude (an inlined ks:: helper) says so. Needs no GPU.
// The editor shows a Listing beside the source; `kernelscope-cli compile --ptx / --sass` prints it.
#include <string>
#include <string_view>
#include <vector>

#include "usercode/compiled_module.hpp"

namespace ks::usercode {

enum class ListingKind { Ptx, Sass };
const char* to_string(ListingKind kind);  // "PTX", "SASS"

// Where the compiler says a line of the listing comes from.
enum class LineOrigin {
  User,     // a line of the user's file: ListingLine::source_line
  Prelude,  // the app's prelude (ks_prelude.cuh), e.g. ks::global_index() inlined
  Header,   // another file: one of CUDA's headers (atomicAdd's, say)
  None,     // no location: labels, code before the first location
};
const char* to_string(LineOrigin origin);  // "user", "prelude", "header", "none"

struct ListingLine {
  int source_line = 0;  // 1-based line of the user's file; 0 unless origin is User
  LineOrigin origin = LineOrigin::None;
  std::string text;  // the instruction (or label) as the compiler wrote it, without indentation
};

struct KernelListing {
  std::string name;          // as KernelFacts::name ("vecadd"); the mangled name where no kernel matches
  std::string mangled_name;  // as in the PTX and CUBIN
  std::vector<ListingLine> lines;
};

struct Listing {
  ListingKind kind = ListingKind::Ptx;
  std::vector<KernelListing> kernels;  // in the module's order
  std::string note;                    // why this is PTX when SASS was asked for; empty otherwise
};

// The PTX of a compiled module (m.ok), one KernelListing per `.entry`, its instructions and labels with the
// location of the `.loc` before each. `.file` paths are matched with m.file_name (NVRTC makes a relative name
// absolute against its working directory, so a path that ends in "/" + file_name is the user's too).
Listing ptx_listing(const CompiledModule& m);

// nvdisasm's output with line info (`nvdisasm --print-line-info`) for the module: one KernelListing per
// `.text.NAME` section. `user_file` as above.
Listing parse_sass_listing(std::string_view nvdisasm_output, const std::string& user_file,
                           const std::vector<KernelFacts>& kernels);

// Whether `path` (a `.file` of the PTX or a `//## File` of nvdisasm) names the user's file `user_file`.
bool names_user_file(std::string_view path, std::string_view user_file);

// What the parsers share: the place a location names, and a kernel's name from its mangled one.
inline constexpr std::string_view kPreludeFileName = "ks_prelude.cuh";  // as nvrtc_compile.cpp includes it
struct SourcePlace {
  LineOrigin origin = LineOrigin::None;
  int source_line = 0;
};
SourcePlace place_in(std::string_view path, int line, std::string_view user_file);
std::string kernel_name(const std::string& mangled, const std::vector<KernelFacts>& kernels);
std::vector<std::string_view> lines_of(std::string_view text);  // split at '\n'
std::string_view trim(std::string_view s);           // without the blanks (spaces, tabs, CR) at either end
std::string single_spaced(std::string_view text);  // trimmed, each run of blanks one space

}  // namespace ks::usercode
