#include "usercode/run/launch_plan.hpp"

#include "usercode/run/counters_wire.hpp"

namespace ks::usercode {

namespace {

const char* kind_name(ArgumentKind k) {
  switch (k) {
    case ArgumentKind::Buffer: return "buffer";
    case ArgumentKind::Int32: return "int";
    case ArgumentKind::Float32: return "float";
    case ArgumentKind::InImage: return "in_image";
    case ArgumentKind::OutImage: return "out_image";
  }
  return "?";
}

ArgumentKind kind_from(const std::string& s) {
  for (ArgumentKind k : {ArgumentKind::Buffer, ArgumentKind::Int32, ArgumentKind::Float32, ArgumentKind::InImage,
                         ArgumentKind::OutImage})
    if (s == kind_name(k)) return k;
  throw nlohmann::json::other_error::create(501, "unknown argument kind " + s, nullptr);
}

RunOutcome outcome_from(const std::string& s) {
  for (RunOutcome o : {RunOutcome::Ok, RunOutcome::LaunchRefused, RunOutcome::Fault, RunOutcome::Failed,
                       RunOutcome::TimedOut, RunOutcome::WorkerDied})
    if (s == to_string(o)) return o;
  throw nlohmann::json::other_error::create(501, "unknown outcome " + s, nullptr);
}

}  // namespace

const char* to_string(RunOutcome o) noexcept {
  switch (o) {
    case RunOutcome::Ok: return "ok";
    case RunOutcome::LaunchRefused: return "launch_refused";
    case RunOutcome::Fault: return "fault";
    case RunOutcome::Failed: return "failed";
    case RunOutcome::TimedOut: return "timed_out";
    case RunOutcome::WorkerDied: return "worker_died";
  }
  return "?";
}

nlohmann::json to_json(const LaunchPlan& plan) {
  nlohmann::json buffers = nlohmann::json::array();
  for (const auto& b : plan.buffers) {
    nlohmann::json j = {{"bytes", b.bytes},
                        {"offset", b.offset},
                        {"upload", b.upload},
                        {"download", b.download},
                        {"zero_each_launch", b.zero_each_launch},
                        {"content_key", b.content_key}};
    // Written only when set, so that a plan of before these fields reads the same.
    if (b.in_result_block) j["result_block"] = true;
    if (b.require_held) j["require_held"] = true;
    if (!b.keep_as.empty()) j["keep_as"] = b.keep_as;
    buffers.push_back(std::move(j));
  }
  nlohmann::json arguments = nlohmann::json::array();
  for (const auto& a : plan.arguments) {
    nlohmann::json j = {{"kind", kind_name(a.kind)}, {"buffer", a.buffer}, {"integer", a.integer}, {"real", a.real}};
    if (a.kind == ArgumentKind::InImage || a.kind == ArgumentKind::OutImage)
      j["image"] = {{"width", a.image.width},
                    {"height", a.image.height},
                    {"channels", a.image.channels},
                    {"pitch", a.image.pitch},
                    {"element_bytes", a.image.element_bytes},
                    {"border", a.image.border},
                    {"constant_value", a.image.constant_value}};
    arguments.push_back(std::move(j));
  }
  return {{"module_offset", plan.module_offset},
          {"module_bytes", plan.module_bytes},
          {"module_key", plan.module_key},
          {"entry", plan.entry},
          {"grid", plan.grid},
          {"block", plan.block},
          {"buffers", std::move(buffers)},
          {"arguments", std::move(arguments)},
          {"warmup", plan.warmup},
          {"timed", plan.timed},
          {"swap_first_two", plan.swap_first_two},
          {"checked", plan.checked},
          {"counters", plan.counters},
          {"counter_set", to_string(plan.counter_set)}};
}

LaunchPlan launch_plan_from_json(const nlohmann::json& j) {
  LaunchPlan p;
  p.module_offset = j.at("module_offset").get<std::uint64_t>();
  p.module_bytes = j.at("module_bytes").get<std::uint64_t>();
  p.module_key = j.at("module_key").get<std::string>();
  p.entry = j.at("entry").get<std::string>();
  p.grid = j.at("grid").get<std::array<unsigned, 3>>();
  p.block = j.at("block").get<std::array<unsigned, 3>>();
  for (const auto& b : j.at("buffers")) {
    BufferPlan buffer{b.at("bytes").get<std::uint64_t>(), b.at("offset").get<std::uint64_t>(),
                      b.at("upload").get<bool>(),          b.at("download").get<bool>(),
                      b.at("zero_each_launch").get<bool>(), b.at("content_key").get<std::string>()};
    buffer.in_result_block = b.value("result_block", false);
    buffer.require_held = b.value("require_held", false);
    buffer.keep_as = b.value("keep_as", std::string());
    p.buffers.push_back(std::move(buffer));
  }
  for (const auto& a : j.at("arguments")) {
    LaunchArgument arg;
    arg.kind = kind_from(a.at("kind").get<std::string>());
    arg.buffer = a.at("buffer").get<int>();
    arg.integer = a.at("integer").get<std::int64_t>();
    arg.real = a.at("real").get<double>();
    if (a.contains("image")) {
      const auto& i = a.at("image");
      arg.image = {i.at("width").get<int>(),         i.at("height").get<int>(), i.at("channels").get<int>(),
                   i.at("pitch").get<int>(),         i.at("element_bytes").get<int>(), i.at("border").get<int>(),
                   i.at("constant_value").get<double>()};
    }
    p.arguments.push_back(arg);
  }
  p.warmup = j.at("warmup").get<int>();
  p.timed = j.at("timed").get<int>();
  p.swap_first_two = j.at("swap_first_two").get<bool>();
  p.checked = j.at("checked").get<bool>();
  p.counters = j.value("counters", false);
  p.counter_set = parse_counter_set(j.value("counter_set", "all"));
  return p;
}

nlohmann::json to_json(const WorkerReply& r) {
  nlohmann::json j = {{"outcome", to_string(r.outcome)}, {"message", r.message},     {"cuda_error", r.cuda_error},
                      {"kernel_ms", r.kernel_ms},         {"upload_ms", r.upload_ms}, {"download_ms", r.download_ms},
                      {"load_ms", r.load_ms}};
  if (r.check_record) j["check_record"] = *r.check_record;
  if (!r.buffer_addresses.empty()) j["buffer_addresses"] = r.buffer_addresses;
  if (r.counters) j["counters"] = to_json(*r.counters);
  if (r.attributes.known)
    j["attributes"] = {{"registers", r.attributes.registers},
                       {"shared_bytes", r.attributes.shared_bytes},
                       {"local_bytes", r.attributes.local_bytes},
                       {"max_threads_per_block", r.attributes.max_threads_per_block}};
  return j;
}

WorkerReply worker_reply_from_json(const nlohmann::json& j) {
  WorkerReply r;
  r.outcome = outcome_from(j.at("outcome").get<std::string>());
  r.message = j.at("message").get<std::string>();
  r.cuda_error = j.at("cuda_error").get<std::string>();
  r.kernel_ms = j.at("kernel_ms").get<std::vector<double>>();
  r.upload_ms = j.at("upload_ms").get<double>();
  r.download_ms = j.at("download_ms").get<double>();
  r.load_ms = j.at("load_ms").get<double>();
  if (j.contains("check_record")) r.check_record = j.at("check_record");
  if (j.contains("buffer_addresses")) r.buffer_addresses = j.at("buffer_addresses").get<std::vector<std::uint64_t>>();
  if (j.contains("counters")) r.counters = counter_reading_from_json(j.at("counters"));
  if (j.contains("attributes")) {
    const auto& a = j.at("attributes");
    r.attributes = {true, a.at("registers").get<int>(), a.at("shared_bytes").get<int>(),
                    a.at("local_bytes").get<int>(), a.at("max_threads_per_block").get<int>()};
  }
  return r;
}

nlohmann::json to_json(const WorkerHello& h) {
  return {{"ok", h.ok}, {"device", h.device}, {"arch", h.arch}, {"message", h.message}};
}

WorkerHello worker_hello_from_json(const nlohmann::json& j) {
  return {j.at("ok").get<bool>(), j.at("device").get<std::string>(), j.at("arch").get<std::string>(),
          j.at("message").get<std::string>()};
}

}  // namespace ks::usercode
