#include "editor/compile_outcome.hpp"

#include <exception>

namespace ks::editor {

CompileOutcome compile_for_editor(const CompileFunction& compile, const usercode::CompileRequest& request,
                                  usercode::CompileCache* cache, std::uint64_t generation) {
  CompileOutcome out;
  out.generation = generation;
  out.thread = std::this_thread::get_id();
  try {
    auto kernel = std::make_shared<const usercode::CompiledKernel>(compile(request, cache));
    if (kernel->module) out.diagnostics = diagnostics_of(*kernel->module, request.source);
    out.kernel = std::move(kernel);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Cancelled) {
      out.cancelled = true;
      return out;
    }
    out.diagnostics.push_back(diagnostic_of_error(e, request.file_name));
  } catch (const std::exception& e) {
    out.diagnostics.push_back(
        diagnostic_of_error(Error(ErrorKind::Internal, e.what(), "this is a bug of kernelscope"), request.file_name));
  }
  return out;
}

}  // namespace ks::editor
