#include "tests/support/test_support.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <vector>

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

}  // namespace perfplan::testing
