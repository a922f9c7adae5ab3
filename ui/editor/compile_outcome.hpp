#pragma once
// One compile of the editor's text, as the editor shows it: the compiled kernel (facts, declarations, the module
// a run loads), the messages at the user's lines, and which text it was for. Built on the compile worker's thread
// and handed to the GUI thread, which drops it when the text has changed since (a stale result). Qt-free.
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "editor/editor_diagnostics.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::editor {

struct CompileOutcome {
  std::uint64_t generation = 0;  // the edit of the text it was compiled from
  // The compiled kernel; null when the request was refused (see diagnostics) or cancelled.
  std::shared_ptr<const usercode::CompiledKernel> kernel;
  std::vector<EditorDiagnostic> diagnostics;
  bool cancelled = false;  // a newer edit stopped it: nothing to show
  std::thread::id thread;  // where the compile ran (never the GUI's)

  // The kernel compiled and its entry fits its family: something a run can load.
  bool runnable() const { return kernel && kernel->ok() && kernel->entry >= 0 && count_errors(diagnostics) == 0; }
};

// What compiles: the compiler service, or a stand-in of the tests.
using CompileFunction =
    std::function<usercode::CompiledKernel(const usercode::CompileRequest&, usercode::CompileCache*)>;

// Runs `compile` and turns whatever comes back (a kernel, a refusal, a cancel) into an outcome; never throws for
// ks::Error (an unexpected exception becomes an error message too, so that the worker thread never dies).
CompileOutcome compile_for_editor(const CompileFunction& compile, const usercode::CompileRequest& request,
                                  usercode::CompileCache* cache, std::uint64_t generation);

}  // namespace ks::editor
