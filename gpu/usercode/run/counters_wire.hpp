#pragma once
// The hardware counters of a user's kernel as the worker process sends them back (WorkerReply::counters): every
// field of KernelCounters under its own name, so that the client gets the same numbers a built-in's run reads.
#include <nlohmann/json.hpp>

#include "core/kernel_counters.hpp"

namespace ks::usercode {

nlohmann::json to_json(const CounterReading& reading);
// A json::exception for a reply that lacks a field.
CounterReading counter_reading_from_json(const nlohmann::json& j);

}  // namespace ks::usercode
