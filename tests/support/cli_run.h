// One run of the perfplan binary with its stderr kept apart from stdout, for the CLI tests that
// assert exact error texts, and the shell runner under it. Header only (the tests link doctest).
#pragma once

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>
#include <utility>

#include "tests/support/test_support.h"

namespace perfplan::testing {

struct CliResult {
  int exit_code = -1;  // -1: ended by a signal
  std::string out;
  std::string err;
};

// Runs `command` through the shell, capturing its stdout (REQUIRE fails when it cannot start).
inline CliRun RunShell(const std::string& command) {
  CliRun r;
  std::FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Runs BinaryDir()/perfplan with `args` (already shell-quoted) through the shell, capturing stdout
// and stderr; in the folder `dir` when it is not empty, so relative paths resolve there.
inline CliResult RunCli(const std::string& args, const std::string& dir = "") {
  const std::string err_file = MakeTempDir() + "/stderr";
  CliRun run = RunShell((dir.empty() ? "" : "cd '" + dir + "' && ") + "'" + BinaryDir() +
                        "/perfplan' " + args + " 2>'" + err_file + "'");
  return {run.exit_code, std::move(run.out), ReadFile(err_file)};
}

}  // namespace perfplan::testing
