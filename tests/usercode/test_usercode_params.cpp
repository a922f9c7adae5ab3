// A user kernel's declared parameters from NAME=VALUE: checked against the declarations, never clamped.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "usercode/declarations.hpp"
#include "usercode/run/user_params.hpp"

namespace ks::usercode {
namespace {

KernelDeclarations two_parameters() {
  return parse_declarations("// @param strength float [0, 1] = 0.5\n// @param radius int [1, 7] = 2\n", "k.cu");
}

std::string usage_message(const std::vector<std::string>& assignments) {
  try {
    user_param_values(two_parameters(), assignments);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    return e.full_message();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(UserKernelParams, DefaultsInDeclarationOrderThenTheAssignments) {
  EXPECT_EQ(user_param_values(two_parameters(), {}), (std::vector<double>{0.5, 2}));
  EXPECT_EQ(user_param_values(two_parameters(), {"radius=7", "strength=0"}), (std::vector<double>{0, 7}));
  EXPECT_EQ(user_param_values(two_parameters(), {"strength=1"}), (std::vector<double>{1, 2}));
}

TEST(UserKernelParams, RefusesWhatTheDeclarationsDoNotAllow) {
  EXPECT_NE(usage_message({"strength=1.5"}).find("outside its declared range [0, 1]"), std::string::npos);
  EXPECT_NE(usage_message({"radius=2.5"}).find("not a whole number"), std::string::npos);
  EXPECT_NE(usage_message({"sigma=2"}).find("it declares strength, radius"), std::string::npos);
  EXPECT_NE(usage_message({"strength=abc"}).find("not a number"), std::string::npos);
  EXPECT_NE(usage_message({"strength"}).find("not NAME=VALUE"), std::string::npos);
  EXPECT_NE(usage_message({"radius=nan"}).find("not a number"), std::string::npos);
}

}  // namespace
}  // namespace ks::usercode
