#pragma once
// Syntax colours for the kernel editor: the Source panel's tokenizer (source/source_tokens.hpp) and its colours
// (source/token_colours.hpp), one line at a time; a block state carries a /* comment */ over to the next line.
#include <QSyntaxHighlighter>

namespace ks::ui::qt {

class CudaHighlighter : public QSyntaxHighlighter {
 public:
  explicit CudaHighlighter(QTextDocument* document);

 protected:
  void highlightBlock(const QString& text) override;
};

}  // namespace ks::ui::qt
