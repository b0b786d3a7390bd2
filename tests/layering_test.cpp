// The house rules of the source tree (STYLE.md 1, 16, 17), checked on the files themselves so that
// a change breaking one fails here instead of in review:
// - only profiles/ holds SQL text (it owns the store's schema and every statement over it);
// - nothing outside profiles/ includes profiles/detail/ (private to that layer);
// - no range-for walks a member of a temporary json::parse() document (ASan found it twice);
// - no tracked file over 1 MB outside the data folders of examples/, fuzz/ and tests/, and no
//   file named "-" (what a tool writes when it takes "-" for a file name);
// - messages of models/, profiles/ and tuning/ name struct fields and inputs, never a command-line
//   flag: only the CLI knows flags (it translates field → flag).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
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

// "NAME:LINE: \"literal\"" of every ordinary string literal in the C++ `text` whose contents match
// `pattern`, one per line. Comments, character literals and raw strings are passed over.
std::string LiteralMatchesIn(const std::string& name, const std::string& text,
                             const std::regex& pattern) {
  std::string hits;
  int line = 1;
  auto skip_to = [&](std::size_t from, std::size_t stop) {
    line += static_cast<int>(std::count(text.begin() + from, text.begin() + stop, '\n'));
    return stop;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (text.compare(i, 2, "//") == 0) {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      i = skip_to(i, end == std::string::npos ? text.size() : end + 1);
    } else if (text.compare(i, 2, "R\"") == 0 && text.find('(', i) != std::string::npos) {
      const std::size_t open = text.find('(', i);
      const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = text.find(close, open);
      i = skip_to(i, end == std::string::npos ? text.size() : end + close.size() - 1);
    } else if (c == '\'' || c == '"') {
      std::string literal;
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) literal += text[i++];
        literal += text[i];
      }
      if (c == '"' && std::regex_search(literal, pattern)) {
        hits += name + ":" + std::to_string(line) + ": \"" + literal + "\"\n";
      }
    }
  }
  return hits;
}

// LiteralMatchesIn over every source file of `folder`.
std::string LiteralMatches(const std::string& folder, const std::regex& pattern) {
  std::string hits;
  for (const auto& path : Sources(folder)) {
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    hits += LiteralMatchesIn(fs::relative(path, SourceDir()).string(), text, pattern);
  }
  return hits;
}

// "--name" at the start of a literal or after a space, quote or bracket ("rw-r--r--" is fine).
const std::regex kFlagSpelling(R"re((^|[\s"('`=,])--[a-z])re");

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

TEST_CASE("no range-for walks a member of a temporary parsed JSON document") {
  // A range-for over a member of the temporary that json::parse returns iterates memory freed
  // before the loop body runs (a heap-use-after-free ASan found twice in tests): name the
  // document first.
  const std::regex loop(R"re(for\s*\([^;{]*:\s*(nlohmann::)?json::parse\([^;{]*\)\s*(\[|\.at\())re");
  for (const std::string folder : {"models", "profiles", "tuning", "planner", "bench", "tests"}) {
    CAPTURE(folder);
    CHECK(Matches(folder, loop) == "");
  }
}

TEST_CASE("models/, profiles/ and tuning/ never spell a command-line flag in a message") {
  for (const std::string folder : {"models", "profiles", "tuning"}) {
    CAPTURE(folder);
    CHECK(LiteralMatches(folder, kFlagSpelling) == "");
  }
}

TEST_CASE("the flag check reads string literals only") {
  const std::string text =
      "// see --train\n"
      "/* --to\n   --from */ int a = --b;\n"
      "const char* p = \"rw-r--r--\", *q = \"\\\"--quoted\";\n"
      "char c = '\"'; auto r = R\"x(--raw \")x\";\n"
      "Fail(\"window: --to must be after --from\");\n";
  CHECK(LiteralMatchesIn("probe.cpp", text, kFlagSpelling) ==
        "probe.cpp:4: \"\\\"--quoted\"\n"
        "probe.cpp:6: \"window: --to must be after --from\"\n");
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
