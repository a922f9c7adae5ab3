#pragma once
// A status bar whose messages end in "…" where they meet the fields at the right (device, backend, last run,
// zoom, frame rate) instead of being cut mid-word against them; the whole message is its tooltip.
#include <QStatusBar>

namespace ks::ui::qt {

class ElidingStatusBar : public QStatusBar {
 public:
  explicit ElidingStatusBar(QWidget* parent = nullptr);
  // The message as drawn: elided to the room left of the fields (scripts and tests read it).
  QString shown_message() const;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QRect message_rect() const;  // where QStatusBar draws its message
};

}  // namespace ks::ui::qt
