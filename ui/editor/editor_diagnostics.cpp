#include "editor/editor_diagnostics.hpp"

#include <algorithm>
#include <charconv>

namespace ks::editor {

namespace {

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

std::vector<EditorDiagnostic> diagnostics_of(const usercode::CompiledModule& module, std::string_view source) {
  std::vector<EditorDiagnostic> out;
  for (const usercode::Diagnostic& d : module.diagnostics) {
    EditorDiagnostic e;
    e.severity = d.severity;
    e.detail = usercode::format_diagnostic(d);
    const bool users_file = d.file.empty() || d.file == module.file_name;
    if (users_file) {
      e.line = d.line;
      e.column = d.column;
      e.message = d.message;
    } else {  // a header the app provides: say where, without a line of the user's text to mark
      e.message = d.file + ":" + std::to_string(d.line) + ": " + d.message;
    }
    if (d.at_end_of_source) {
      e.unclosed_brace = source::unclosed_brace(source);
      if (!e.unclosed_brace && d.related_line > 0)
        e.unclosed_brace = source::TextPosition{d.related_line, d.related_column};
      if (e.unclosed_brace)
        e.message += " at the end of the source: the { at line " + std::to_string(e.unclosed_brace->line) +
                     ", column " + std::to_string(e.unclosed_brace->column) + " is never closed";
    }
    out.push_back(std::move(e));
  }
  return out;
}

EditorDiagnostic diagnostic_of_error(const Error& error, const std::string& file_name) {
  EditorDiagnostic e;
  e.detail = error.full_message();
  std::string message = first_line(error.what());
  // "FILE:LINE: what is wrong" (declarations): the line is the user's.
  const std::string prefix = file_name + ":";
  if (message.starts_with(prefix)) {
    const char* begin = message.data() + prefix.size();
    const char* end = message.data() + message.size();
    int line = 0;
    const auto [after, ec] = std::from_chars(begin, end, line);
    if (ec == std::errc() && line > 0 && after + 1 < end && after[0] == ':' && after[1] == ' ') {
      e.line = line;
      message = std::string(after + 2, end);
    }
  }
  e.message = message;
  return e;
}

int count_errors(const std::vector<EditorDiagnostic>& diagnostics) {
  return static_cast<int>(std::count_if(diagnostics.begin(), diagnostics.end(), [](const EditorDiagnostic& d) {
    return d.severity == usercode::Severity::Error;
  }));
}

}  // namespace ks::editor
