#include "profiles/skip_tally.h"

#include <doctest/doctest.h>

#include <string>

namespace perfplan::profiles {
namespace {

TEST_CASE("SkipReasonOf keeps the text before the first \": \" and writes numbers as N") {
  CHECK(SkipReasonOf("invalid JSON") == "invalid JSON");
  CHECK(SkipReasonOf("corrupt zstd stream: Unknown frame descriptor") == "corrupt zstd stream");
  CHECK(SkipReasonOf("line longer than 67108864 bytes (the maximum line length); skipped") ==
        "line longer than N bytes (the maximum line length); skipped");
  CHECK(SkipReasonOf("task 17 of stage 3.1 has no Finish Time") ==
        "task N of stage N.N has no Finish Time");
  CHECK(SkipReasonOf("no log4j timestamp at the start of the line") ==
        "no log4j timestamp at the start of the line");
  CHECK(SkipReasonOf("") == "");
}

// An ingester's record of one skip, as the tally sees it: where, and the message.
struct Skip {
  std::string where, message;
};
const std::string& SkipMessageOf(const Skip& s) { return s.message; }

TEST_CASE("SkipTally counts every skip and keeps the first 10 of each reason") {
  SkipTally<Skip> tally;
  for (int i = 1; i <= 25; ++i) tally.Add({"a.log:" + std::to_string(i), "invalid JSON"});
  tally.Add({"a.log:26", "truncated last line (no line end, not valid JSON)"});
  for (int i = 27; i <= 29; ++i) {
    tally.Add({"a.log:" + std::to_string(i), "task " + std::to_string(i) + " has no Finish Time"});
  }
  CHECK(tally.total() == 29);
  REQUIRE(tally.examples().size() == 14);
  CHECK(tally.examples()[0].where == "a.log:1");
  CHECK(tally.examples()[9].where == "a.log:10");
  CHECK(tally.examples()[10].where == "a.log:26");  // the 11th invalid line was counted, not kept
  CHECK(tally.examples()[13].where == "a.log:29");
  const auto reasons = tally.Reasons();
  REQUIRE(reasons.size() == 3);
  CHECK(reasons[0].reason == "invalid JSON");
  CHECK(reasons[0].count == 25);
  CHECK(reasons[1].reason == "task N has no Finish Time");
  CHECK(reasons[1].count == 3);
  CHECK(reasons[2].reason == "truncated last line (no line end, not valid JSON)");
  CHECK(reasons[2].count == 1);
}

TEST_CASE("SkipTally::Merge caps each reason at 10 kept examples across both tallies") {
  SkipTally<Skip> all, file;
  for (int i = 0; i < 8; ++i) all.Add({"a:" + std::to_string(i), "invalid JSON"});
  for (int i = 0; i < 5; ++i) file.Add({"b:" + std::to_string(i), "invalid JSON"});
  file.Add({"b:9", "no \"Event\" field"});
  all.Merge(std::move(file));
  CHECK(all.total() == 14);
  REQUIRE(all.examples().size() == 11);  // 8 + 2 invalid JSON, and the one "no Event"
  CHECK(all.examples()[8].where == "b:0");
  CHECK(all.examples()[9].where == "b:1");
  CHECK(all.examples()[10].where == "b:9");
  const auto reasons = all.Reasons();
  REQUIRE(reasons.size() == 2);
  CHECK(reasons[0].count == 13);
  CHECK(reasons[1].count == 1);
}

}  // namespace
}  // namespace perfplan::profiles
