#pragma once
// What the kernel editor shows of a compile's messages: each at a line of the user's own text (the gutter's
// marker, the list under the editor, the tooltip), or at no line when it has none (a message about a prelude
// header, or a request refused as a whole). Qt-free, so the CPU tests check it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.hpp"
#include "source/brace_scan.hpp"
#include "usercode/compiled_module.hpp"
#include "usercode/diagnostics.hpp"

namespace ks::editor {

struct EditorDiagnostic {
  usercode::Severity severity = usercode::Severity::Error;
  int line = 0;    // 1-based line of the user's text; 0: none (listed, not marked)
  int column = 0;  // 1-based; 0: the whole line
  std::string message;  // one line, for the list
  std::string detail;   // the full text (the compiler's caret lines, the hint), for the tooltip
  // An error at the end of the source: the `{` that was never closed, found in the text (or, where the text has
  // none, the brace the compiler named).
  std::optional<source::TextPosition> unclosed_brace;
};

// The compiler's messages at the user's lines; those about other files (the prelude) keep their place in the
// message and get no line.
std::vector<EditorDiagnostic> diagnostics_of(const usercode::CompiledModule& module, std::string_view source);

// A request the compiler service refused (an empty text, a malformed `// @param`, an entry that does not fit its
// family): one error, at the line its message starts with ("FILE:LINE: ...") when it names one.
EditorDiagnostic diagnostic_of_error(const Error& error, const std::string& file_name);

int count_errors(const std::vector<EditorDiagnostic>& diagnostics);

}  // namespace ks::editor
