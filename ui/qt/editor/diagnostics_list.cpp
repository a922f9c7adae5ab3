#include "qt/editor/diagnostics_list.hpp"

#include <QHeaderView>

#include "qt/editor/editor_palette.hpp"

namespace ks::ui::qt {

DiagnosticsList::DiagnosticsList(QWidget* parent) : QTreeWidget(parent) {
  setColumnCount(3);
  setHeaderLabels({"", "line", "message"});
  setRootIsDecorated(false);
  setUniformRowHeights(true);
  setWordWrap(false);
  header()->setStretchLastSection(true);
  header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  connect(this, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
    const int row = indexOfTopLevelItem(item);
    if (row < 0 || row >= static_cast<int>(shown_.size())) return;
    const editor::EditorDiagnostic& d = shown_[static_cast<std::size_t>(row)];
    if (d.line > 0) emit go_to(d.line, d.column);
  });
}

void DiagnosticsList::show_diagnostics(const std::vector<editor::EditorDiagnostic>& diagnostics) {
  shown_ = diagnostics;
  clear();
  for (const editor::EditorDiagnostic& d : shown_) {
    auto* item = new QTreeWidgetItem(this);
    item->setText(0, usercode::to_string(d.severity));
    item->setForeground(0, severity_colour(d.severity));
    item->setText(1, d.line > 0 ? (d.column > 0 ? QString("%1:%2").arg(d.line).arg(d.column) : QString::number(d.line))
                                : QString("-"));
    item->setText(2, QString::fromStdString(d.message));
    item->setToolTip(2, QString::fromStdString(d.detail));
  }
}

}  // namespace ks::ui::qt
