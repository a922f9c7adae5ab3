#include "cli/user_kernel_lab.hpp"

#include <fmt/format.h>

#include <climits>
#include <cstring>
#include <random>

#include "core/error.hpp"
#include "cli/request_checks.hpp"
#include "core/timing.hpp"
#include "engine/engine.hpp"
#include "io/atomic_file.hpp"
#include "io/npy.hpp"
#include "lab/lab_size.hpp"
#include "inputs/image_files.hpp"
#include "report/why_explain.hpp"
#include "report/why_output.hpp"
#include "report/comparison_json.hpp"
#include "report/counters_report.hpp"
#include "report/report_json.hpp"
#include "report/table.hpp"
#include "report/text_format.hpp"
#include "report/user_run_report.hpp"
#include "usercode/check/compare.hpp"
#include "usercode/run/checked_outcome.hpp"
#include "usercode/run/user_array.hpp"

namespace ks::cli {

namespace {

// The inputs a run makes when no .npy is given: uniform in [0, 1) for float and double, integers in [0, 100) for
// int and unsigned, from the seed and the input's number (same seed, same bytes).
NdArray generated_input(DType type, std::size_t n, std::uint64_t seed, int index) {
  NdArray a;
  a.name = fmt::format("in{}", index + 1);
  a.type = type;
  a.shape = {static_cast<std::int64_t>(n)};
  a.data.resize(n * dtype_size(type));
  std::mt19937_64 random(seed * 1000003u + static_cast<std::uint64_t>(index));
  std::uniform_real_distribution<double> real(0.0, 1.0);
  std::uniform_int_distribution<int> integer(0, 99);
  for (std::size_t i = 0; i < n; ++i) switch (type) {
      case DType::F32: a.as<float>()[i] = static_cast<float>(real(random)); break;
      case DType::F64: a.as<double>()[i] = real(random); break;
      case DType::I32: a.as<std::int32_t>()[i] = integer(random); break;
      default: a.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(integer(random)); break;
    }
  return a;
}

std::pair<std::string, std::string> name_and_file(const std::string& text, const char* option) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw_usage(fmt::format("{} '{}' is not NAME=FILE", option, text), fmt::format("write e.g. {} in1=a.npy", option));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::string scalar_text(DType t, const std::vector<std::byte>& bytes) {
  switch (t) {
    case DType::F32: { float v; std::memcpy(&v, bytes.data(), 4); return fmt::format("{:.9g}", v); }
    case DType::F64: { double v; std::memcpy(&v, bytes.data(), 8); return fmt::format("{:.17g}", v); }
    case DType::I32: { std::int32_t v; std::memcpy(&v, bytes.data(), 4); return std::to_string(v); }
    default: { std::uint32_t v; std::memcpy(&v, bytes.data(), 4); return std::to_string(v); }
  }
}

}  // namespace

int run_user_array_kernel(const UserArrayCliOptions& opt, const GlobalOptions& global) {
  PreparedUserKernel prepared;
  if (!prepare_user_kernel(opt.common, "array", prepared)) return kKernelDoesNotCompile;
  const usercode::ArrayForm form = usercode::array_form(prepared.kernel);
  prepared.launch.warmup = opt.warmup;
  prepared.launch.repeat = opt.repeat;

  const std::optional<LabComparePlan> plan = plan_lab_compare(opt.compare, form);
  // With --compare the .npy files stand for the built-in's arrays, so they are of its type.
  const DType file_type = plan ? plan->mapping.lab_input_type : form.element;

  // The inputs: .npy files by name (in1, in2, ...), the rest generated; n from them or from --size.
  std::vector<NdArray> inputs(static_cast<std::size_t>(form.inputs));
  std::vector<bool> given(inputs.size(), false);
  for (const auto& text : opt.in_arrays) {
    const auto [name, file] = name_and_file(text, "--in");
    int index = -1;
    if (name.size() > 2 && name.starts_with("in")) index = std::atoi(name.c_str() + 2) - 1;
    if (index < 0 || index >= form.inputs)
      throw_usage(fmt::format("your kernel takes {} input{}: in1{}; there is no `{}`", form.inputs,
                              form.inputs == 1 ? "" : "s", form.inputs > 1 ? fmt::format("..in{}", form.inputs) : "",
                              name));
    NdArray a = read_npy(file);
    if (a.type != file_type || a.shape.size() != 1)
      throw_usage(plan ? fmt::format("{} holds a {}-D {} array; {} is {}'s `{}`, a 1-D {} array", file,
                                     a.shape.size(), to_string(a.type), name, plan->reference.spec->id,
                                     plan->mapping.inputs[static_cast<std::size_t>(index)], to_string(file_type))
                       : fmt::format("{} holds a {}-D {} array; your kernel takes 1-D {} ({})", file, a.shape.size(),
                                     to_string(a.type), to_string(form.element), usercode::c_type_name(form.element)));
    inputs[static_cast<std::size_t>(index)] = std::move(a);
    given[static_cast<std::size_t>(index)] = true;
  }
  std::int64_t n = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (given[i]) {
      if (n != 0 && inputs[i].count() != n)
        throw_usage(fmt::format("the input arrays differ in length ({} and {})", n, inputs[i].count()));
      n = inputs[i].count();
    }
  if (!opt.size.empty()) {
    const std::int64_t asked = lab::parse_lab_size(opt.size, lab::SizeForm::Elements, opt.common.kernel_file).dims[0];
    if (n != 0 && asked != n)
      throw_usage(fmt::format("--size {} but the .npy inputs hold {} elements", asked, n), "drop --size");
    n = asked;
  }
  if (n == 0) n = std::int64_t{1} << 20;
  if (n > INT_MAX) throw_usage(fmt::format("n = {}: an array kernel takes at most {} elements (n is an int)", n, INT_MAX));
  Engine engine(Engine::Options{global.threads});
  std::vector<NdArray> lab_arrays;  // with --compare: the built-in's inputs, in its types
  if (plan) {
    lab_arrays = lab_compare_inputs(engine, *plan, n, opt.seed, std::move(inputs));
    if (plan->reference.spec->find_variant(plan->reference.variant)->backend == Backend::Cuda)
      require_cuda(engine, "--compare " + plan->reference.spec->id + ":cpu");
    inputs.clear();
    for (const NdArray& a : lab_arrays) inputs.push_back(inputs::as_element_type(a, form.element));
  } else {
    for (std::size_t i = 0; i < inputs.size(); ++i)
      if (!given[i])
        inputs[i] = generated_input(form.element, static_cast<std::size_t>(n), opt.seed, static_cast<int>(i));
  }
  std::vector<std::pair<std::string, std::string>> outs;
  for (const auto& text : opt.out_arrays) {
    outs.push_back(name_and_file(text, "--out"));
    if (outs.back().first != "out")
      throw_usage(fmt::format("your kernel makes one array, `out`; there is no `{}`", outs.back().first),
                  "write it with --out out=FILE.npy");
    inputs::check_output_folder(outs.back().second);
  }
  if (!opt.json.empty()) inputs::check_output_folder(opt.json);

  start_user_worker(opt.common, "array", prepared);
  std::vector<std::span<const std::byte>> spans;
  for (const auto& a : inputs) spans.emplace_back(a.data);
  const usercode::UserArrayRun run =
      usercode::run_user_array(*prepared.worker, prepared.kernel, spans, static_cast<std::size_t>(n), prepared.launch);
  throw_unless_ok(run.reply, opt.common.checked);
  std::vector<std::string> names;
  for (int i = 0; i < form.inputs; ++i) names.push_back(fmt::format("in{}", i + 1));
  names.push_back("out");
  if (const auto violation = usercode::checked_violation(run.reply, names))
    throw Error(ErrorKind::Device, "your kernel went outside its arrays: " + *violation,
                "fix the index at that access; nothing was written");

  std::optional<usercode::Comparison> comparison;
  if (plan) {
    const inputs::LabReference reference =
        inputs::run_lab_reference(engine, *plan->reference.spec, plan->reference.variant, lab::LabSize::elements(n),
                                  plan->params, opt.seed, plan->mapping, lab_arrays, form.element);
    NdArray got;
    got.type = form.element;
    got.shape = {static_cast<std::int64_t>(run.output.size() / dtype_size(form.element))};
    got.data = run.output;
    comparison = usercode::compare_arrays(
        got, reference.output,
        chosen_tolerance(usercode::default_tolerance(form.element), opt.compare.abs_tol, opt.compare.rel_tol),
        &engine.pool());
  }
  const double copy_gbps = engine.cuda().copy_bandwidth_gbps();
  const TimingStats kernel_time = TimingStats::of(run.reply.kernel_ms);
  const std::uint64_t bytes = (static_cast<std::uint64_t>(form.inputs) * static_cast<std::uint64_t>(n) +
                               (form.scalar_output ? 1 : static_cast<std::uint64_t>(n))) *
                              dtype_size(form.element);
  const double gbps = kernel_time.median_ms > 0 ? double(bytes) / (kernel_time.median_ms * 1e6) : 0;

  NdArray out;
  out.name = "out";
  out.type = form.element;
  out.shape = {static_cast<std::int64_t>(run.output.size() / dtype_size(form.element))};
  out.data = run.output;
  for (const auto& [name, file] : outs) write_npy(file, out);
  // What the explainer can tell from a user's array kernel: its block, its copies and its timing.
  report::WhyInput why;
  why.family = "lab";
  why.backend = Backend::Cuda;
  why.block = BlockShape{int(run.block), 1};
  why.block_rank = 1;
  why.kernel_time = kernel_time;
  why.upload_ms = run.reply.upload_ms;
  why.download_ms = run.reply.download_ms;
  why.copy_bandwidth_gbps = copy_gbps;
  why.counters = user_counters(run.reply, opt.common.counters);
  const std::vector<report::WhyFinding> findings = report::explain_why(why);
  if (!opt.json.empty()) {
    nlohmann::ordered_json j = report_head("kernelscope.user_array/1", prepared.kernel.entry_facts().name, "yours",
                                           Backend::Cuda, prepared.worker->hello().device);
    j["n"] = n;
    j["element"] = to_string(form.element);
    j["inputs"] = form.inputs;
    j["output"] = form.scalar_output ? "scalar" : "array";
    j["block"] = run.block;
    j["grid"] = run.grid;
    j["timings_ms"] = {{"upload", run.reply.upload_ms}, {"download", run.reply.download_ms},
                       {"kernel", to_json(kernel_time)}};
    j["cost"] = {{"bytes", bytes}};
    j["gbps"] = gbps;
    j["copy_bandwidth_gbps"] = copy_gbps;
    j["percent_of_copy"] = copy_gbps > 0 ? 100 * gbps / copy_gbps : 0;
    if (form.scalar_output) j["scalar"] = scalar_text(form.element, run.output);
    j["counters"] = report::counters_json(why.counters, 0);  // a kernel of yours counts no operations
    j["user_kernel"] = report::user_kernel_json(opt.common.kernel_file, prepared.kernel);
    j["why"] = report::why_json(findings);
    if (comparison) {
      j["comparison"] = report::comparison_json(*comparison);
      j["comparison"]["reference"] = plan->reference.label;
      j["comparison"]["inputs"] = plan->mapping.inputs;
      j["comparison"]["output"] = plan->mapping.output;
    }
    write_text_atomically(opt.json, j.dump(2) + "\n");
  }

  fmt::print("your kernel {} ({}) on {}: n = {} {}, {} input{}, {} out; block {}, grid {} ({} threads)\n",
             prepared.kernel.entry_facts().name, opt.common.kernel_file, prepared.worker->hello().device, n,
             usercode::c_type_name(form.element), form.inputs, form.inputs == 1 ? "" : "s",
             form.scalar_output ? "a scalar" : "an array", run.block, run.grid,
             static_cast<std::uint64_t>(run.block) * run.grid);
  report::Table t({{""},
                   {"min ms", report::Table::Align::Right},
                   {"median ms", report::Table::Align::Right},
                   {"p95 ms", report::Table::Align::Right},
                   {"bytes", report::Table::Align::Right},
                   {"GB/s", report::Table::Align::Right},
                   {"% of copy", report::Table::Align::Right}});
  t.add_row({"upload", "", report::format_ms(run.reply.upload_ms), "", "", "", ""});
  t.add_row({"kernel", report::format_ms(kernel_time.min_ms), report::format_ms(kernel_time.median_ms),
             report::format_ms(kernel_time.p95_ms), report::format_bytes(bytes), fmt::format("{:.1f}", gbps),
             copy_gbps > 0 ? fmt::format("{:.1f}%", 100 * gbps / copy_gbps) : "-"});
  t.add_row({"download", "", report::format_ms(run.reply.download_ms), "", "", "", ""});
  fmt::print("{}", t.render(2));
  if (why.counters) fmt::print("{}", report::counters_text(*why.counters, std::nullopt, 0));
  if (form.scalar_output) fmt::print("result: {}\n", scalar_text(form.element, run.output));
  if (comparison) fmt::print("{}\n", comparison_line(plan->reference.label, *comparison));
  fmt::print("{}", report::why_paragraph(findings, why.counters.has_value()));
  for (const auto& [name, file] : outs) fmt::print("wrote {} (array out)\n", file);
  if (!opt.json.empty()) fmt::print("wrote {}\n", opt.json);
  // A result that differs from its reference is a failure of the kernel (the files are still written).
  return comparison && !comparison->matches() ? 1 : 0;
}

}  // namespace ks::cli
