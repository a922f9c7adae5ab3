#include "gui/script_inspect.hpp"

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QMouseEvent>
#include <QStatusBar>
#include <QTextDocument>
#include <QUrl>
#include <functional>

#include "core/error.hpp"
#include "qt/eliding_status_bar.hpp"
#include "qt/main_window.hpp"
#include "qt/viewport_widget.hpp"
#include "render/view_math.hpp"
#include "report/colormap.hpp"
#include "session/display_frame.hpp"
#include "session/session.hpp"

namespace ks::gui {

namespace {

QString plain(QString text) { return text.remove('&'); }

// Calls `visit(path, action)` for every action of the menu bar, depth first, submenus included.
void walk_menus(const QWidget* menu_or_bar, const QString& prefix,
                const std::function<void(const QString&, QAction*)>& visit) {
  for (QAction* a : menu_or_bar->actions()) {
    if (a->isSeparator()) continue;
    const QString path = prefix.isEmpty() ? plain(a->text()) : prefix + "/" + plain(a->text());
    if (QMenu* sub = a->menu()) {
      // The recent-files menu fills itself when it is about to show.
      emit sub->aboutToShow();
      walk_menus(sub, path, visit);
    } else {
      visit(path, a);
    }
  }
}

}  // namespace

QStringList menu_entries(const ui::qt::MainWindow& window) {
  QStringList out;
  walk_menus(window.menuBar(), {}, [&](const QString& path, QAction* a) {
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::PortableText);
    out << (keys.isEmpty() ? path : path + " [" + keys.join(", ") + "]");
  });
  return out;
}

void trigger_menu_entry(ui::qt::MainWindow& window, const QString& wanted) {
  QAction* found = nullptr;
  walk_menus(window.menuBar(), {}, [&](const QString& path, QAction* a) {
    if (!found && path == wanted) found = a;
  });
  if (!found)
    throw_usage("no menu entry '" + wanted.toStdString() + "'",
                "print-menus lists them: " + menu_entries(window).join("; ").toStdString());
  if (!found->isEnabled()) throw_usage("the menu entry '" + wanted.toStdString() + "' is disabled");
  found->trigger();
}

void drop_file(ui::qt::MainWindow& window, const QString& path) {
  QMimeData data;
  data.setUrls({QUrl::fromLocalFile(path)});
  const QPoint at = window.rect().center();
  QDragEnterEvent enter(at, Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &enter);
  if (!enter.isAccepted()) throw_usage("the window refused the drag of '" + path.toStdString() + "'");
  QDropEvent drop(QPointF(at), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &drop);
  if (!drop.isAccepted()) throw_usage("the window did not take the drop of '" + path.toStdString() + "'");
}

void mouse_on_viewport(ui::qt::MainWindow& window, QEvent::Type type, const QPointF& at, bool left_held) {
  QWidget& target = window.viewport();
  const Qt::MouseButton button = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
  QMouseEvent e(type, at, at, target.mapToGlobal(at), button, left_held ? Qt::LeftButton : Qt::NoButton,
                Qt::NoModifier);
  QApplication::sendEvent(&target, &e);
}

void click_viewport(ui::qt::MainWindow& window, const QPointF& at) {
  QWidget& target = window.viewport();
  const QPointF global = target.mapToGlobal(at);
  QMouseEvent move(QEvent::MouseMove, at, at, global, Qt::NoButton, Qt::NoButton, Qt::NoModifier);
  QMouseEvent press(QEvent::MouseButtonPress, at, at, global, Qt::LeftButton, Qt::LeftButton, Qt::NoModifier);
  QMouseEvent release(QEvent::MouseButtonRelease, at, at, global, Qt::LeftButton, Qt::NoButton, Qt::NoModifier);
  for (QMouseEvent* e : {&move, &press, &release}) QApplication::sendEvent(&target, e);
}

QString status_line(ui::qt::MainWindow& window, const app::Session& session) {
  const ui::ViewState& v = window.viewport().view();
  const auto& r = session.last_report();
  QString line = QString("status input=%1 kernel=%2 backend=%3 runs=%4 panels=%5 split=%6 zoom=%7 colormap=%8")
                     .arg(QString::fromStdString(session.has_input() ? session.input_name() : "none"))
                     .arg(QString::fromStdString(session.kernel().id))
                     .arg(QString::fromStdString(to_string(session.backend())))
                     .arg(session.runs_applied())
                     .arg(window.panels().visible ? "on" : "off")
                     .arg(v.split ? "on" : "off")
                     .arg(double(v.zoom), 0, 'g', 4)
                     .arg(QString::fromStdString(std::string(ui::colormap_name(v.colormap))));
  line += QString(" launch_grid=") + (v.show_launch_grid ? "on" : "off");
  line += QString(" topology=") + (window.panels().topology.open ? "on" : "off");
  line += QString(" why_section=") + (window.panels().why_open ? "open" : "closed");
  const auto& probe = window.panels().probe;  // the pixel the inspector shows
  line += probe && probe->inside ? QString(" probe=%1,%2").arg(probe->x).arg(probe->y) : QString(" probe=none");
  auto rect = [](const std::array<float, 4>& r) {
    return QString("%1,%2,%3,%4").arg(double(r[0]), 0, 'f', 0).arg(double(r[1]), 0, 'f', 0)
        .arg(double(r[2]), 0, 'f', 0).arg(double(r[3]), 0, 'f', 0);
  };
  line += " inspector=" + rect(window.panels().inspector_rect) + " caption=" + rect(window.panels().caption_rect) +
          " playlist_list=" + rect(window.panels().playlist_list_rect) +
          " lab_view=" + rect(window.panels().lab_view_rect) +
          QString(" lab_view_points=%1").arg(window.panels().lab_view_points);
  // The boxes over the top of the image: the split's labels and the launch overlay's header.
  const ui::SplitLabelBoxes& labels = window.viewport().split_labels();
  line += " split_labels=" + rect(labels.input) + ";" + rect(labels.output) +
          " launch_header=" + rect(window.panels().launch_header_rect) +
          " launch_hover=" + rect(window.panels().launch_hover_rect);
  // The free area's right edge (where the sidebar starts, or the viewport's edge), and the Topology window's
  // place and how far it scrolls sideways (0: its contents fit), in logical pixels.
  const float viewport_width = float(window.viewport().width());
  line += QString(" viewport=%1x%2").arg(window.viewport().width()).arg(window.viewport().height());
  line += QString(" sidebar_x=%1").arg(double(viewport_width - ui::panels_width(window.panels(), viewport_width)), 0, 'f', 0);
  if (const ui::TopologyPanelState& t = window.panels().topology; t.open)
    line += QString(" topology_window=%1,%2,%3,%4 topology_scroll_x=%5")
                .arg(double(t.x), 0, 'f', 0)
                .arg(double(t.y), 0, 'f', 0)
                .arg(double(t.x + t.width), 0, 'f', 0)
                .arg(double(t.y + t.height), 0, 'f', 0)
                .arg(double(t.scroll_max_x), 0, 'f', 0);
  // Where the legend stands and where the image is, in the viewport's logical pixels.
  const ui::LegendPlacement& legend = window.viewport().legend();
  line += legend.drawn ? QString(" legend=%1,%2").arg(double(legend.shown.x)).arg(double(legend.shown.y))
                       : QString(" legend=none");
  const ui::DisplayFrame frame = session.display_frame();
  const ImageShape shape = frame.output ? frame.output->shape() : frame.input ? frame.input->shape()
                                                                               : frame.output_device.shape;
  const qreal ratio = window.viewport().devicePixelRatioF();
  const ui::Size2 fb{int(window.viewport().width() * ratio + 0.5), int(window.viewport().height() * ratio + 0.5)};
  const ui::Vec2 top_left = ui::image_to_screen(v, fb, {0, 0});
  const ui::Vec2 bottom_right = ui::image_to_screen(v, fb, {double(shape.width), double(shape.height)});
  line += QString(" image=%1,%2,%3,%4")
              .arg(top_left.x / ratio, 0, 'f', 0)
              .arg(top_left.y / ratio, 0, 'f', 0)
              .arg(bottom_right.x / ratio, 0, 'f', 0)
              .arg(bottom_right.y / ratio, 0, 'f', 0);
  line += " title=" + window.windowTitle().replace(' ', '_');
  if (r) line += QString::fromStdString(" last=" + r->kernel + "/" + r->variant);
  const ui::Appearance& a = window.viewport().appearance();
  line += " status_zoom=" + window.zoom_status().replace(' ', '_');
  line += QString(" text=%1 contrast=%2 fullscreen=%3 font=%4")
              .arg(double(a.font_size))
              .arg(a.high_contrast ? "on" : "off")
              .arg(window.isFullScreen() ? "on" : "off")
              .arg(QString::fromStdString(window.viewport().panel_font_name()).replace(' ', '_'));
  // Who has the keyboard: the viewport, where the window's shortcuts work, another widget, or none at all (the
  // window is not active).
  const QWidget* focus = QApplication::focusWidget();
  line += QString(" focus=") + (focus == &window.viewport() ? "viewport" : focus ? "other" : "none");
  // Last: the status bar's message as drawn (elided where it meets the fields at the right) and whole, which
  // may hold anything (spaces as '_').
  if (const auto* bar = dynamic_cast<const ui::qt::ElidingStatusBar*>(window.statusBar()))
    line += " message_shown=" + bar->shown_message().replace(' ', '_');
  line += " message=" + window.statusBar()->currentMessage().replace(' ', '_');
  return line;
}

QString about_plain_text(const ui::qt::MainWindow& window) {
  QTextDocument doc;
  doc.setHtml(window.about_text());
  return doc.toPlainText().simplified();
}

ui::Colormap colormap_from_name(const std::string& name) {
  return value_named(report::kColormapNames, name, "colormap");
}

}  // namespace ks::gui
