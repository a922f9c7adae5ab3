#pragma once
// What the Session shares with the documents it owns (session.hpp): the kernel chosen, the notices they leave
// for the window, the device they run on, and the generation counters of what is on screen.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "core/device_info.hpp"
#include "core/launch_shape.hpp"
#include "registry/kernel_spec.hpp"
#include "registry/params.hpp"

namespace ks::app {

// The kernel chosen in the Kernel section with its parameters, backend, variant and block: the Session keeps it
// and hands it to the document that runs the kernel's family.
struct KernelChoice {
  const KernelSpec* kernel = nullptr;
  ParamSet params;
  Backend backend = Backend::Cpu;
  std::string variant;              // empty: the backend's default
  std::optional<BlockShape> block;  // empty: the engine's default (32x8)
};

// What happened in the background, for the window's status bar or a dialog.
struct Notice {
  enum class Level { Info, Error, Cancelled };  // Cancelled: what the user stopped (no error, no result)
  enum class Source { Load, Run, Reference, Sweep, Export, Other };
  Level level = Level::Info;
  Source source = Source::Other;
  std::string text;
};

// What the Device panel shows.
struct DeviceStatus {
  bool cuda = false;
  std::string unavailable_reason;  // why the CUDA backend cannot be used (when !cuda)
  DeviceInfo info;                 // the GPU in use (when cuda)
  double copy_bandwidth_gbps = 0;  // 0 until measured (a worker job at start)
  std::size_t free_memory = 0;     // refreshed after each CUDA run
  std::string cpu;                 // "CPU (8 threads)"
};

// The renderer re-uploads and refits only when these change (display_frame.hpp). Stencil results, simulation
// frames and lab images all count on the same two, so that the renderer never mistakes one for another.
struct DisplayGenerations {
  std::uint64_t input = 0;   // a new input image, or a simulation grid of another shape
  std::uint64_t output = 0;  // a new result, frame or lab image
};

}  // namespace ks::app
