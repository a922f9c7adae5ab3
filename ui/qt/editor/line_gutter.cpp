#include "qt/editor/line_gutter.hpp"

#include <QHelpEvent>
#include <QToolTip>

#include "qt/editor/code_editor.hpp"

namespace ks::ui::qt {

LineGutter::LineGutter(CodeEditor& editor) : QWidget(&editor), editor_(editor) { setMouseTracking(true); }

QSize LineGutter::sizeHint() const { return {editor_.gutter_width(), 0}; }

void LineGutter::paintEvent(QPaintEvent* event) { editor_.paint_gutter(*event); }

bool LineGutter::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString text = editor_.tooltip_for_line(editor_.line_at_y(help->pos().y()));
    if (text.isEmpty())
      QToolTip::hideText();
    else
      QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(event);
}

}  // namespace ks::ui::qt
