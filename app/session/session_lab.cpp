// The session's side of the basics lab: while a kernel of category `lab` is selected, parameters, backend,
// variant and block go to the LabDocument's request (session.cpp forwards them), its runs and sweeps use the
// session's engine and worker, and the viewport shows the image a run made (kmeans' quantised image beside
// the loaded one; nothing for the kernels that make none). The document does the work; these are the seams.
#include "session/lab/lab_document.hpp"
#include "session/session.hpp"

namespace ks::app {

LabDocument& Session::lab() noexcept {
  return *lab_;
}
const LabDocument& Session::lab() const noexcept {
  return *lab_;
}

void Session::make_lab_document() {
  LabDocument::Options o;
  o.warmup = options_.warmup;
  o.repeat = options_.repeat;
  o.sweep_repeat = options_.sweep_repeat;
  o.cuda = device_.cuda;
  o.cuda_unavailable = device_.unavailable_reason;
  LabDocument::Hooks hooks;
  // Lab images, stencil results and simulation frames share the output generation, so the renderer never
  // mistakes one for another.
  hooks.next_frame_generation = [this] { return ++generations_.output; };
  hooks.notify = [this](bool error, std::string text) {
    notify(error ? Notice::Level::Error : Notice::Level::Info, Notice::Source::Run, std::move(text));
  };
  lab_ = std::make_unique<LabDocument>(*engine_, *worker_, o, std::move(hooks));
  lab_->set_counter_set(counter_set_);
}

void Session::enter_lab() {
  stencil_->drop_result();
  choice_.block.reset();
  lab_->set_image(stencil_->file_image());
  lab_->select(*choice_.kernel, choice_.backend);
  lab_->set_counters(stencil_->counters());
  if (!choice_.variant.empty()) {  // kept from the previous kernel only where this one has it (select_kernel)
    try {
      lab_->set_variant(choice_.variant);
    } catch (const Error&) {
      choice_.variant.clear();
    }
  }
}

ui::DisplayFrame Session::lab_frame() const {
  ui::DisplayFrame f;
  // Kernels of arrays have no picture: the viewport stays empty. Image kernels show the loaded image and,
  // once run, their result (split and inspector as for stencils).
  if (lab_->takes_image()) f.input = stencil_->input();
  f.output = lab_->result_image();
  f.input_generation = generations_.input;
  f.output_generation = lab_->result_generation();
  return f;
}

void Session::run_lab_now() {
  const std::uint64_t before = lab_->last_run() ? lab_->last_run()->number : 0;
  lab_->run();
  wait_idle();
  const bool ran = lab_->last_run() && lab_->last_run()->number != before;
  if (!ran && lab_->last_error()) throw *lab_->last_error();
}

}  // namespace ks::app
