#pragma once
// What the compiler made of the entry (editor/compile_summary.hpp) under the kernel editor: registers, stack,
// spills, shared memory, the most threads a block may have, compile time and cache; and the theoretical
// occupancy at a block chosen here (spin boxes; the family's default block at first) with what limits it, on the
// GPU present or a device model.
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>

#include "editor/compile_summary.hpp"

class QFormLayout;
class QLabel;
class QSpinBox;

namespace ks::ui::qt {

class CompileFactsView : public QWidget {
 public:
  explicit CompileFactsView(QWidget* parent = nullptr);

  void set_device(const editor::OccupancyDevice& device);
  // A kernel that compiled (its facts and occupancy), or none: the text says why there are no facts.
  void show_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel, const QString& why_none);

  editor::BlockSize block() const;
  void set_block(editor::BlockSize block);
  QString fact(const QString& label) const;  // the value shown for a fact's label; empty when not shown
  QString occupancy() const;                  // the occupancy line as shown

 private:
  void update_occupancy();

  editor::OccupancyDevice device_;
  std::shared_ptr<const usercode::CompiledKernel> kernel_;
  std::optional<usercode::Family> family_;  // of the last kernel shown: a new family gets its default block
  bool family_known_ = false;
  QLabel* none_;
  QWidget* facts_box_;
  QFormLayout* facts_;
  QSpinBox* block_x_;
  QSpinBox* block_y_;
  QLabel* occupancy_;
  QLabel* device_note_;
};

}  // namespace ks::ui::qt
