#pragma once
// The names of the sidebar's sections, as --sections and a playlist step's "sections" take them (the window
// maps each to its section: ui/panels/section_names.cpp).
#include <array>
#include <string_view>

namespace ks::app {

inline constexpr std::array<std::string_view, 10> kSidebarSections = {
    "kernel", "launch", "timing", "device", "view", "simulation", "lab", "roofline", "source", "why"};

// "kernel, launch, ..., why"
inline constexpr std::string_view kSidebarSectionList =
    "kernel, launch, timing, device, view, simulation, lab, roofline, source, why";

}  // namespace ks::app
