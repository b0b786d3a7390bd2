// One run of the perfplan binary with its stderr kept apart from stdout, for the CLI tests that
// assert exact error texts, and the shell runner under it (defined in test_support.cpp, where
// RunPerfplan uses it too).
#pragma once

#include <string>
#include <utility>

#include "tests/support/test_support.h"

namespace perfplan::testing {

struct CliResult {
  int exit_code = -1;  // -1: ended by a signal
  std::string out;
  std::string err;
};

// Runs `command` through the shell, capturing its stdout; throws std::runtime_error (the test
// fails) when the shell cannot be started. The runner under RunPerfplan (test_support.cpp).
CliRun RunShell(const std::string& command);

// Runs BinaryDir()/perfplan with `args` (already shell-quoted) through the shell, capturing stdout
// and stderr; in the folder `dir` when it is not empty, so relative paths resolve there.
inline CliResult RunCli(const std::string& args, const std::string& dir = "") {
  const std::string err_file = MakeTempDir() + "/stderr";
  CliRun run = RunShell((dir.empty() ? "" : "cd '" + dir + "' && ") + "'" + BinaryDir() +
                        "/perfplan' " + args + " 2>'" + err_file + "'");
  return {run.exit_code, std::move(run.out), ReadFile(err_file)};
}

}  // namespace perfplan::testing
