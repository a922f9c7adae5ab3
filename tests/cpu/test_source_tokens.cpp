// The Source panel's tokenizer on small lines whose tokens are written out by hand from the kinds'
// definitions.
#include <gtest/gtest.h>

#include "source/source_tokens.hpp"

namespace ks::source {
namespace {

using K = TokenKind;

std::vector<Token> one_line(std::string_view line) {
  return tokenize_lines({line}).at(0);
}

TEST(SourceTokens, SplitsLinesAtNewlinesAndDropsCarriageReturns) {
  EXPECT_EQ(split_lines("a\r\nbc\n\nd"), (std::vector<std::string_view>{"a", "bc", "", "d"}));
  EXPECT_EQ(split_lines("a\n"), (std::vector<std::string_view>{"a"}));
  EXPECT_TRUE(split_lines("").empty());
}

TEST(SourceTokens, CudaWordsKeywordsAndPlainIdentifiers) {
  // "__global__ void k(int n)": __global__ 0..10, ' ' plain, void 11..15, " k(" plain, int 18..21, " n)"
  // plain.
  EXPECT_EQ(one_line("__global__ void k(int n)"), (std::vector<Token>{{K::Cuda, 0, 10},
                                                                      {K::Plain, 10, 1},
                                                                      {K::Keyword, 11, 4},
                                                                      {K::Plain, 15, 3},
                                                                      {K::Keyword, 18, 3},
                                                                      {K::Plain, 21, 3}}));
  // threadIdx is CUDA's; "x" after the dot and an identifier that only contains a keyword ("format") are
  // plain.
  EXPECT_EQ(one_line("threadIdx.x+format"), (std::vector<Token>{{K::Cuda, 0, 9}, {K::Plain, 9, 9}}));
}

TEST(SourceTokens, NumbersWithExponentsHexAndSuffixes) {
  EXPECT_EQ(one_line("1.5e-3f"), (std::vector<Token>{{K::Number, 0, 7}}));
  EXPECT_EQ(one_line("0x1f-2"), (std::vector<Token>{{K::Number, 0, 4}, {K::Plain, 4, 1}, {K::Number, 5, 1}}));
  EXPECT_EQ(one_line("a1 .5"), (std::vector<Token>{{K::Plain, 0, 3}, {K::Number, 3, 2}}));
}

TEST(SourceTokens, StringsWithEscapedQuotesAndCharacters) {
  // "a\"b" is 6 characters; then ' ', then 'x' (3 characters).
  EXPECT_EQ(one_line(R"("a\"b" 'x')"),
            (std::vector<Token>{{K::String, 0, 6}, {K::Plain, 6, 1}, {K::String, 7, 3}}));
  EXPECT_EQ(one_line(R"("// not a comment")"), (std::vector<Token>{{K::String, 0, 18}}));
}

TEST(SourceTokens, CommentsIncludingBlockCommentsAcrossLines) {
  EXPECT_EQ(one_line("x; // for"), (std::vector<Token>{{K::Plain, 0, 3}, {K::Comment, 3, 6}}));
  const auto lines = tokenize_lines({"a /* one", "two */ b", "c"});
  EXPECT_EQ(lines[0], (std::vector<Token>{{K::Plain, 0, 2}, {K::Comment, 2, 6}}));
  EXPECT_EQ(lines[1], (std::vector<Token>{{K::Comment, 0, 6}, {K::Plain, 6, 2}}));
  EXPECT_EQ(lines[2], (std::vector<Token>{{K::Plain, 0, 1}}));
}

TEST(SourceTokens, PreprocessorLinesUpToAComment) {
  EXPECT_EQ(one_line("  #include \"a.h\"  // why"),
            (std::vector<Token>{{K::Plain, 0, 2}, {K::Preprocessor, 2, 16}, {K::Comment, 18, 6}}));
  EXPECT_EQ(one_line("#pragma unroll"), (std::vector<Token>{{K::Preprocessor, 0, 14}}));
}

}  // namespace
}  // namespace ks::source
