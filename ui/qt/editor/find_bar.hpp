#pragma once
// The kernel editor's find bar (Ctrl+F): a field, next and previous (Enter, Shift+Enter, F3, Shift+F3), every
// match highlighted in the text, the search wrapping at the end or the start, and where it stands ("2 of 5",
// "wrapped to the top", "no match"). Escape closes it. Case-insensitive, as a quick find is.
#include <QString>
#include <QWidget>

class QLabel;
class QLineEdit;

namespace ks::ui::qt {

class CodeEditor;

class FindBar : public QWidget {
  Q_OBJECT

 public:
  FindBar(CodeEditor& editor, QWidget* parent = nullptr);

  // Shows the bar with the selected text (if any) in the field, and gives it the keyboard.
  void open();
  void close_bar();
  void set_text(const QString& text);
  QString text() const;
  // Selects the next (previous) match after (before) the cursor, wrapping around; false when there is none.
  bool find_next();
  bool find_previous();
  QString status() const;

 private:
  bool find(bool backward);
  void update_matches();
  bool eventFilter(QObject* watched, QEvent* event) override;

  CodeEditor& editor_;
  QLineEdit* field_;
  QLabel* status_;
};

}  // namespace ks::ui::qt
