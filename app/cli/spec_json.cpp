#include "cli/spec_json.hpp"

#include "lab/lab_kernel.hpp"

namespace ks {

const char* to_string(ParamType type) noexcept {
  switch (type) {
    case ParamType::Int:
      return "int";
    case ParamType::Float:
      return "float";
    case ParamType::Bool:
      return "bool";
    case ParamType::Choice:
      return "choice";
    case ParamType::Matrix:
      return "matrix";
    case ParamType::Text:
      return "text";
  }
  return "?";
}

nlohmann::ordered_json to_json(const ParamSpec& p) {
  nlohmann::ordered_json j = {{"name", p.name},
                              {"type", to_string(p.type)},
                              {"help", p.help},
                              {"default", p.default_text},
                              {"range", p.range_text()}};
  switch (p.type) {
    case ParamType::Int:
      j["min"] = static_cast<long long>(p.min);
      j["max"] = static_cast<long long>(p.max);
      break;
    case ParamType::Float:
      j["min"] = p.min;
      j["max"] = p.max;
      break;
    case ParamType::Choice:
      j["choices"] = p.choices;
      break;
    case ParamType::Matrix:
      j["matrix_max_size"] = p.matrix_max_size;
      break;
    case ParamType::Text:
      if (!p.choices.empty()) j["examples"] = p.choices;
      break;
    case ParamType::Bool:
      break;
  }
  return j;
}

nlohmann::ordered_json to_json(const KernelSpec& k, bool cuda_available) {
  nlohmann::ordered_json params = nlohmann::ordered_json::array();
  for (const auto& p : k.params) params.push_back(to_json(p));
  nlohmann::ordered_json variants = nlohmann::ordered_json::array();
  for (const auto& v : k.variants)
    variants.push_back({{"name", v.name},
                        {"backend", to_string(v.backend)},
                        {"help", v.help},
                        {"available", v.backend == Backend::Cpu || cuda_available}});
  nlohmann::ordered_json types = nlohmann::ordered_json::array();
  for (ElemType t : k.types) types.push_back(to_string(t));
  nlohmann::ordered_json j = {{"id", k.id},
                              {"title", k.title},
                              {"category", k.category},
                              {"description", k.description},
                              {"params", std::move(params)},
                              {"variants", std::move(variants)},
                              {"types", std::move(types)},
                              {"channels", k.channels}};
  if (k.lab) {
    const lab::LabInfo& info = k.lab->info();
    nlohmann::ordered_json min = nlohmann::ordered_json::array(), max = nlohmann::ordered_json::array();
    for (int i = 0; i < info.default_size.rank(); ++i) {
      min.push_back(info.limits.min[std::size_t(i)]);
      max.push_back(info.limits.max[std::size_t(i)]);
    }
    j["lab"] = {{"size_form", lab::to_string(info.form)},
                {"min", std::move(min)},
                {"max", std::move(max)},
                {"default_size", lab::to_string(info.default_size)},
                {"splits", info.splits},
                {"block_rank", info.block_rank},
                {"default_block", {{"x", info.default_block.x}, {"y", info.default_block.y}}},
                {"makes_image", info.makes_image}};
  }
  return j;
}

}  // namespace ks
