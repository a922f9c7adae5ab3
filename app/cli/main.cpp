// kernelscope-cli: the headless front end. Parses the command line, runs one subcommand and turns errors into
// `error: <what>. <hint>` on stderr with the exit code of their kind (usage 2, everything else 1).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <new>
#include <vector>

#include "cli/commands.hpp"
#include "core/error.hpp"

namespace {

int run_cli(int argc, char** argv) {
  using namespace ks::cli;
  GlobalOptions global;
  global.argv.assign(argv, argv + argc);
  CLI::App app{
      "kernelscope: explore GPU image kernels — pick a stencil kernel, its parameters and CUDA block\n"
      "size, and read each kernel's time against the GPU's measured copy bandwidth.",
      "kernelscope-cli"};
  app.set_version_flag("--version", version_text());
  app.add_option("--threads", global.threads, "Worker threads of the CPU backend (0: every core)")
      ->check(CLI::Range(0u, 4096u))
      ->default_str("0");
  app.require_subcommand(1);
  // Lets global options follow the subcommand too: `kernelscope-cli run box ... --threads 4`.
  app.fallthrough();
  app.footer("Run `kernelscope-cli COMMAND --help` for the options of a command.");

  const std::vector<Command> commands = {add_list_command(app, global), add_info_command(app, global),
                                         add_run_command(app, global), add_bench_command(app, global),
                                         add_demo_command(app, global), add_sim_command(app, global),
                                         add_topo_command(app, global), add_lab_command(app, global),
                                         add_compile_command(app, global), add_worker_command(app, global),
                                         add_copy_command(app, global)};
  for (const auto& c : commands) c.app->set_version_flag("--version", version_text());

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 prints its own message (or the help/version text); its exit codes are its own, ours are 0 or 2.
    return app.exit(e) == 0 ? 0 : 2;
  }

  for (const auto& c : commands)
    if (c.app->parsed()) return c.run();
  return 2;  // unreachable: require_subcommand(1)
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_cli(argc, argv);
  } catch (const ks::Error& e) {
    std::fflush(stdout);
    fmt::print(stderr, "error: {}\n", e.full_message());
    return ks::exit_code_for(e.kind());
  } catch (const std::bad_alloc&) {
    std::fflush(stdout);
    fmt::print(stderr, "error: out of host memory. Try a smaller image or fewer channels\n");
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    fmt::print(stderr, "error: {}. This is a bug of kernelscope; please report it\n", e.what());
    return 1;
  }
}
