// The corpus of broken kernels (tests/usercode/broken): each file's first line states, from reading its source,
// where the compiler must report it: `// expect-error LINE: FRAGMENT` (the first error is at LINE and says
// FRAGMENT) or `// expect-end-of-source LINE: brace B` (an error at the end of the source, placed on the last line,
// LINE, naming the brace at line B it could not match). One test compiles them all, two at a time (CI has 2 cores),
// since every test process pays NVRTC's start.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <future>
#include <regex>

#include "usercode/nvrtc_compile.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::usercode {
namespace {

namespace fs = std::filesystem;

struct Case {
  std::string name;
  std::string source;
  bool end_of_source = false;
  int line = 0;
  int brace_line = 0;
  std::string fragment;
};

std::vector<Case> load_corpus() {
  std::vector<Case> cases;
  static const std::regex error(R"(^// expect-error (\d+): (.+)$)");
  static const std::regex end(R"(^// expect-end-of-source (\d+): brace (\d+)$)");
  for (const auto& e : fs::directory_iterator(fs::path(KS_SOURCE_DIR) / "tests/usercode/broken")) {
    Case c;
    c.name = e.path().filename().string();
    c.source = read_kernel_source(e.path());
    const std::string first = c.source.substr(0, c.source.find('\n'));
    std::smatch m;
    if (std::regex_match(first, m, error)) {
      c.line = std::stoi(m[1]);
      c.fragment = m[2];
    } else if (std::regex_match(first, m, end)) {
      c.end_of_source = true;
      c.line = std::stoi(m[1]);
      c.brace_line = std::stoi(m[2]);
    } else {
      ADD_FAILURE() << c.name << " states no expectation on its first line";
      continue;
    }
    cases.push_back(std::move(c));
  }
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
  return cases;
}

std::shared_ptr<const CompiledModule> compile(const Case& c) {
  CompileRequest r;
  r.file_name = c.name;
  r.source = c.source;
  return compile_user_kernel(r).module;
}

TEST(UsercodeBrokenCorpus, EveryBrokenKernelIsReportedAtItsOwnLine) {
  if (!nvrtc_available()) GTEST_SKIP() << "this build has no NVRTC";
  const std::vector<Case> cases = load_corpus();
  ASSERT_GE(cases.size(), 40u);
  std::vector<std::shared_ptr<const CompiledModule>> modules(cases.size());
  auto half = [&](std::size_t first) {
    for (std::size_t i = first; i < cases.size(); i += 2) modules[i] = compile(cases[i]);
  };
  auto other = std::async(std::launch::async, half, 1);
  half(0);
  other.get();
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const CompiledModule& m = *modules[i];
    SCOPED_TRACE(c.name + "\n" + m.log);
    EXPECT_FALSE(m.ok);
    const auto first_error = std::find_if(m.diagnostics.begin(), m.diagnostics.end(),
                                          [](const Diagnostic& d) { return d.severity == Severity::Error; });
    ASSERT_NE(first_error, m.diagnostics.end());
    EXPECT_EQ(first_error->file, c.name);
    EXPECT_EQ(first_error->line, c.line);
    if (c.end_of_source) {
      EXPECT_TRUE(first_error->at_end_of_source);
      EXPECT_EQ(first_error->related_line, c.brace_line);
      EXPECT_EQ(count_lines(c.source), c.line);
    } else {
      EXPECT_NE(first_error->message.find(c.fragment), std::string::npos) << first_error->message;
      EXPECT_FALSE(first_error->caret_lines.empty());
      EXPECT_GT(first_error->column, 0);
    }
  }
}

}  // namespace
}  // namespace ks::usercode
