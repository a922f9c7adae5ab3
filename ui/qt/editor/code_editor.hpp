#pragma once
// The kernel editor's text: a QPlainTextEdit with a line-number gutter, syntax colours (cuda_highlighter.hpp),
// the compile's errors and warnings as gutter markers, tinted lines and an underline at their column (the
// message shows when the pointer rests on the marker or the line), the brace an "at end of source" error could
// not match, and the find bar's matches. Undo and redo are QPlainTextEdit's own.
#include <QList>
#include <QPlainTextEdit>
#include <QTextCursor>
#include <optional>
#include <vector>

#include "editor/editor_diagnostics.hpp"

namespace ks::ui::qt {

class LineGutter;

class CodeEditor : public QPlainTextEdit {
  Q_OBJECT

 public:
  explicit CodeEditor(QWidget* parent = nullptr);

  // The messages of the last compile shown (replacing the previous ones).
  void set_diagnostics(std::vector<editor::EditorDiagnostic> diagnostics);
  const std::vector<editor::EditorDiagnostic>& diagnostics() const noexcept { return diagnostics_; }
  // The marker on a 1-based line: the most severe error or warning there; none for a line without (notes are
  // listed, not marked).
  std::optional<usercode::Severity> marker_at(int line) const;
  // The brace marked as never closed, if an error at the end of the source named one.
  std::optional<source::TextPosition> marked_brace() const;
  // The messages about a 1-based line, one paragraph each (empty: none): the tooltip of its marker and its text.
  QString tooltip_for_line(int line) const;

  // The find bar's matches, drawn in the match colour; the current one is the selection.
  void set_find_matches(QList<QTextCursor> matches);
  int find_match_count() const noexcept { return static_cast<int>(find_matches_.size()); }

  // Puts the cursor at a 1-based line and column (0: the line's start), shows it and takes the keyboard.
  void go_to(int line, int column);
  // 1-based line and column of the cursor.
  std::pair<int, int> cursor_line_column() const;

  // For the gutter (line_gutter.hpp).
  int gutter_width() const;
  void paint_gutter(const QPaintEvent& event);
  int line_at_y(int y) const;  // 1-based line at a height of the gutter or the text; 0 below the last

 signals:
  // Ctrl+S typed in the editor: the window's Ctrl+S (Export result image) must not take it from the text.
  void save_shortcut();

 protected:
  bool event(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool viewportEvent(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;  // a new font: the gutter's width and the tab stops follow

 private:
  void update_gutter_width();
  void update_gutter(const QRect& rect, int dy);
  void refresh_extra_selections();

  LineGutter* gutter_;
  std::vector<editor::EditorDiagnostic> diagnostics_;
  QList<QTextCursor> find_matches_;
};

}  // namespace ks::ui::qt
