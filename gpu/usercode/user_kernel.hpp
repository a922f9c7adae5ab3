#pragma once
// The compiler service: a user's kernel source in, a compiled kernel out, with everything the app, the CLI and
// (later) the worker that runs it need: its declarations (parameters for widgets), its family, the compiled module
// (diagnostics, facts, PTX, CUBIN) and which kernel is the entry. Checks the source's text before compiling and the
// entry's signature against its family's contract after.
#include <atomic>
#include <memory>
#include <optional>
#include <string>

#include "usercode/compile_cache.hpp"
#include "usercode/compiled_module.hpp"
#include "usercode/declarations.hpp"
#include "usercode/family.hpp"

namespace ks::usercode {

struct CompileRequest {
  std::string file_name;  // how messages name the source ("smooth.cu")
  std::string source;
  std::string family;  // "stencil", "array", "step"; empty: the source's `// @family`, or none (no contract check)
  std::string entry;   // empty: the source's `// @entry`, or its only __global__ function
  CompileOptions options;
  const std::atomic<bool>* cancel = nullptr;  // set to true to stop the compile (a Cancelled Error)
};

struct CompiledKernel {
  KernelDeclarations declarations;
  std::optional<Family> family;
  std::shared_ptr<const CompiledModule> module;
  bool from_cache = false;
  int entry = -1;  // index into module->kernels; -1 when the compile failed

  bool ok() const { return module && module->ok; }
  const KernelFacts& entry_facts() const { return module->kernels.at(static_cast<std::size_t>(entry)); }
};

// A compile that fails comes back with ok() false and the diagnostics in module. Usage Errors, with what to do,
// for: source text that is empty, binary or too large; malformed declarations; an unknown family or one that
// contradicts `// @family`; no __global__ function; several with no entry named; an entry that does not exist;
// an entry whose parameters differ from the family's contract (which one, and what the contract wants).
CompiledKernel compile_user_kernel(const CompileRequest& request, CompileCache* cache = nullptr);

}  // namespace ks::usercode
