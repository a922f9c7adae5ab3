#pragma once
// What the sidebar's "Your kernel" sections share (a stencil kernel's: stencil/user_kernel_section.cpp, a step
// kernel's: simulation/user_step_section.cpp): the declared parameters as sliders over their declared ranges, the
// tolerance fields of the check, and the check's verdict with the way to its first difference.
#include <functional>
#include <string>
#include <vector>

#include "panels/panels.hpp"
#include "usercode/check/comparison.hpp"
#include "usercode/check/tolerance.hpp"
#include "usercode/declarations.hpp"

namespace ks::ui::panels {

// A slider per declared parameter (int or float, its range, its description as the tooltip); a moved one calls
// `set(index, value)` through try_change, so a refused value shows in red.
void declared_param_sliders(const std::vector<usercode::DeclaredParameter>& declared, const std::vector<double>& values,
                            PanelState& st, const std::function<void(std::size_t, double)>& set);

// The abs and rel fields (Enter applies): `set` gets the edited tolerance through try_change.
void tolerance_fields(usercode::Tolerance tolerance, PanelState& st,
                      const std::function<void(const usercode::Tolerance&)>& set);

// "Go to the first difference": centres and magnifies the first differing pixel or cell, so that the pixel
// inspector reads it under the pointer. Nothing without a view or a difference.
void first_difference_button(const usercode::Comparison& comparison, PanelState& st);

}  // namespace ks::ui::panels
