#include "qt/editor/code_editor.hpp"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>
#include <algorithm>

#include "qt/editor/editor_palette.hpp"
#include "qt/editor/line_gutter.hpp"

namespace ks::ui::qt {

namespace {

constexpr int kMarkerWidth = 14;  // the gutter's marker column, left of the numbers
constexpr int kGutterPadding = 6;

int rank(usercode::Severity s) { return s == usercode::Severity::Error ? 2 : s == usercode::Severity::Warning ? 1 : 0; }

// A cursor over the word at a 1-based column of `block` (one character where there is no word): what an
// underline marks.
QTextCursor word_at(const QTextBlock& block, int column) {
  QTextCursor c(block);
  const int length = block.length() - 1;
  if (length <= 0) return c;
  const int at = std::clamp(column - 1, 0, length - 1);
  c.setPosition(block.position() + at);
  c.select(QTextCursor::WordUnderCursor);
  if (!c.hasSelection()) {
    c.setPosition(block.position() + at);
    c.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor);
  }
  return c;
}

}  // namespace

CodeEditor::CodeEditor(QWidget* parent) : QPlainTextEdit(parent), gutter_(new LineGutter(*this)) {
  QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  font.setPointSize(std::max(font.pointSize(), 11));
  setFont(font);  // changeEvent sets the tab stops and the gutter from it
  setPalette(editor_palette(palette()));
  setLineWrapMode(QPlainTextEdit::NoWrap);
  connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { update_gutter_width(); });
  connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::update_gutter);
  connect(this, &QPlainTextEdit::cursorPositionChanged, this, [this] { refresh_extra_selections(); });
  update_gutter_width();
  refresh_extra_selections();
}

void CodeEditor::set_diagnostics(std::vector<editor::EditorDiagnostic> diagnostics) {
  diagnostics_ = std::move(diagnostics);
  refresh_extra_selections();
  gutter_->update();
}

std::optional<usercode::Severity> CodeEditor::marker_at(int line) const {
  std::optional<usercode::Severity> worst;
  for (const auto& d : diagnostics_)
    if (d.line == line && d.severity != usercode::Severity::Note && (!worst || rank(d.severity) > rank(*worst)))
      worst = d.severity;
  return worst;
}

std::optional<source::TextPosition> CodeEditor::marked_brace() const {
  for (const auto& d : diagnostics_)
    if (d.unclosed_brace) return d.unclosed_brace;
  return std::nullopt;
}

QString CodeEditor::tooltip_for_line(int line) const {
  QStringList parts;
  for (const auto& d : diagnostics_) {
    if (d.line == line) parts << QString::fromStdString(d.detail);
    if (d.unclosed_brace && d.unclosed_brace->line == line && d.line != line)
      parts << QString("This { is never closed: %1").arg(QString::fromStdString(d.message));
  }
  return parts.join("\n\n");
}

void CodeEditor::set_find_matches(QList<QTextCursor> matches) {
  find_matches_ = std::move(matches);
  refresh_extra_selections();
}

void CodeEditor::go_to(int line, int column) {
  const QTextBlock block = document()->findBlockByNumber(std::max(line, 1) - 1);
  if (!block.isValid()) return;
  QTextCursor c(block);
  c.setPosition(block.position() + std::clamp(column - 1, 0, std::max(block.length() - 1, 0)));
  setTextCursor(c);
  centerCursor();
  setFocus(Qt::OtherFocusReason);
}

std::pair<int, int> CodeEditor::cursor_line_column() const {
  const QTextCursor c = textCursor();
  return {c.blockNumber() + 1, c.positionInBlock() + 1};
}

int CodeEditor::gutter_width() const {
  const int digits = static_cast<int>(QString::number(std::max(1, blockCount())).size());
  return kMarkerWidth + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(digits, 3) + kGutterPadding;
}

void CodeEditor::update_gutter_width() { setViewportMargins(gutter_width(), 0, 0, 0); }

void CodeEditor::update_gutter(const QRect& rect, int dy) {
  if (dy)
    gutter_->scroll(0, dy);
  else
    gutter_->update(0, rect.y(), gutter_->width(), rect.height());
  if (rect.contains(viewport()->rect())) update_gutter_width();
}

void CodeEditor::resizeEvent(QResizeEvent* event) {
  QPlainTextEdit::resizeEvent(event);
  const QRect r = contentsRect();
  gutter_->setGeometry(QRect(r.left(), r.top(), gutter_width(), r.height()));
}

void CodeEditor::changeEvent(QEvent* event) {
  QPlainTextEdit::changeEvent(event);
  if (event->type() != QEvent::FontChange) return;
  setTabStopDistance(fontMetrics().horizontalAdvance(' ') * 4);
  update_gutter_width();
  const QRect r = contentsRect();
  gutter_->setGeometry(QRect(r.left(), r.top(), gutter_width(), r.height()));
}

void CodeEditor::paint_gutter(const QPaintEvent& event) {
  QPainter p(gutter_);
  p.fillRect(event.rect(), gutter_background());
  p.setRenderHint(QPainter::Antialiasing);
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  const int line_height = fontMetrics().height();
  const int current = textCursor().blockNumber();
  while (block.isValid() && top <= event.rect().bottom()) {
    const int bottom = top + qRound(blockBoundingRect(block).height());
    if (block.isVisible() && bottom >= event.rect().top()) {
      const int line = block.blockNumber() + 1;
      if (const std::optional<usercode::Severity> s = marker_at(line)) {
        const int d = std::min(kMarkerWidth - 4, line_height - 4);
        p.setPen(Qt::NoPen);
        p.setBrush(severity_colour(*s));
        p.drawEllipse(QRectF(3, top + (line_height - d) / 2.0, d, d));
      }
      p.setPen(block.blockNumber() == current ? editor_text() : gutter_numbers());
      p.drawText(0, top, gutter_->width() - kGutterPadding / 2, line_height, Qt::AlignRight | Qt::AlignVCenter,
                 QString::number(line));
    }
    block = block.next();
    top = bottom;
  }
}

int CodeEditor::line_at_y(int y) const {
  QTextBlock block = firstVisibleBlock();
  int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
  while (block.isValid()) {
    const int bottom = top + qRound(blockBoundingRect(block).height());
    if (y >= top && y < bottom) return block.blockNumber() + 1;
    block = block.next();
    top = bottom;
  }
  return 0;
}

void CodeEditor::refresh_extra_selections() {
  QList<QTextEdit::ExtraSelection> selections;
  QTextEdit::ExtraSelection current;
  current.format.setBackground(current_line_background());
  current.format.setProperty(QTextFormat::FullWidthSelection, true);
  current.cursor = textCursor();
  current.cursor.clearSelection();
  selections << current;
  for (const auto& d : diagnostics_) {
    if (d.line <= 0 || d.severity == usercode::Severity::Note) continue;
    const QTextBlock block = document()->findBlockByNumber(d.line - 1);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection tint;
    tint.format.setBackground(severity_line_tint(d.severity));
    tint.format.setProperty(QTextFormat::FullWidthSelection, true);
    tint.cursor = QTextCursor(block);
    selections << tint;
    if (d.column > 0) {
      QTextEdit::ExtraSelection underline;
      underline.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
      underline.format.setUnderlineColor(severity_colour(d.severity));
      underline.cursor = word_at(block, d.column);
      selections << underline;
    }
  }
  if (const std::optional<source::TextPosition> brace = marked_brace()) {
    const QTextBlock block = document()->findBlockByNumber(brace->line - 1);
    if (block.isValid() && brace->column >= 1 && brace->column < block.length()) {
      QTextEdit::ExtraSelection mark;
      mark.format.setBackground(unclosed_brace_background());
      mark.format.setForeground(QColor(255, 255, 255));
      mark.cursor = QTextCursor(block);
      mark.cursor.setPosition(block.position() + brace->column - 1);
      mark.cursor.movePosition(QTextCursor::Right, QTextCursor::KeepAnchor);
      selections << mark;
    }
  }
  for (const QTextCursor& m : find_matches_) {
    QTextEdit::ExtraSelection match;
    match.format.setBackground(find_match_background());
    match.cursor = m;
    selections << match;
  }
  setExtraSelections(selections);
}

bool CodeEditor::event(QEvent* event) {
  // The window's shortcuts come before a widget's keys; Ctrl+S is the window's Export result, which the editor
  // takes while it has the keyboard (keyPressEvent turns it into save_shortcut).
  if (event->type() == QEvent::ShortcutOverride) {
    if (static_cast<QKeyEvent*>(event)->matches(QKeySequence::Save)) {
      event->accept();
      return true;
    }
  }
  return QPlainTextEdit::event(event);
}

void CodeEditor::keyPressEvent(QKeyEvent* event) {
  if (event->matches(QKeySequence::Save)) {
    emit save_shortcut();
    return;
  }
  QPlainTextEdit::keyPressEvent(event);
}

bool CodeEditor::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = tooltip_for_line(line_at_y(help->pos().y()));
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, viewport());
    return true;
  }
  return QPlainTextEdit::viewportEvent(event);
}

}  // namespace ks::ui::qt
