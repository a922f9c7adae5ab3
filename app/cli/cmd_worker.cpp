// `worker`: not for people. The process in which the app and the CLI run users' own kernels (a fault there
// cannot take them down): gpu/usercode/run/worker_loop.hpp serves requests on stdin and answers on stdout.
#include <iostream>

#include "cli/commands.hpp"
#include "usercode/run/worker_loop.hpp"

namespace ks::cli {

Command add_worker_command(CLI::App& app, const GlobalOptions&) {
  CLI::App* sub = app.add_subcommand("worker", "Run users' kernels for the app (started by kernelscope itself)");
  sub->group("");  // hidden from --help
  return {sub, [] { return usercode::serve_worker(std::cin, std::cout); }};
}

}  // namespace ks::cli
