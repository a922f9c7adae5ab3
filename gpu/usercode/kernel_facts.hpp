#pragma once
// What the compiler made of each kernel, read without a GPU: ptxas's verbose report (NVRTC's log with
// `-Xptxas=-v`) gives registers, stack frame, spills and static shared memory per entry; the PTX gives each
// entry's launch bounds (.maxntid / .reqntid); the mangled name gives the entry's name and parameter types.
#include <string>
#include <string_view>
#include <vector>

namespace ks::usercode {

struct KernelFacts {
  std::string mangled_name;                  // as in the PTX and CUBIN (what cuModuleGetFunction takes)
  std::string name;                          // "smooth", "ns::smooth", "reduce<float>"
  std::string signature;                     // "smooth(ks::InImage<float>, ks::OutImage<float>, int)"
  std::vector<std::string> parameter_types;  // demangled; empty for an extern "C" entry (its types are not known)
  bool c_linkage = false;                    // extern "C": no parameter types in the name
  int registers = 0;                         // per thread
  int stack_bytes = 0;                       // stack frame
  int spill_stores = 0;                      // bytes
  int spill_loads = 0;                       // bytes
  int shared_bytes = 0;                      // static shared memory
  int launch_bound = 0;                      // threads per block from __launch_bounds__ (.maxntid/.reqntid); 0: none
  int max_threads_per_block = 0;             // what a launch may ask for: see max_threads_per_block()
  // Whether ptxas's report gave the resource figures above. NVRTC 13.0.88 leaves its log empty for a program that
  // includes a header (the prelude), while earlier 13.0 builds report; the entry is known from the PTX either way.
  bool resources_reported = true;
};

// The entries of ptxas's `-v` report, in its order, with registers, stack, spills and shared memory filled in.
std::vector<KernelFacts> parse_ptxas_report(std::string_view log);

// The kernels the PTX defines (`.entry NAME(`), in its order. Entries ptxas's report left out are added with
// resources_reported = false, so the list of kernels never depends on the report.
void add_unreported_entries(std::vector<KernelFacts>& kernels, std::string_view ptx);

// Launch bounds of each `.entry` in the PTX, by mangled name (0 where the entry has none).
int ptx_launch_bound(std::string_view ptx, const std::string& mangled_name);

// Puts the kernels in the PTX's order, which is the source's (ptxas reports them in another).
void order_as_in_ptx(std::vector<KernelFacts>& kernels, std::string_view ptx);

// Fills name, signature, parameter_types and c_linkage from mangled_name.
void describe_entry(KernelFacts& k);

// The most threads a block of this kernel can have: 1024, or its launch bound, or fewer where its registers do
// not fit 64 K per block. Registers go to warps in units of 256 and each of the SM's 4 sub-partitions holds a
// quarter of the register file (as core/occupancy_model), true of every architecture NVRTC 13 targets (sm_75 on).
int max_threads_per_block(int registers_per_thread, int launch_bound);

}  // namespace ks::usercode
