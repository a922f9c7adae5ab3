#pragma once
// The list under the kernel editor: every message of the last compile (severity, line, message); clicking one
// moves the editor's cursor to its line and column.
#include <QTreeWidget>
#include <vector>

#include "editor/editor_diagnostics.hpp"

namespace ks::ui::qt {

class DiagnosticsList : public QTreeWidget {
  Q_OBJECT

 public:
  explicit DiagnosticsList(QWidget* parent = nullptr);
  void show_diagnostics(const std::vector<editor::EditorDiagnostic>& diagnostics);

 signals:
  void go_to(int line, int column);  // 1-based; only for messages at a line

 private:
  std::vector<editor::EditorDiagnostic> shown_;
};

}  // namespace ks::ui::qt
