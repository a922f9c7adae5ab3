// The brace an "at end of source" error could not match (ui/source/brace_scan): the innermost `{` still open at
// the end, found by scanning the text, with braces in comments, strings, character literals and preprocessor
// lines left out.
#include <gtest/gtest.h>

#include "source/brace_scan.hpp"

namespace ks::source {
namespace {

TEST(SourceBraces, BalancedTextHasNoUnclosedBrace) {
  EXPECT_EQ(unclosed_brace(""), std::nullopt);
  EXPECT_EQ(unclosed_brace("void f() { if (a) { b(); } }\n"), std::nullopt);
  EXPECT_EQ(unclosed_brace("struct S { int a[2] = {1, 2}; };"), std::nullopt);
}

TEST(SourceBraces, FindsTheBraceLeftOpenAfterTheInnerOnesClosed) {
  // The `}` on line 6 closes the `if`'s brace (line 4): the function's (line 2, column 12) is the one left open.
  const char* text =
      "// a kernel\n"
      "void f() { \n"
      "  int x = 0;\n"
      "  if (x) {\n"
      "    x = 1;\n"
      "}\n";
  EXPECT_EQ(unclosed_brace(text), (TextPosition{2, 10}));
}

TEST(SourceBraces, TheInnermostOpenBraceIsTheOneTheCompilerWasClosing) {
  EXPECT_EQ(unclosed_brace("a {\n  b {\n    c {\n"), (TextPosition{3, 7}));
}

TEST(SourceBraces, BracesInCommentsStringsLiteralsAndDirectivesDoNotCount) {
  const char* text =
      "void f() {\n"                       // line 1: the real one, column 10
      "  // a comment with }\n"
      "  /* a block comment } that\n"
      "     goes on } over lines */\n"
      "  const char* s = \"}\";\n"
      "  char c = '}';\n"
      "#define CLOSE }\n"
      "  g();\n";
  EXPECT_EQ(unclosed_brace(text), (TextPosition{1, 10}));
  EXPECT_EQ(unclosed_brace("int a; // {\nconst char* s = \"{\"; char c = '{';\n#if X {\n"), std::nullopt);
}

TEST(SourceBraces, AStrayClosingBraceIsSkippedAndWindowsLineEndsCount) {
  EXPECT_EQ(unclosed_brace("}\r\nx {\r\n"), (TextPosition{2, 3}));
  EXPECT_EQ(unclosed_brace("{ } }"), std::nullopt);
}

TEST(SourceBraces, ColumnsCountBytesAfterMultiByteCharacters) {
  // "é" is two bytes of UTF-8: the brace after "// é\nx é {" is at byte column 6 of line 2.
  EXPECT_EQ(unclosed_brace("// \xc3\xa9\nx \xc3\xa9 {"), (TextPosition{2, 6}));
}

}  // namespace
}  // namespace ks::source
