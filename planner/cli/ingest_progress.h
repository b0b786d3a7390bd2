// The progress line of `ingest spark` and `ingest hdfs` on a terminal (stderr only):
// "[3/8 logs, 412 MiB, 96 MiB/s]", rewritten in place after each log or node.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

#include "planner/cli/command.h"

namespace perfplan::cli {

// A progress callback (done, total, bytes so far) printing to ctx.err, or an empty function when
// stderr is not a terminal. `unit` names what is counted ("logs", "nodes").
inline std::function<void(std::size_t, std::size_t, std::int64_t)> TerminalProgress(
    CliContext& ctx, std::string unit) {
  if (isatty(STDERR_FILENO) == 0) return {};
  const auto start = std::chrono::steady_clock::now();
  return [&ctx, start, unit = std::move(unit)](std::size_t done, std::size_t total,
                                                std::int64_t bytes) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    *ctx.err << "\r[" << done << "/" << total << " " << unit << ", " << bytes / (1 << 20)
             << " MiB, " << static_cast<std::int64_t>(s > 0 ? bytes / s / (1 << 20) : 0)
             << " MiB/s]" << std::flush;
    if (done == total) *ctx.err << "\n";
  };
}

}  // namespace perfplan::cli
