// Helpers shared by every perfplan test executable: where the source tree, the build tree and the
// real public data (../shared/data) are, and scratch folders. Tests never write outside a folder
// returned by MakeTempDir().
#pragma once

#include <string>
#include <vector>

namespace perfplan::testing {

// Absolute path of the repository's source tree, e.g. "/work/main".
std::string SourceDir();
// Absolute path of the CMake build tree (where the perfplan binary is built).
std::string BinaryDir();
// ../shared/data resolved relative to the source tree. May not exist.
std::string SharedDataDir();
bool SharedDataAvailable();

// Marks the test executable as reading ../shared/data. When the folder is absent the executable
// prints why and exits 77, which CTest reports as skipped, never as passed. Use once per file:
//   PERFPLAN_REQUIRE_SHARED_DATA();
struct SharedDataRequirement {
  SharedDataRequirement();
};
bool SharedDataRequired();
#define PERFPLAN_REQUIRE_SHARED_DATA() \
  static const ::perfplan::testing::SharedDataRequirement perfplan_shared_data_requirement_

// A fresh empty folder under $TMPDIR (or /tmp); removed when the test process exits.
std::string MakeTempDir();

// Reads a whole file; throws std::runtime_error naming the path when it cannot.
std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& contents);

// What one run of the perfplan binary printed and how it exited (-1: killed by a signal).
struct CliRun {
  int exit_code = -1;
  std::string out;
};
// Runs BinaryDir()/perfplan with `args` (already shell-quoted) through the shell, capturing
// stdout; `redirect` is appended to the command ("2>&1" captures stderr too). Throws
// std::runtime_error when the shell cannot be started.
CliRun RunPerfplan(const std::string& args, const std::string& redirect = "2>/dev/null");

// Starts BinaryDir()/perfplan with `args` (no shell) in a child process, stdout and stderr
// discarded; returns its pid. For tests that signal the process (crash safety).
int StartPerfplan(const std::vector<std::string>& args);
// Waits for a child started by StartPerfplan: its exit code, or -1 when a signal ended it.
int WaitPerfplan(int pid);
// StartPerfplan, SIGKILL after `kill_after_microseconds` (< 0: never), WaitPerfplan. True when
// the process exited 0 before the kill; false when the kill ended it. Throws std::runtime_error
// when it exited with another code.
bool RunPerfplanKilledAfter(const std::vector<std::string>& args, long kill_after_microseconds);

}  // namespace perfplan::testing
