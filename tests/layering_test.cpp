// The house rules of the source tree (STYLE.md 1, 16, 17), checked on the files themselves so that
// a change breaking one fails here instead of in review:
// - only profiles/ holds SQL text (it owns the store's schema and every statement over it);
// - nothing outside profiles/ includes profiles/detail/ (private to that layer);
// - no tracked file over 1 MB outside the data folders of examples/, fuzz/ and tests/, and no
//   file named "-" (what a tool writes when it takes "-" for a file name).
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "planner/planner.h"  // the whole facade compiles on its own
#include "tests/support/test_support.h"

namespace perfplan::testing {
namespace {

namespace fs = std::filesystem;

// C++ sources under `folder` (relative to the source tree).
std::vector<fs::path> Sources(const std::string& folder) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(SourceDir()) / folder)) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".cpp" || ext == ".h")) out.push_back(e.path());
  }
  return out;
}

// "file:line: text" of every line of `folder`'s sources that matches `pattern`, one per line.
std::string Matches(const std::string& folder, const std::regex& pattern) {
  std::string hits;
  for (const auto& path : Sources(folder)) {
    std::ifstream in(path);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      if (std::regex_search(line, pattern)) {
        hits += fs::relative(path, SourceDir()).string() + ":" + std::to_string(n) + ": " + line +
                "\n";
      }
    }
  }
  return hits;
}

const char* const kLayersAboveProfiles[] = {"models", "tuning", "planner", "bench", "fuzz"};

TEST_CASE("no SQL statement is written outside profiles/") {
  // A string literal that starts a statement: "SELECT …", "INSERT INTO …", "CREATE TABLE …".
  const std::regex sql(R"re("\s*(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|UNIQUE))\b)re");
  for (const std::string folder : kLayersAboveProfiles) {
    CAPTURE(folder);
    CHECK(Matches(folder, sql) == "");
  }
}

TEST_CASE("profiles/detail/ is included only inside profiles/") {
  const std::regex include(R"(#include\s+"profiles/detail/)");
  for (const std::string folder : kLayersAboveProfiles) {
    CAPTURE(folder);
    CHECK(Matches(folder, include) == "");
  }
  CHECK(Matches("tests", include) == "");
}

TEST_CASE("no tracked file is over 1 MB outside the data folders, and none is named -") {
  const fs::path root = SourceDir();
  if (!fs::exists(root / ".git")) {
    MESSAGE("skipped: " << root.string() << " is not a git checkout");
    return;
  }
  std::FILE* pipe = ::popen(("git -C '" + root.string() + "' ls-files -z").c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string listing;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) listing.append(buffer, n);
  REQUIRE(::pclose(pipe) == 0);
  constexpr std::uintmax_t kMaxBytes = 1u << 20;
  std::string too_big, dash;
  std::istringstream files(listing);
  for (std::string file; std::getline(files, file, '\0');) {
    if (fs::path(file).filename() == "-") dash += file + "\n";
    const bool data_folder = file.rfind("examples/", 0) == 0 || file.rfind("fuzz/", 0) == 0 ||
                             file.rfind("tests/data/", 0) == 0;
    std::error_code ec;
    const auto bytes = fs::file_size(root / file, ec);
    if (!ec && bytes > kMaxBytes && !data_folder) too_big += file + "\n";
  }
  CHECK(dash == "");
  CHECK(too_big == "");
}

}  // namespace
}  // namespace perfplan::testing
