#include <doctest/doctest.h>

#include "profiles/ganglia/ganglia.h"
#include "tests/support/result_checks.h"

namespace perfplan::profiles {
namespace {

TEST_CASE("Ambari text: repeats count the value already given, [~n] leaves a gap") {
  const char* text =
      "100\nsum\nc\nh\nm\n1000\n10\n1.5\n[~r]3\n[~n]\n[~r]2\n4\n[~EOM]\n[~EOF]\n101\n";
  const auto r = testing::ValueOf(ParseAmbariRrdText(text, "a.txt"));
  const GangliaSeries& s = r.series.at(0);
  using P = std::pair<std::int64_t, double>;
  // 1.5 at 1000, repeated to 3 points in all (1010, 1020); two gaps (1030, 1040); 4 at 1050.
  CHECK(s.points == std::vector<P>{{1000, 1.5}, {1010, 1.5}, {1020, 1.5}, {1050, 4}});
  CHECK(s.missing == 2);
  CHECK(s.step_seconds == 10);
}

TEST_CASE("Ambari text errors name the line and what was expected") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"x\n", "a.txt:1: first line 'x' is not the server epoch (a number)"},
      {"100\nsum\nc\nh\nm\n1000\n10\nabc\n[~EOM]\n[~EOF]\n",
       "a.txt:8: value 'abc' is not a number, [~n], [~r]N or [~EOM]"},
      {"100\nsum\nc\nh\nm\n1000\n0\n", "a.txt:7: step '0' is not a number of seconds in [1, 1e9]"},
      {"100\nsum\nc\nh\nm\n1000\n10\n[~r]2\n",
       "a.txt:8: repeat '[~r]2' has no previous value to repeat"},
      {"100\nsum\nc\nh\nm\n1000\n10\n1\n[~r]99999999999\n",
       "a.txt:9: repeat '[~r]99999999999' makes the export longer than 10000000 points (points "
       "and gaps over all its series; split the export by host or time)"},
      {"100\nsum\nc\nh\nm\n1000\n10\n1\n", "a.txt: series c/h/m ends without [~EOM]"},
      {"100\nsum\nc\n", "a.txt: block 'sum' ends before its host name"},
      {"100\nsum\nc\nh\nm\n1000\n10\n[~EOM]\n",
       "a.txt: ends after line 8 without [~EOF] (the export was cut off)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const Status r = testing::ErrorOf(ParseAmbariRrdText(c.text, "a.txt"));
    CHECK(r.message() == c.message);
  }
}

TEST_CASE("Ambari text: the points bound is over the whole export, not per series") {
  // Two series of 1 + 5 points and 1 + 4: ten points, the bound given here.
  const std::string block = "sum\nc\nh\nm\n1000\n10\n1\n[~r]5\n[~n]\n[~EOM]\n";
  const std::string ok = "100\n" + block + "sum\nc\nh2\nm\n1000\n10\n2\n[~r]4\n[~EOM]\n[~EOF]\n";
  const auto r = testing::ValueOf(ParseAmbariRrdText(ok, "a.txt", 10));
  CHECK(r.series.size() == 2);
  CHECK(r.series[0].points.size() + r.series[0].missing == 6);
  CHECK(r.series[1].points.size() == 4);
  // One more point in the second series crosses it, by a repeat or by a line of its own.
  const std::string by_repeat = "100\n" + block + "sum\nc\nh2\nm\n1000\n10\n2\n[~r]5\n[~EOM]\n[~EOF]\n";
  CHECK(testing::ErrorOf(ParseAmbariRrdText(by_repeat, "a.txt", 10)).message() ==
        "a.txt:19: repeat '[~r]5' makes the export longer than 10 points (points and gaps over "
        "all its series; split the export by host or time)");
  const std::string by_line = "100\n" + block + "sum\nc\nh2\nm\n1000\n10\n2\n[~r]4\n3\n[~EOM]\n[~EOF]\n";
  CHECK(testing::ErrorOf(ParseAmbariRrdText(by_line, "a.txt", 10)).message() ==
        "a.txt:20: the export holds more than 10 points (points and gaps over all its series; "
        "split the export by host or time)");
}

TEST_CASE("ganglia-web JSON: null and NaN are gaps; bad points are located") {
  const auto ok = testing::ValueOf(ParseGangliaWebJson(
      R"([{"ds_name":"a0","cluster_name":"c","host_name":"h","metric_name":"m",)"
      R"("datapoints":[[1,10],[null,20],["NaN",30],[2.5,40]]}])",
      "g.json"));
  CHECK(ok.series[0].points.size() == 2);
  CHECK(ok.series[0].missing == 2);
  CHECK(ok.series[0].host == "h");
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {R"({"a":1})",
       "g.json: expected a JSON array of series objects (ganglia-web graph.php?json=1)"},
      {R"([{"datapoints":[["x",1]]}])",
       R"(g.json: [0].datapoints[0][0]: value "x" is not a number, null or "NaN")"},
      {R"([{"datapoints":[[1,1.5]]}])",
       "g.json: [0].datapoints[0][1]: epoch 1.5 is not a whole number of seconds"},
      {R"([{"metric_name":3,"datapoints":[]}])", "g.json: [0].metric_name: expected a string"},
      {R"([{"datapoints":[[1,1e400]]}])",
       "g.json: malformed JSON: [json.exception.out_of_range.406] number overflow parsing '1e400'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const Status r = testing::ErrorOf(ParseGangliaWebJson(c.text, "g.json"));
    CHECK(r.message() == c.message);
  }
}

}  // namespace
}  // namespace perfplan::profiles
