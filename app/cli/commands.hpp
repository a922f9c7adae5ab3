#pragma once
// The subcommands of kernelscope-cli. Each `add_*_command` declares its subcommand and options on `app` and
// returns what runs it once parsing succeeded (the option values live in that function's captures, so there
// is no global state). Runners return the exit code; they throw ks::Error for failures, which main() prints.
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace ks::cli {

// Options given before (or, through fallthrough, after) the subcommand.
struct GlobalOptions {
  unsigned threads = 0;  // CPU backend worker threads; 0: every core
  std::vector<std::string> argv;  // the command line as given (for the command that resumes a sweep)
};

struct Command {
  CLI::App* app = nullptr;   // the subcommand, owned by the parent app
  std::function<int()> run;  // called after parsing when this subcommand was given
};

Command add_list_command(CLI::App& app, const GlobalOptions& global);
Command add_info_command(CLI::App& app, const GlobalOptions& global);
Command add_run_command(CLI::App& app, const GlobalOptions& global);
Command add_bench_command(CLI::App& app, const GlobalOptions& global);
Command add_demo_command(CLI::App& app, const GlobalOptions& global);
Command add_topo_command(CLI::App& app, const GlobalOptions& global);
Command add_sim_command(CLI::App& app, const GlobalOptions& global);
Command add_lab_command(CLI::App& app, const GlobalOptions& global);
Command add_compile_command(CLI::App& app, const GlobalOptions& global);
Command add_worker_command(CLI::App& app, const GlobalOptions& global);
Command add_copy_command(CLI::App& app, const GlobalOptions& global);

// "kernelscope-cli 0.1.0 (CUDA backend: built in)"; shared by --version of the app and every subcommand.
std::string version_text();

}  // namespace ks::cli
