// Every Ganglia file in ../shared/data/03-ganglia parses, with the contents data/README.md states.
#include <doctest/doctest.h>

#include <map>

#include "profiles/ganglia/ganglia.h"
#include "tests/support/test_support.h"

namespace perfplan::profiles {
namespace {

PERFPLAN_REQUIRE_SHARED_DATA();

std::string Data(const std::string& rel) { return testing::SharedDataDir() + "/03-ganglia/" + rel; }

TEST_CASE("The real gmond 3.7.2 reply parses: 1 host, 32 metrics, the documented types") {
  Result<GangliaFile> r = ReadGangliaFile(Data("gmond-3.7.2-loopback.xml"));
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  REQUIRE(r.value().kind == GangliaFileKind::kXml);
  const GangliaSnapshot& s = *r.value().snapshot;
  CHECK(s.version == "3.7.2");
  CHECK(s.source == "gmond");
  CHECK(s.grids.empty());
  REQUIRE(s.clusters.size() == 1);
  CHECK(s.clusters[0].name == "probe");
  REQUIRE(s.clusters[0].hosts.size() == 1);
  const GangliaHost& h = s.clusters[0].hosts[0];
  CHECK(h.name == "localhost");
  CHECK(h.ip == "127.0.0.1");
  CHECK(h.tmax_seconds == 20);
  REQUIRE(h.metrics.size() == 32);
  std::map<std::string, int> types, groups;
  for (const GangliaMetric& m : h.metrics) {
    ++types[std::string(ToString(m.type))];
    ++groups[m.Group()];
    CHECK(m.value.has_value() == IsNumeric(m.type));
  }
  CHECK(types == std::map<std::string, int>{
                     {"float", 21}, {"uint32", 4}, {"string", 4}, {"double", 2}, {"uint16", 1}});
  CHECK(groups == std::map<std::string, int>{{"cpu", 8},
                                             {"memory", 7},
                                             {"network", 4},
                                             {"system", 4},
                                             {"disk", 3},
                                             {"load", 3},
                                             {"process", 2},
                                             {"core", 1}});
  for (const GangliaMetric& m : h.metrics) {
    if (m.name == "load_one") CHECK(m.units == " ");
    if (m.name == "gexec") CHECK(m.text == "OFF");
    if (m.name == "swap_total") CHECK(m.value == 0.0);
  }
}

TEST_CASE("The Ambari rrd.py text exports parse with repeats and gaps as Ambari reads them") {
  struct Case {
    const char* file;
    std::size_t series;
    std::int64_t server_epoch;
  };
  const Case cases[] = {{"ambari/temporal_ganglia_data.txt", 7, 1358487599},
                        {"ambari/host_temporal_ganglia_data.txt", 8, 1389142901},
                        {"ambari/journalnode_ganglia_data.txt", 120, 1378331362}};
  for (const Case& c : cases) {
    CAPTURE(c.file);
    Result<GangliaFile> r = ReadGangliaFile(Data(c.file));
    REQUIRE_MESSAGE(r.ok(), r.status().message());
    REQUIRE(r.value().kind == GangliaFileKind::kAmbariText);
    CHECK(r.value().exported->series.size() == c.series);
    CHECK(r.value().exported->server_epoch == c.server_epoch);
  }
  // First block of temporal_ganglia_data.txt: 0.0 [~r]10 7.0 [~r]10 0.0 [~r]86 at 360 s steps.
  Result<GangliaFile> r = ReadGangliaFile(Data("ambari/temporal_ganglia_data.txt"));
  REQUIRE(r.ok());
  const GangliaSeries& first = r.value().exported->series.at(0);
  CHECK(first.cluster == "HDPTaskTracker");
  CHECK(first.host == "domU-12-31-39-0E-34-E1.compute-1.internal");
  CHECK(first.metric == "mapred.shuffleOutput.shuffle_exceptions_caught");
  CHECK(first.step_seconds == 360);
  REQUIRE(first.points.size() == 10 + 10 + 86);
  CHECK(first.points[0] == std::pair<std::int64_t, double>{1358434800, 0.0});
  CHECK(first.points[10] == std::pair<std::int64_t, double>{1358434800 + 10 * 360, 7.0});
  CHECK(first.points[20].second == 0.0);
  CHECK(first.missing == 0);
  // The second block has a "[~n]" followed by "[~r]10": 10 missing points.
  CHECK(r.value().exported->series.at(1).missing == 10);
}

TEST_CASE("The ganglia-web graph.php JSON export parses") {
  Result<GangliaFile> r = ReadGangliaFile(Data("ambari/temporal_ganglia_report_data.json"));
  REQUIRE_MESSAGE(r.ok(), r.status().message());
  REQUIRE(r.value().kind == GangliaFileKind::kGangliaWebJson);
  const auto& series = r.value().exported->series;
  REQUIRE(series.size() == 4);
  CHECK(series[0].metric == "1-min");
  CHECK(series[0].ds_name == "a0");
  CHECK(series[0].host == "__SummaryInfo__");
  CHECK(series[2].metric == "CPUs ");
  CHECK(series[0].points.front() == std::pair<std::int64_t, double>{1365534060, 1.95});
  CHECK(series[3].points.back() == std::pair<std::int64_t, double>{1365537525, 5.0});
}

TEST_CASE("Every truncation of the real files is an error, never a crash") {
  // A gmond that dies mid-reply, or a file cut by a full disk, must give a located error.
  const std::string xml = testing::ReadFile(Data("gmond-3.7.2-loopback.xml"));
  for (std::size_t n = 0; n < xml.size(); n += 7) {
    CAPTURE(n);
    Result<GangliaSnapshot> r = ParseGangliaXml(std::string_view(xml).substr(0, n), "cut");
    CHECK_FALSE(r.ok());
  }
  const std::string text = testing::ReadFile(Data("ambari/temporal_ganglia_data.txt"));
  for (std::size_t n = 0; n + 1 < text.size(); n += 5) {
    CAPTURE(n);
    // A cut inside a number can still be a number, so only "no crash" and "not ok" once the
    // closing [~EOF] is gone are checked.
    Result<GangliaExport> r = ParseAmbariRrdText(std::string_view(text).substr(0, n), "cut");
    if (text.substr(0, n).find("[~EOF]") == std::string::npos) CHECK_FALSE(r.ok());
  }
}

}  // namespace
}  // namespace perfplan::profiles
