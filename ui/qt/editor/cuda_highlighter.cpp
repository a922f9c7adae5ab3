#include "qt/editor/cuda_highlighter.hpp"

#include <QColor>
#include <QTextCharFormat>
#include <string>
#include <vector>

#include "source/source_tokens.hpp"
#include "source/token_colours.hpp"

namespace ks::ui::qt {

namespace {

constexpr int kInBlockComment = 1;  // block state: the line ends inside /* */

// The UTF-16 index of each UTF-8 byte offset of `utf8` (and of its end): the tokenizer counts bytes, Qt counts
// UTF-16 code units.
std::vector<int> utf16_indices(const std::string& utf8) {
  std::vector<int> index(utf8.size() + 1, 0);
  int unit = 0;
  std::size_t i = 0;
  while (i < utf8.size()) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    const std::size_t bytes = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    for (std::size_t k = 0; k < bytes && i + k < utf8.size(); ++k) index[i + k] = unit;
    unit += bytes == 4 ? 2 : 1;  // a code point beyond the BMP takes a surrogate pair
    i += bytes;
  }
  index[utf8.size()] = unit;
  return index;
}

}  // namespace

CudaHighlighter::CudaHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {}

void CudaHighlighter::highlightBlock(const QString& text) {
  bool in_comment = previousBlockState() == kInBlockComment;
  const std::string utf8 = text.toStdString();
  const std::vector<source::Token> tokens = source::tokenize_line(utf8, in_comment);
  const std::vector<int> at = utf16_indices(utf8);
  for (const source::Token& t : tokens) {
    const std::optional<source::TokenColour> c = source::token_colour(t.kind);
    if (!c) continue;  // plain text keeps the editor's own colour
    QTextCharFormat format;
    format.setForeground(QColor::fromRgbF(c->r, c->g, c->b));
    const int begin = at[t.begin];
    setFormat(begin, at[t.begin + t.length] - begin, format);
  }
  setCurrentBlockState(in_comment ? kInBlockComment : 0);
}

}  // namespace ks::ui::qt
