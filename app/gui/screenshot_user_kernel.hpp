#pragma once
// `kernelscope --screenshot OUT.png --kernel-file FILE.cu [--kernel-param NAME=VALUE]... [--compare KERNEL[:VARIANT]]
// [--show-difference]`: a kernel of the user's in the frame, as the kernel editor's Run puts it there. Compiled
// through NVRTC for the GPU present (sm_90 without one, as the editor does), put in place by its `// @family` as the
// playlist's `kernel_file` step does (a stencil on the image, an array kernel in the Lab, a step kernel in the
// simulation), run in the worker process (`kernelscope-cli worker`, found beside the program as the app finds it)
// and checked against the reference the app would check it against, before the frame is drawn.
#include <string>

#include "session/user_kernel_choice.hpp"
#include "usercode/family.hpp"

namespace ks::app {

class Session;
struct ScreenshotRequest;

// The options of a user's kernel that need no file and no device: a usage Error for --kernel-param, --compare or
// --show-difference without --kernel-file, for --kernel-file with --backend cpu (the kernel runs on the GPU), and
// for a --compare whose kernel or variant contradicts --kernel or --variant.
void check_user_kernel_options(const ScreenshotRequest& r);

// --kernel-file compiled, with its declared parameters set, and the built-in the session chooses for it.
struct ScreenshotUserKernel {
  UserKernelChoice choice;
  usercode::Family family = usercode::Family::Stencil;
  // The built-in kernel chosen in the sidebar before the user's kernel takes its place (--compare's kernel, else
  // --kernel; empty: the app's default), and the variant the Kernel section shows (stencils and simulations; empty:
  // --variant's). An array kernel's --compare VARIANT is the Lab's "check against" instead.
  std::string kernel;
  std::string variant;
  std::string lab_reference;
};

// Reads and compiles --kernel-file for the session's GPU. Usage Errors (exit 2): a file that is not a kernel's
// text, a kernel that does not compile (the compiler's errors at the file's own lines in the message), one without
// a family, a --kernel-param it does not declare or outside its range.
ScreenshotUserKernel compile_screenshot_kernel(const Session& session, const ScreenshotRequest& r);

// Puts the kernel in place of the built-in chosen now, runs it, and waits until its run and its check against the
// reference are applied (with the |difference| heatmap shown for --show-difference). The error the app would show
// when it cannot run (no GPU: "cannot run your kernel: ..."; a fault; a time-out), or a usage Error for a
// reference it does not fit.
void run_screenshot_kernel(Session& session, const ScreenshotRequest& r, const ScreenshotUserKernel& user);

}  // namespace ks::app
