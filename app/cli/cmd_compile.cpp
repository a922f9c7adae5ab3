// `compile FILE.cu`: a user's own kernel through the compiler service (gpu/usercode), without a GPU: its errors
// at the file's own lines (exit 2 when it does not compile), or, per kernel, what the compiler made of it, and with
// --ptx / --sass its instructions under the source lines they came from (report/listing_text.hpp).
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "report/compile_report_json.hpp"
#include "report/listing_text.hpp"
#include "core/error.hpp"
#include "io/atomic_file.hpp"
#include "report/table.hpp"
#include "usercode/disassembler.hpp"
#include "usercode/nvrtc_compile.hpp"
#include "usercode/source_text.hpp"
#include "usercode/user_kernel.hpp"

namespace ks::cli {

namespace {

struct CompileCliOptions {
  std::string file;
  std::string family;
  std::string entry;
  std::string arch = "sm_90";
  std::string json;
  bool ptx = false, sass = false;
  std::string listing_json;
  std::string nvdisasm;  // empty: find_nvdisasm()
};

// The exit code of a kernel that does not compile: the input is wrong, as for every bad request.
constexpr int kDoesNotCompile = 2;

std::string facts_text(const usercode::CompiledKernel& k) {
  using report::Table;
  Table t({{"kernel"},
           {"registers", Table::Align::Right},
           {"stack B", Table::Align::Right},
           {"spill stores B", Table::Align::Right},
           {"spill loads B", Table::Align::Right},
           {"shared B", Table::Align::Right},
           {"max threads/block", Table::Align::Right}});
  const auto& kernels = k.module->kernels;
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const auto& f = kernels[i];
    const bool entry = static_cast<int>(i) == k.entry && kernels.size() > 1;
    // "-": this NVRTC gave no ptxas report (see KernelFacts::resources_reported).
    auto figure = [&](int value) { return f.resources_reported ? std::to_string(value) : std::string("-"); };
    t.add_row({f.signature + (entry ? "  (entry)" : ""), figure(f.registers), figure(f.stack_bytes),
               figure(f.spill_stores), figure(f.spill_loads), figure(f.shared_bytes),
               figure(f.max_threads_per_block)});
  }
  return t.render(2);
}

int run_compile(const CompileCliOptions& opt) {
  if (!opt.listing_json.empty() && !opt.ptx && !opt.sass)
    throw_usage("--listing-json writes the listing --ptx or --sass asks for", "add --ptx or --sass");
  if (!opt.nvdisasm.empty() && !opt.sass) throw_usage("--nvdisasm names the disassembler of --sass", "add --sass");
  usercode::CompileRequest request;
  request.file_name = opt.file;
  request.source = usercode::read_kernel_source(opt.file);
  request.family = opt.family;
  request.entry = opt.entry;
  request.options.arch = opt.arch;
  const usercode::CompiledKernel k = usercode::compile_user_kernel(request);
  const usercode::CompiledModule& m = *k.module;
  std::fflush(stdout);
  for (const auto& d : m.diagnostics) fmt::print(stderr, "{}\n", usercode::format_diagnostic(d));
  if (!m.ok) {
    const int errors = usercode::count_errors(m.diagnostics);
    fmt::print(stderr, "error: {} does not compile ({} error{}). Fix the lines above and compile again\n", opt.file,
               errors, errors == 1 ? "" : "s");
    return kDoesNotCompile;
  }
  // The listing before anything is written: a disassembler that fails leaves no file behind.
  std::optional<usercode::Listing> listing;
  if (opt.ptx || opt.sass) {
    const usercode::Disassembler disassembler{opt.nvdisasm.empty() ? usercode::find_nvdisasm()
                                                                   : std::filesystem::path(opt.nvdisasm)};
    listing = usercode::compiler_listing(m, opt.sass ? usercode::ListingKind::Sass : usercode::ListingKind::Ptx,
                                         disassembler);
  }
  if (!opt.json.empty()) write_text_atomically(opt.json, report::compile_facts_json(m).dump(2) + "\n");
  if (listing && !opt.listing_json.empty())
    write_text_atomically(opt.listing_json, report::listing_json(*listing, opt.file, opt.arch).dump(2) + "\n");
  fmt::print("{}: compiled for {} in {:.0f} ms (NVRTC {}){}\n", opt.file, opt.arch, m.compile_ms,
             usercode::nvrtc_version(), k.family ? fmt::format(", {} family", to_string(*k.family)) : "");
  fmt::print("{}", facts_text(k));
  if (listing) {
    if (!listing->note.empty()) {
      std::fflush(stdout);
      fmt::print(stderr, "note: {}\n", listing->note);
    }
    fmt::print("\n{}", report::listing_text(*listing, request.source));
  }
  return 0;
}

}  // namespace

Command add_compile_command(CLI::App& app, const GlobalOptions&) {
  auto opt = std::make_shared<CompileCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "compile",
      "Compile your own CUDA kernel (no GPU needed): its errors at your lines, or per kernel its registers, stack, "
      "spills, shared memory and max threads per block");
  sub->add_option("file", opt->file, "The kernel's CUDA source (.cu)")->required();
  sub->add_option("--family", opt->family,
                  "Check the entry against a family's contract: " + usercode::family_names() +
                      " (default: the file's `// @family`, else no check)");
  sub->add_option("--entry", opt->entry, "The __global__ function to use when the file has several");
  sub->add_option("--arch", opt->arch, "The GPU architecture to compile for (sm_XX)")->default_str("sm_90");
  sub->add_option("--json", opt->json, "Also write the facts as JSON to this file");
  auto* ptx = sub->add_flag("--ptx", opt->ptx, "Print the PTX, each instruction under the source line it came from");
  auto* sass = sub->add_flag("--sass", opt->sass,
                             "Print the SASS (the CUDA toolkit's nvdisasm; without it the PTX, and a note says so), "
                             "each instruction under its source line");
  ptx->excludes(sass);
  sub->add_option("--listing-json", opt->listing_json, "Also write the --ptx or --sass listing as JSON to this file");
  sub->add_option("--nvdisasm", opt->nvdisasm,
                  "The disassembler for --sass (default: /usr/local/cuda/bin/nvdisasm, else nvdisasm on PATH)");
  return {sub, [opt] { return run_compile(*opt); }};
}

}  // namespace ks::cli
