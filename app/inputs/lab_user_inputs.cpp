#include "inputs/lab_user_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "core/error.hpp"
#include "core/runtime.hpp"
#include "registry/registry.hpp"

namespace ks::inputs {

namespace {

bool is_float(DType t) { return t == DType::F32 || t == DType::F64; }

std::string names_of(const std::vector<const lab::ArraySpec*>& arrays) {
  std::string s;
  for (const auto* a : arrays) s += (s.empty() ? "" : ", ") + a->name;
  return s;
}

std::string plural(std::size_t count, const char* word) {
  return fmt::format("{} {}{}", count, word, count == 1 ? "" : "s");
}

// What a lab kernel of another size form takes, in words.
const char* form_words(lab::SizeForm form) {
  switch (form) {
    case lab::SizeForm::Grid: return "an NxM grid";
    case lab::SizeForm::Matmul: return "matrices (MxNxK)";
    case lab::SizeForm::Image: return "the loaded image";
    case lab::SizeForm::Elements: break;
  }
  return "n elements";
}

std::string join_ids(const std::vector<std::string>& ids) {
  std::string s;
  for (std::size_t i = 0; i < ids.size(); ++i)
    s += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
  return s;
}

}  // namespace

std::string describe_array_form(const usercode::ArrayForm& form) {
  return fmt::format("{} {} input{} to {}", form.inputs, usercode::c_type_name(form.element),
                     form.inputs == 1 ? "" : "s", form.scalar_output ? "a scalar" : "an array of n");
}

LabFit fit_lab_kernel(const KernelSpec& spec, const ParamSet& params, const usercode::ArrayForm& form) {
  LabFit fit;
  auto refuse = [&](std::string why) {
    fit.why_not = std::move(why);
    return fit;
  };
  if (!spec.lab) return refuse(fmt::format("{} is a {} kernel, not a lab kernel", spec.id, spec.category));
  const lab::LabInfo& info = spec.lab->info();
  if (info.form != lab::SizeForm::Elements)
    return refuse(fmt::format("{} takes {}, not arrays of n elements", spec.id, form_words(info.form)));
  const lab::LabSize size = info.default_size;
  const std::vector<lab::ArraySpec> arrays = spec.lab->arrays(size, params);
  std::vector<const lab::ArraySpec*> inputs, outputs;
  for (const auto& a : arrays) {
    if (a.is_input()) inputs.push_back(&a);
    if (a.is_output()) outputs.push_back(&a);
  }
  const std::vector<std::int64_t> whole{size.n()}, one{1};
  if (inputs.empty()) return refuse(fmt::format("{} reads no input array (it makes its own values)", spec.id));
  for (const auto* a : inputs)
    if (a->shape != whole || a->type != inputs[0]->type)
      return refuse(fmt::format("{}'s input {} is not an array of n {} like its first", spec.id, a->name,
                                to_string(inputs[0]->type)));
  if (outputs.size() != 1)
    return refuse(fmt::format("{} changes {} ({}); an array kernel writes one", spec.id,
                              plural(outputs.size(), "array"), names_of(outputs)));
  const lab::ArraySpec& out = *outputs[0];
  const bool scalar = out.shape == one;
  if (!scalar && out.shape != whole)
    return refuse(fmt::format("{}'s result {} is {} values, neither n nor one", spec.id, out.name,
                              lab::shape_text(out.shape)));
  if (static_cast<int>(inputs.size()) != form.inputs)
    return refuse(fmt::format("{} takes {} ({}), your kernel {}", spec.id, plural(inputs.size(), "input array"),
                              names_of(inputs), form.inputs));
  if (scalar != form.scalar_output)
    return refuse(scalar ? fmt::format("{} makes one value ({}); your kernel writes an array of n (`// @output "
                                       "scalar` makes it one value)",
                                       spec.id, out.name)
                         : fmt::format("{} makes an array of n ({}); your kernel writes one value (`// @output "
                                       "scalar`)",
                                       spec.id, out.name));
  const DType in_type = inputs[0]->type;
  if (!(form.element == in_type || (form.element == DType::F64 && in_type == DType::F32)))
    return refuse(fmt::format("{}'s arrays are {}; your kernel takes {}", spec.id, usercode::c_type_name(in_type),
                              usercode::c_type_name(form.element)));
  if (!(form.element == out.type || (is_float(form.element) && is_float(out.type))))
    return refuse(fmt::format("{}'s {} is {}; your kernel writes {}", spec.id, out.name,
                              usercode::c_type_name(out.type), usercode::c_type_name(form.element)));
  LabArrayMapping m;
  m.kernel = spec.id;
  for (const auto* a : inputs) m.inputs.push_back(a->name);
  m.output = out.name;
  m.scalar = scalar;
  m.lab_input_type = in_type;
  m.lab_output_type = out.type;
  fit.mapping = std::move(m);
  return fit;
}

std::vector<std::string> fitting_lab_kernels(const usercode::ArrayForm& form) {
  std::vector<std::string> ids;
  for (const auto& spec : KernelRegistry::builtin().kernels())
    if (spec.lab && fit_lab_kernel(spec, spec.default_params(), form).mapping) ids.push_back(spec.id);
  return ids;
}

namespace {

[[noreturn]] void refuse_with_fitting(const std::string& why, const usercode::ArrayForm& form) {
  const std::vector<std::string> fitting = fitting_lab_kernels(form);
  if (fitting.empty()) {
    std::string each;
    for (const auto& spec : KernelRegistry::builtin().kernels())
      if (spec.lab)
        if (const LabFit f = fit_lab_kernel(spec, spec.default_params(), form); !f.mapping)
          each += (each.empty() ? "" : "; ") + f.why_not;
    throw_usage(fmt::format("{}, and no lab kernel takes {}", why, describe_array_form(form)),
                "the lab's 1-D kernels: " + each);
  }
  throw_usage(fmt::format("{}; of the lab kernels, {} fit{} your kernel ({})", why, join_ids(fitting),
                          fitting.size() == 1 ? "s" : "", describe_array_form(form)));
}

}  // namespace

LabArrayMapping lab_array_mapping(const KernelSpec& spec, const ParamSet& params, const usercode::ArrayForm& form) {
  LabFit fit = fit_lab_kernel(spec, params, form);
  if (!fit.mapping) refuse_with_fitting(fit.why_not, form);
  return std::move(*fit.mapping);
}

const KernelSpec& lab_kernel_for(const usercode::ArrayForm& form, const KernelSpec* current, const ParamSet* params) {
  if (current && current->lab && fit_lab_kernel(*current, params ? *params : current->default_params(), form).mapping)
    return *current;
  const std::vector<std::string> fitting = fitting_lab_kernels(form);
  if (fitting.empty())
    refuse_with_fitting(fmt::format("your kernel takes {}", describe_array_form(form)), form);
  return KernelRegistry::builtin().get(fitting.front());
}

std::vector<NdArray> lab_inputs(const KernelSpec& spec, const lab::LabSize& size, const ParamSet& params,
                                std::uint64_t seed, ThreadPool& pool, const LabArrayMapping& mapping,
                                std::vector<NdArray> given) {
  const std::vector<lab::ArraySpec> arrays = spec.lab->arrays(size, params);
  std::vector<NdArray> filled(arrays.size());
  lab::ArrayViews views(arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    views[i].spec = &arrays[i];
    views[i].count = arrays[i].count();
    if (!arrays[i].is_input()) continue;
    filled[i].name = arrays[i].name;
    filled[i].type = arrays[i].type;
    filled[i].shape = arrays[i].shape;
    filled[i].data.resize(arrays[i].bytes());
    views[i].data = filled[i].data.data();
  }
  lab::FillContext context;
  context.size = size;
  context.params = &params;
  context.seed = seed;
  context.pool = &pool;
  spec.lab->fill(views, context);

  std::vector<NdArray> inputs;
  for (const std::string& name : mapping.inputs) {
    const auto at = std::find_if(arrays.begin(), arrays.end(), [&](const auto& a) { return a.name == name; });
    if (at == arrays.end()) throw Error(ErrorKind::Internal, "the lab mapping names an array its kernel lacks");
    NdArray& a = filled[static_cast<std::size_t>(at - arrays.begin())];
    for (NdArray& g : given)
      if (g.name == name) {
        if (g.type != a.type || g.count() != a.count())
          throw_usage(fmt::format("{}'s `{}` is {} {} values; the array given for it holds {} {} values", spec.id,
                                  name, a.count(), to_string(a.type), g.count(), to_string(g.type)),
                      fmt::format("give a 1-D {} .npy of n values", to_string(a.type)));
        a.data = std::move(g.data);
      }
    inputs.push_back(std::move(a));
  }
  return inputs;
}

NdArray as_element_type(const NdArray& array, DType type) {
  if (array.type == type) return array;
  NdArray out;
  out.name = array.name;
  out.type = type;
  out.shape = array.shape;
  out.data.resize(static_cast<std::size_t>(array.count()) * dtype_size(type));
  if (array.type == DType::F32 && type == DType::F64) {
    std::copy(array.as<float>().begin(), array.as<float>().end(), out.as<double>().begin());
  } else if (array.type == DType::F64 && type == DType::F32) {
    std::transform(array.as<double>().begin(), array.as<double>().end(), out.as<float>().begin(),
                   [](double v) { return static_cast<float>(v); });
  } else {
    throw Error(ErrorKind::Internal, fmt::format("no conversion of {} arrays to {}", to_string(array.type),
                                                 to_string(type)));
  }
  return out;
}

LabReference run_lab_reference(Runtime& runtime, const KernelSpec& spec, const std::string& variant,
                               const lab::LabSize& size, const ParamSet& params, std::uint64_t seed,
                               const LabArrayMapping& mapping, const std::vector<NdArray>& inputs, DType element,
                               const lab::LabRunControl& control) {
  const VariantSpec* v = spec.find_variant(variant);
  if (!v) throw_usage(fmt::format("{} has no variant `{}`", spec.id, variant), "see `kernelscope-cli list`");
  lab::LabRequest request;
  request.kernel = spec.id;
  request.size = size;
  request.params = params;
  request.backend = v->backend;
  request.variant = variant;
  request.seed = seed;
  request.check = false;  // the reference is what is checked against
  request.warmup = 0;
  request.repeat = 1;
  request.inputs = inputs;
  request.keep = {mapping.output};
  lab::LabResult result = lab::run_lab(runtime, request, control);
  LabReference reference;
  reference.label = spec.id + ":" + variant;
  reference.ms = result.report.kernel_time.median_ms;
  for (const NdArray& a : result.arrays)
    if (a.name == mapping.output) reference.output = as_element_type(a, element);
  if (reference.output.data.empty())
    throw Error(ErrorKind::Internal, fmt::format("{} handed back no array `{}`", spec.id, mapping.output));
  return reference;
}

}  // namespace ks::inputs
