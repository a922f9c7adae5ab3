#pragma once
// The strip left of the kernel editor's text: line numbers and the error and warning markers. It only forwards:
// the editor knows the lines, their positions and their messages (code_editor.hpp).
#include <QWidget>

namespace ks::ui::qt {

class CodeEditor;

class LineGutter : public QWidget {
 public:
  explicit LineGutter(CodeEditor& editor);
  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;  // the marker's message as a tooltip

 private:
  CodeEditor& editor_;
};

}  // namespace ks::ui::qt
