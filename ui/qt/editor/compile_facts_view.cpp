#include "qt/editor/compile_facts_view.hpp"

#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

namespace ks::ui::qt {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

CompileFactsView::CompileFactsView(QWidget* parent)
    : QWidget(parent),
      none_(new QLabel(this)),
      facts_box_(new QWidget(this)),
      facts_(new QFormLayout(facts_box_)),
      block_x_(new QSpinBox(this)),
      block_y_(new QSpinBox(this)),
      occupancy_(new QLabel(this)),
      device_note_(new QLabel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  none_->setWordWrap(true);
  layout->addWidget(none_);
  facts_->setContentsMargins(0, 0, 0, 0);
  facts_->setVerticalSpacing(1);
  layout->addWidget(facts_box_);
  auto* block_row = new QHBoxLayout;
  block_row->addWidget(new QLabel("Block", this));
  for (QSpinBox* s : {block_x_, block_y_}) {
    s->setRange(1, 1024);
    s->setToolTip("Threads of a block along x and y: the occupancy below is worked out for this block");
    connect(s, &QSpinBox::valueChanged, this, [this] { update_occupancy(); });
  }
  block_row->addWidget(block_x_);
  block_row->addWidget(new QLabel("x", this));
  block_row->addWidget(block_y_);
  block_row->addStretch(1);
  layout->addLayout(block_row);
  occupancy_->setWordWrap(true);
  occupancy_->setToolTip("Theoretical occupancy: the warps of the blocks that fit on one SM at once, over the "
                         "SM's maximum; limited by whichever runs out first: warps, registers, shared memory or "
                         "blocks per SM (as the Launch section shows for the built-in kernels)");
  layout->addWidget(occupancy_);
  device_note_->setEnabled(false);  // a quieter note
  layout->addWidget(device_note_);
  layout->addStretch(1);
  set_block({32, 8});
  show_kernel(nullptr, "Not compiled yet.");
}

void CompileFactsView::set_device(const editor::OccupancyDevice& device) {
  device_ = device;
  device_note_->setText(device.model ? q("on " + device.info.name + ": no GPU here, its published limits")
                                : q("on " + device.info.name));
  update_occupancy();
}

void CompileFactsView::show_kernel(std::shared_ptr<const usercode::CompiledKernel> kernel, const QString& why_none) {
  kernel_ = std::move(kernel);
  while (facts_->rowCount() > 0) facts_->removeRow(0);
  none_->setVisible(!kernel_);
  facts_box_->setVisible(kernel_ != nullptr);
  if (!kernel_) {
    none_->setText(why_none);
  } else {
    for (const editor::FactRow& row : editor::fact_rows(*kernel_)) {
      auto* value = new QLabel(q(row.value), facts_box_);
      value->setTextInteractionFlags(Qt::TextSelectableByMouse);
      value->setWordWrap(true);  // a long signature wraps rather than widening the editor
      value->setObjectName(q(row.label));
      facts_->addRow(q(row.label), value);
    }
    if (!family_known_ || kernel_->family != family_) set_block(editor::default_block(kernel_->family));
    family_ = kernel_->family;
    family_known_ = true;
  }
  update_occupancy();
}

editor::BlockSize CompileFactsView::block() const { return {block_x_->value(), block_y_->value()}; }

void CompileFactsView::set_block(editor::BlockSize block) {
  const QSignalBlocker bx(block_x_), by(block_y_);
  block_x_->setValue(block.x);
  block_y_->setValue(block.y);
  update_occupancy();
}

QString CompileFactsView::fact(const QString& label) const {
  if (!kernel_) return {};
  const auto* value = facts_box_->findChild<QLabel*>(label);
  return value ? value->text() : QString();
}

QString CompileFactsView::occupancy() const { return occupancy_->text(); }

void CompileFactsView::update_occupancy() {
  if (!kernel_) {
    occupancy_->setText("Occupancy: once the kernel compiles.");
    return;
  }
  const editor::EditorOccupancy o = editor::occupancy_at(device_.info, kernel_->entry_facts(), block());
  occupancy_->setText(o.limits ? q(editor::occupancy_text(*o.limits)) : q("No occupancy: " + o.problem));
}

}  // namespace ks::ui::qt
