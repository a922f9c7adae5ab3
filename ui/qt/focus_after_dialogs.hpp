#pragma once
// Gives the keyboard back to the viewport when a dialog closes. Without a window manager (Xvfb, a kiosk) nobody
// activates the main window again after a modal dialog is hidden, so its shortcuts (Ctrl+O, T) did nothing until
// the window was clicked; with one, the manager usually does it, and this does no harm. Installed on the
// application, it sees every dialog: the file dialogs of the menus and panels, message boxes, the About box.
#include <QObject>
#include <QPointer>

class QWidget;

namespace ks::ui::qt {

class FocusAfterDialogs : public QObject {
 public:
  // `window` is activated and `target` takes the focus after a dialog closes (both outlive this object or are
  // tracked: QPointer).
  FocusAfterDialogs(QWidget& window, QWidget& target);
  ~FocusAfterDialogs() override;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void give_back_focus();

  QPointer<QWidget> window_;
  QPointer<QWidget> target_;
};

}  // namespace ks::ui::qt
