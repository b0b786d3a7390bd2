// Shared by the fuzz targets whose parser reads only from a path: one temp folder per process
// (removed at exit), files in it rewritten for each input. Not thread-safe (libFuzzer runs one
// input at a time).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

namespace perfplan::fuzz {

// The process's temp folder, created on first use.
inline const std::string& TempDir() {
  static const std::string dir = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "perfplan-fuzz-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) std::abort();
    static struct Cleanup {
      std::string path;
      ~Cleanup() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
      }
    } cleanup{pattern};
    return pattern;
  }();
  return dir;
}

// Writes `bytes` to TempDir()/name (replacing it) and returns the path; aborts on I/O failure.
inline std::string WriteTempFile(const std::string& name, std::string_view bytes) {
  const std::string path = TempDir() + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) std::abort();
  if (std::fclose(f) != 0) std::abort();
  return path;
}

}  // namespace perfplan::fuzz
