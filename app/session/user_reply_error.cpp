#include "session/user_reply_error.hpp"

#include "core/error.hpp"

namespace ks::app {

void throw_unless_ok(const usercode::WorkerReply& reply) {
  if (reply.outcome == usercode::RunOutcome::Ok) return;
  const std::string hint = reply.outcome == usercode::RunOutcome::TimedOut
                               ? "fix the loop and run again"
                               : "fix the kernel and run again; the next run starts a fresh worker";
  throw Error(reply.outcome == usercode::RunOutcome::LaunchRefused ? ErrorKind::Usage : ErrorKind::Device,
              reply.message, hint);
}

}  // namespace ks::app
