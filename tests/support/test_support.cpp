#include "tests/support/test_support.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tests/support/cli_run.h"
#include "tests/support/kill_resume.h"

namespace perfplan::testing {
namespace {

bool g_shared_data_required = false;

struct TempDirs {
  std::mutex mu;
  std::vector<std::filesystem::path> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
  }
};

TempDirs& AllTempDirs() {
  static TempDirs dirs;
  return dirs;
}

}  // namespace

std::string SourceDir() { return PERFPLAN_SOURCE_DIR; }
std::string BinaryDir() { return PERFPLAN_BINARY_DIR; }

std::string SharedDataDir() {
  std::error_code ec;
  auto p = std::filesystem::weakly_canonical(PERFPLAN_SHARED_DATA_DIR, ec);
  return ec ? std::string(PERFPLAN_SHARED_DATA_DIR) : p.string();
}

bool SharedDataAvailable() {
  std::error_code ec;
  return std::filesystem::is_directory(SharedDataDir(), ec);
}

SharedDataRequirement::SharedDataRequirement() { g_shared_data_required = true; }
bool SharedDataRequired() { return g_shared_data_required; }

std::string MakeTempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/perfplan-test-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + pattern);
  auto& dirs = AllTempDirs();
  std::lock_guard<std::mutex> lock(dirs.mu);
  dirs.dirs.emplace_back(buf.data());
  return buf.data();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw std::runtime_error("cannot write " + path);
  out << contents;
}

CliRun RunShell(const std::string& command) {
  std::FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run " + command);
  CliRun run;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

CliRun RunPerfplan(const std::string& args, const std::string& redirect) {
  return RunShell(BinaryDir() + "/perfplan " + args + " " + redirect);
}

int StartPerfplan(const std::vector<std::string>& args) {
  const std::string binary = BinaryDir() + "/perfplan";
  std::vector<char*> argv = {const_cast<char*>(binary.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

int WaitPerfplan(int pid) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed");
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool RunPerfplanKilledAfter(const std::vector<std::string>& args, long kill_after_microseconds) {
  const int pid = StartPerfplan(args);
  if (kill_after_microseconds >= 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(kill_after_microseconds));
    kill(pid, SIGKILL);
  }
  const int code = WaitPerfplan(pid);
  if (code == -1) return false;
  if (code != 0) {
    throw std::runtime_error("perfplan exited with " + std::to_string(code) + " (expected 0)");
  }
  return true;
}

KillReport KillAndResume(const KillSchedule& schedule, const std::string& dir,
                         const std::function<std::vector<std::string>(const std::string& db)>& args,
                         const std::function<void(int n)>& add_inputs,
                         const std::function<std::int64_t(const std::string& db)>& committed) {
  const std::string killed_db = dir + "/killed.db";
  KillReport report;
  add_inputs(24);
  const auto t0 = std::chrono::steady_clock::now();
  RunPerfplanKilledAfter(args(dir + "/timing.db"), -1);
  report.clean_us = static_cast<long>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0)
          .count());
  std::mt19937 rng(schedule.seed);
  std::uniform_int_distribution<int> delay(0, static_cast<int>(report.clean_us));
  std::int64_t seen = 0;
  while (report.kills < schedule.kills) {
    if (++report.runs >= schedule.max_runs) {
      throw std::runtime_error(std::to_string(report.runs) + " runs and only " +
                               std::to_string(report.kills) + " kills");
    }
    if (RunPerfplanKilledAfter(args(killed_db), delay(rng))) {
      add_inputs(4);
      continue;
    }
    ++report.kills;
    if (!std::filesystem::exists(killed_db)) continue;
    const std::int64_t now = committed(killed_db);
    if (now > seen) ++report.progressed;
    seen = now;
  }
  RunPerfplanKilledAfter(args(killed_db), -1);
  return report;
}

}  // namespace perfplan::testing
