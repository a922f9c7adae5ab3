#include "qt/editor/parameters_view.hpp"

#include <QHeaderView>

namespace ks::ui::qt {

namespace {

QString number(const usercode::DeclaredParameter& p, double v) {
  return p.type == usercode::ParamType::Int ? QString::number(static_cast<long long>(v)) : QString::number(v, 'g', 6);
}

}  // namespace

ParametersView::ParametersView(QWidget* parent) : QTreeWidget(parent) {
  setColumnCount(5);
  setHeaderLabels({"name", "type", "range", "default", "description"});
  setRootIsDecorated(false);
  header()->setStretchLastSection(true);
  for (int c = 0; c < 4; ++c) header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
}

void ParametersView::show_parameters(const std::vector<usercode::DeclaredParameter>& parameters) {
  clear();
  for (const usercode::DeclaredParameter& p : parameters) {
    auto* item = new QTreeWidgetItem(this);
    item->setText(0, QString::fromStdString(p.name));
    item->setText(1, usercode::to_string(p.type));
    item->setText(2, QString("[%1, %2]").arg(number(p, p.min), number(p, p.max)));
    item->setText(3, number(p, p.value));
    item->setText(4, QString::fromStdString(p.description));
    item->setToolTip(0, QString("declared at line %1").arg(p.line));
  }
}

}  // namespace ks::ui::qt
