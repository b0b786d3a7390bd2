// Replays the fuzz corpora through the fuzz targets (fuzz/*_fuzz.cpp) in the normal build: every
// seed in fuzz/corpus/<target>/ and every input a fuzzing campaign found crashing, hanging or
// leaking, minimized, in fuzz/regressions/<target>/ (docs/reliability.md lists them). A target
// signals a broken invariant with __builtin_trap, so a regression shows up as this test crashing;
// ASan/UBSan findings show up under the sanitizer build of the suite.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

#define PERFPLAN_DECLARE_FUZZ_TARGET(name) \
  extern "C" int FuzzOne_##name(const std::uint8_t* data, std::size_t size);
PERFPLAN_DECLARE_FUZZ_TARGET(request_decoder)
PERFPLAN_DECLARE_FUZZ_TARGET(http_request)
PERFPLAN_DECLARE_FUZZ_TARGET(ganglia)
PERFPLAN_DECLARE_FUZZ_TARGET(spark_event_log)
PERFPLAN_DECLARE_FUZZ_TARGET(spark_stream)
PERFPLAN_DECLARE_FUZZ_TARGET(hdfs_line)
PERFPLAN_DECLARE_FUZZ_TARGET(profile)
PERFPLAN_DECLARE_FUZZ_TARGET(run_tables)
PERFPLAN_DECLARE_FUZZ_TARGET(train_filter)
PERFPLAN_DECLARE_FUZZ_TARGET(mixture)

namespace perfplan {
namespace {

using FuzzOne = int (*)(const std::uint8_t*, std::size_t);

// The files of fuzz/<folder>/<target>/ in name order (none when the folder does not exist).
std::vector<std::filesystem::path> Inputs(const std::string& folder, const std::string& target) {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path dir =
      std::filesystem::path(testing::SourceDir()) / "fuzz" / folder / target;
  if (!std::filesystem::is_directory(dir)) return files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Runs every seed and regression input of `target`; returns how many ran.
std::size_t Replay(const std::string& target, FuzzOne fuzz_one) {
  std::size_t ran = 0;
  for (const char* folder : {"corpus", "regressions"}) {
    for (const std::filesystem::path& file : Inputs(folder, target)) {
      std::ifstream in(file, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      INFO("input: ", file.string());
      CHECK(fuzz_one(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()) == 0);
      ++ran;
    }
  }
  // The empty input is every target's first case.
  CHECK(fuzz_one(nullptr, 0) == 0);
  return ran;
}

#define PERFPLAN_REPLAY_CASE(name)                                                  \
  TEST_CASE("fuzz target " #name " accepts its seeds and every recorded finding") { \
    CHECK(Replay(#name, &FuzzOne_##name) > 0);                                      \
  }

PERFPLAN_REPLAY_CASE(request_decoder)
PERFPLAN_REPLAY_CASE(http_request)
PERFPLAN_REPLAY_CASE(ganglia)
PERFPLAN_REPLAY_CASE(spark_event_log)
PERFPLAN_REPLAY_CASE(spark_stream)
PERFPLAN_REPLAY_CASE(hdfs_line)
PERFPLAN_REPLAY_CASE(profile)
PERFPLAN_REPLAY_CASE(run_tables)
PERFPLAN_REPLAY_CASE(train_filter)
PERFPLAN_REPLAY_CASE(mixture)

}  // namespace
}  // namespace perfplan
