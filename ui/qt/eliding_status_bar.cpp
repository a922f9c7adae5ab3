#include "qt/eliding_status_bar.hpp"

#include <QPainter>
#include <QStyleOption>

#include <algorithm>

namespace ks::ui::qt {

ElidingStatusBar::ElidingStatusBar(QWidget* parent) : QStatusBar(parent) {
  connect(this, &QStatusBar::messageChanged, this, [this](const QString& m) { setToolTip(m); });
}

QRect ElidingStatusBar::message_rect() const {
  // As QStatusBar lays it out: from 6 px to 2 px before the leftmost visible permanent widget (or 12 px before
  // the right edge when there is none).
  int right = width() - 12;
  for (const QWidget* w : findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly))
    if (w->isVisible() && w->x() > 0) right = std::min(right, w->x() - 2);
  return QRect(6, 0, std::max(0, right - 6), height());
}

QString ElidingStatusBar::shown_message() const {
  return fontMetrics().elidedText(currentMessage(), Qt::ElideRight, message_rect().width());
}

void ElidingStatusBar::paintEvent(QPaintEvent* event) {
  QStatusBar::paintEvent(event);
  const QString shown = shown_message();
  if (shown == currentMessage()) return;
  // QStatusBar cut the message at the fields: paint its area again with the elided text.
  QPainter p(this);
  const QRect r = message_rect();
  p.setClipRect(r);
  QStyleOption opt;
  opt.initFrom(this);
  style()->drawPrimitive(QStyle::PE_PanelStatusBar, &opt, &p, this);
  p.setPen(palette().windowText().color());
  p.drawText(r, Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine, shown);
}

}  // namespace ks::ui::qt
