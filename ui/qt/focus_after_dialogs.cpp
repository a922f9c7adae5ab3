#include "qt/focus_after_dialogs.hpp"

#include <QApplication>
#include <QDialog>
#include <QEvent>
#include <QTimer>
#include <QWidget>

namespace ks::ui::qt {

FocusAfterDialogs::FocusAfterDialogs(QWidget& window, QWidget& target)
    : QObject(&window), window_(&window), target_(&target) {
  qApp->installEventFilter(this);
}

FocusAfterDialogs::~FocusAfterDialogs() { qApp->removeEventFilter(this); }

bool FocusAfterDialogs::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::Hide && qobject_cast<QDialog*>(watched) &&
      static_cast<QWidget*>(watched)->isWindow()) {
    // After the hide has been handled (the dialog's event loop ends first), and only when no other dialog is
    // still open over the window.
    QTimer::singleShot(0, this, [this] { give_back_focus(); });
  }
  return QObject::eventFilter(watched, event);
}

void FocusAfterDialogs::give_back_focus() {
  if (!window_ || !target_ || !window_->isVisible() || QApplication::activeModalWidget()) return;
  window_->activateWindow();
  target_->setFocus(Qt::ActiveWindowFocusReason);
}

}  // namespace ks::ui::qt
