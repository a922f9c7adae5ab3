#pragma once
// NVRTC's log turned into diagnostics at the user's own lines. The prelude is compiled before
// `#line 1 "FILE"`, so NVRTC already names the user's file and line; this module reads its log format:
//   FILE(LINE): error: MESSAGE            (or `warning #177-D:`, `note #3196-D:`)
//       source line                       the compiler's caret lines: the line, then `^` under the column
//       ^
//   At end of source: error: MESSAGE      followed by the note giving the `{` it could not match
#include <string>
#include <string_view>
#include <vector>

namespace ks::usercode {

enum class Severity { Error, Warning, Note };
const char* to_string(Severity s) noexcept;

struct Diagnostic {
  std::string file;  // as NVRTC names it: the user's file, or a prelude header
  int line = 0;      // 1-based; 0 when the message has no place (a command-line error)
  int column = 0;    // 1-based, from the caret; 0 when the log shows none
  Severity severity = Severity::Error;
  std::string code;     // "177-D" for numbered diagnostics, else empty
  std::string message;  // the first line of the message
  std::vector<std::string> details;      // further lines (candidates, "detected during instantiation ...")
  std::vector<std::string> caret_lines;  // the compiler's source line and caret, as printed
  // "At end of source": line is the file's last line, and related_* the brace it could not match.
  bool at_end_of_source = false;
  int related_line = 0;
  int related_column = 0;
  std::vector<std::string> related_caret_lines;
};

// `user_file` is the name given to `#line`; `user_line_count` the number of lines of the user's file (where an
// error at end of source is placed). Notes that only say which brace an end-of-source error could not match are
// folded into that error; NVRTC's summary lines ("3 errors detected ...", "Remark: ...") are dropped.
std::vector<Diagnostic> parse_nvrtc_log(std::string_view log, const std::string& user_file, int user_line_count);

// `FILE:LINE: error: MESSAGE` (the column shows in the caret lines), then the details and caret lines; an
// end-of-source error adds where the unmatched brace is.
std::string format_diagnostic(const Diagnostic& d);

int count_errors(const std::vector<Diagnostic>& diagnostics);

}  // namespace ks::usercode
