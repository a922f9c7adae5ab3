#pragma once
// The parameters a kernel declares (`// @param NAME int|float [MIN, MAX] = DEFAULT  description`): a table of
// them, which the run's widgets will come from.
#include <QTreeWidget>

#include "usercode/declarations.hpp"

namespace ks::ui::qt {

class ParametersView : public QTreeWidget {
 public:
  explicit ParametersView(QWidget* parent = nullptr);
  void show_parameters(const std::vector<usercode::DeclaredParameter>& parameters);
};

}  // namespace ks::ui::qt
