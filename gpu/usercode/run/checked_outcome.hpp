#pragma once
// What a checked run found: the first access outside a buffer, in words, from the record the checked prelude
// left (check/check_record.hpp) and the buffers' names in the family's contract.
#include <optional>
#include <string>
#include <vector>

#include "usercode/run/launch_plan.hpp"

namespace ks::usercode {

// nullopt when the run was not checked or nothing went out of bounds; `buffer_names` in the plan's buffer order
// ("in", "out"; "in1", "in2", "out"; "state", "next").
std::optional<std::string> checked_violation(const WorkerReply& reply, const std::vector<std::string>& buffer_names);

}  // namespace ks::usercode
