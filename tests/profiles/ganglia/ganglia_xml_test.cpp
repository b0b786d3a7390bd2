#include <doctest/doctest.h>

#include "profiles/ganglia/ganglia.h"
#include "tests/support/result_checks.h"

namespace perfplan::profiles {
namespace {

const char* kGmetad = R"(<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>
<GANGLIA_XML VERSION="3.7.2" SOURCE="gmetad">
<GRID NAME="top" AUTHORITY="http://a/ganglia/" LOCALTIME="1700000100">
<GRID NAME="inner" AUTHORITY="http://b/" LOCALTIME="1700000100">
<CLUSTER NAME="c1" LOCALTIME="1700000100" OWNER="o" LATLONG="l" URL="u">
<HOST NAME="h1" IP="10.0.0.1" REPORTED="1700000090" TN="10" TMAX="20" DMAX="0" LOCATION="r1" GMOND_STARTED="1699999000">
<METRIC NAME="s" VAL="Linux" TYPE="string" UNITS="" TN="1" TMAX="1200" DMAX="0" SLOPE="zero" SOURCE="gmond"/>
<METRIC NAME="i8" VAL="-128" TYPE="int8" UNITS="" TN="1" TMAX="60" DMAX="0" SLOPE="both"/>
<METRIC NAME="u8" VAL="255" TYPE="uint8" UNITS="" TN="1" TMAX="60" DMAX="0" SLOPE="both"/>
<METRIC NAME="i16" VAL="-32768" TYPE="int16" UNITS="" TN="1" TMAX="60" DMAX="0" SLOPE="both"/>
<METRIC NAME="u16" VAL="65535" TYPE="uint16" UNITS="" TN="1" TMAX="60" DMAX="0" SLOPE="both"/>
<METRIC NAME="i32" VAL="-2147483648" TYPE="int32" UNITS="" TN="1" TMAX="60" DMAX="0" SLOPE="both"/>
<METRIC NAME="u32" VAL="4294967295" TYPE="uint32" UNITS="" TN="1" TMAX="60" DMAX="0" SLOPE="positive"/>
<METRIC NAME="f" VAL="1.5" TYPE="float" UNITS="%" TN="5" TMAX="90" DMAX="0" SLOPE="both"/>
<METRIC NAME="d" VAL="2.5e3" TYPE="double" UNITS="GB" TN="5" TMAX="180" DMAX="3600" SLOPE="negative"/>
<METRIC NAME="t" VAL="1699999000" TYPE="timestamp" UNITS="s" TN="5" TMAX="1200" DMAX="0" SLOPE="zero">
<EXTRA_DATA>
<EXTRA_ELEMENT NAME="GROUP" VAL="system"/>
<EXTRA_ELEMENT NAME="DESC" VAL="boot &amp; time"/>
</EXTRA_DATA>
</METRIC>
</HOST>
</CLUSTER>
</GRID>
<CLUSTER NAME="summary" LOCALTIME="1700000100">
<HOSTS UP="3" DOWN="1" SOURCE="gmetad"/>
<METRICS NAME="load_one" SUM="2.25" NUM="3" TYPE="float" UNITS=" " SLOPE="both" SOURCE="gmond">
<EXTRA_DATA><EXTRA_ELEMENT NAME="GROUP" VAL="load"/></EXTRA_DATA>
</METRICS>
</CLUSTER>
<HOSTS UP="3" DOWN="1" SOURCE="gmetad"/>
<METRICS NAME="cpu_num" SUM="8" NUM="3" TYPE="uint16" UNITS="CPUs" SLOPE="zero" SOURCE="gmond"/>
</GRID>
</GANGLIA_XML>
)";

TEST_CASE("A gmetad document with nested grids, every TYPE and both summaries parses") {
  const GangliaSnapshot s = testing::ValueOf(ParseGangliaXml(kGmetad, "grid.xml"));
  CHECK(s.version == "3.7.2");
  CHECK(s.source == "gmetad");
  REQUIRE(s.grids.size() == 2);
  CHECK(s.grids[0].name == "top");
  CHECK(s.grids[1].name == "inner");
  REQUIRE(s.grids[0].hosts_summary.has_value());
  CHECK(s.grids[0].hosts_summary->up == 3);
  CHECK(s.grids[0].hosts_summary->down == 1);
  REQUIRE(s.grids[0].metric_summaries.size() == 1);
  CHECK(s.grids[0].metric_summaries[0].type == GangliaType::kUint16);
  REQUIRE(s.clusters.size() == 2);
  CHECK(s.clusters[0].grid == "inner");
  CHECK(s.clusters[1].grid == "top");
  const GangliaCluster& summary = s.clusters[1];
  REQUIRE(summary.hosts_summary.has_value());
  CHECK(summary.hosts_summary->source == "gmetad");
  REQUIRE(summary.metric_summaries.size() == 1);
  CHECK(summary.metric_summaries[0].sum == 2.25);
  CHECK(summary.metric_summaries[0].num == 3);
  CHECK(summary.metric_summaries[0].units == " ");
  CHECK(summary.metric_summaries[0].extra.size() == 1);

  const GangliaHost& h = s.clusters[0].hosts.at(0);
  CHECK(h.name == "h1");
  CHECK(h.ip == "10.0.0.1");
  CHECK(h.reported_epoch == 1700000090);
  CHECK(h.gmond_started_epoch == 1699999000);
  CHECK(h.location == "r1");
  REQUIRE(h.metrics.size() == 10);
  struct Expect {
    const char* name;
    GangliaType type;
    std::optional<double> value;
  };
  const Expect expected[] = {
      {"s", GangliaType::kString, std::nullopt},
      {"i8", GangliaType::kInt8, -128},
      {"u8", GangliaType::kUint8, 255},
      {"i16", GangliaType::kInt16, -32768},
      {"u16", GangliaType::kUint16, 65535},
      {"i32", GangliaType::kInt32, -2147483648.0},
      {"u32", GangliaType::kUint32, 4294967295.0},
      {"f", GangliaType::kFloat, 1.5},
      {"d", GangliaType::kDouble, 2500},
      {"t", GangliaType::kTimestamp, 1699999000},
  };
  for (std::size_t i = 0; i < 10; ++i) {
    CAPTURE(expected[i].name);
    CHECK(h.metrics[i].name == expected[i].name);
    CHECK(h.metrics[i].type == expected[i].type);
    CHECK(h.metrics[i].value == expected[i].value);
  }
  CHECK(h.metrics[0].text == "Linux");
  CHECK(h.metrics[0].source == "gmond");
  CHECK(h.metrics[8].dmax_seconds == 3600);
  CHECK(h.metrics[8].slope == GangliaSlope::kNegative);
  CHECK(h.metrics[9].Group() == "system");
  CHECK(h.metrics[9].extra.at(1).second == "boot & time");
  CHECK(s.MetricCount() == 10);
}

std::string OneMetric(const std::string& attrs) {
  return "<GANGLIA_XML VERSION=\"3.7.2\" SOURCE=\"gmond\">\n<CLUSTER NAME=\"c\">\n"
         "<HOST NAME=\"h\" IP=\"1.2.3.4\">\n<METRIC " +
         attrs + "/>\n</HOST>\n</CLUSTER>\n</GANGLIA_XML>\n";
}

TEST_CASE("A VAL that is not a number of its TYPE is an error with line and byte offset") {
  struct Case {
    const char* attrs;
    const char* message;
  };
  const Case cases[] = {
      {R"(NAME="load_one" VAL="x" TYPE="float")",
       "f.xml:4:2 (byte 94): HOST 'h' METRIC 'load_one': VAL 'x' is not a float"},
      {R"(NAME="n" VAL="" TYPE="double")",
       "f.xml:4:2 (byte 94): HOST 'h' METRIC 'n': VAL '' is not a double"},
      {R"(NAME="n" VAL="256" TYPE="uint8")",
       "f.xml:4:2 (byte 94): HOST 'h' METRIC 'n': VAL '256' is not a uint8 (an integer in [0, "
       "255])"},
      {R"(NAME="n" VAL="1.5" TYPE="int32")",
       "f.xml:4:2 (byte 94): HOST 'h' METRIC 'n': VAL '1.5' is not a int32 (an integer in "
       "[-2147483648, 2147483647])"},
      {R"(NAME="n" VAL="-1" TYPE="timestamp")",
       "f.xml:4:2 (byte 94): HOST 'h' METRIC 'n': VAL '-1' is not a timestamp (an integer in [0, "
       "4294967295])"},
      {R"(NAME="n" VAL="nan" TYPE="float")",
       "f.xml:4:2 (byte 94): HOST 'h' METRIC 'n': VAL 'nan' is not a float"},
      {R"(NAME="n" VAL="1" TYPE="long")",
       "f.xml:4:2 (byte 94): HOST 'h' METRIC 'n': unknown TYPE 'long' (expected string, int8, "
       "uint8, int16, uint16, int32, uint32, float, double or timestamp)"},
      {R"(NAME="n" VAL="1" TYPE="float" TN="soon")",
       "f.xml:4:2 (byte 94): HOST 'h' METRIC 'n': TN 'soon' is not an integer"},
      {R"(NAME="n" TYPE="float")", "f.xml:4:2 (byte 94): HOST 'h' METRIC 'n': missing VAL"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.attrs);
    const Status r = testing::ErrorOf(ParseGangliaXml(OneMetric(c.attrs), "f.xml"));
    CHECK(r.code() == StatusCode::kInvalidArgument);
    CHECK(r.message() == c.message);
  }
}

TEST_CASE("Malformed XML is reported with the parser's position") {
  const std::string truncated =
      "<GANGLIA_XML VERSION=\"3.7.2\" SOURCE=\"gmond\">\n<CLUSTER NAME=\"c\">\n";
  const Status r = testing::ErrorOf(ParseGangliaXml(truncated, "live"));
  CHECK(r.message() == "live:2:19 (byte 63): malformed XML: Start-end tags mismatch");
  const Status bad = testing::ErrorOf(ParseGangliaXml("<GANGLIA_XML>\n<CLUSTER NAME=\"c\" <", "x"));
  CHECK(bad.message() == "x:2:19 (byte 32): malformed XML: Error parsing start element tag");
}

TEST_CASE("A document that is not GANGLIA_XML is refused") {
  const Status r = testing::ErrorOf(ParseGangliaXml("<html><body/></html>", "page"));
  CHECK(r.message() ==
        "page: root element is <html> (expected GANGLIA_XML as served by gmond or gmetad)");
}

TEST_CASE("An unexpected element inside a HOST is located") {
  const std::string xml =
      "<GANGLIA_XML>\n<CLUSTER NAME=\"c\">\n<HOST NAME=\"h\">\n<METRICS NAME=\"m\"/>\n</HOST>\n"
      "</CLUSTER>\n</GANGLIA_XML>";
  const Status r = testing::ErrorOf(ParseGangliaXml(xml, "f"));
  CHECK(r.message() == "f:4:2 (byte 50): HOST 'h': unexpected element <METRICS> (expected METRIC)");
}

// A Ganglia 2.5.x gmond answer: no CLUSTER, the HOSTs sit directly under GANGLIA_XML.
const char* kGmond25 = R"(<?xml version="1.0" encoding="ISO-8859-1" standalone="yes"?>
<GANGLIA_XML VERSION="2.5.7" SOURCE="gmond">
<HOST NAME="node1.example.org" IP="10.1.0.11" REPORTED="1100000000" TN="3" TMAX="20" DMAX="0" LOCATION="unspecified">
<METRIC NAME="cpu_idle" VAL="75.0" TYPE="float" UNITS="%" TN="5" TMAX="90" DMAX="0" SLOPE="both" SOURCE="gmond"/>
</HOST>
<HOST NAME="node2.example.org" IP="10.1.0.12" REPORTED="1100000000" TN="3" TMAX="20" DMAX="0" LOCATION="unspecified">
<METRIC NAME="cpu_idle" VAL="50.0" TYPE="float" UNITS="%" TN="5" TMAX="90" DMAX="0" SLOPE="both" SOURCE="gmond"/>
</HOST>
</GANGLIA_XML>
)";

TEST_CASE("A Ganglia 2.5.x answer with HOSTs under GANGLIA_XML reads as one unnamed cluster") {
  const GangliaSnapshot r = testing::ValueOf(ParseGangliaXml(kGmond25, "old"));
  CHECK(r.version == "2.5.7");
  REQUIRE(r.clusters.size() == 1);
  const GangliaCluster& c = r.clusters[0];
  CHECK(c.name == "");
  CHECK(c.grid == "");
  CHECK(c.localtime_epoch == 0);
  REQUIRE(c.hosts.size() == 2);
  CHECK(c.hosts[0].name == "node1.example.org");
  CHECK(c.hosts[1].ip == "10.1.0.12");
  CHECK(c.hosts[1].metrics.at(0).value == 50.0);
  CHECK(r.MetricCount() == 2);
}

TEST_CASE("A saved telnet capture is read past its banner and its closing line") {
  const std::string capture = std::string("Trying 10.1.0.11...\r\nConnected to node1.\r\n") +
                              "Escape character is '^]'.\r\n" + kGmond25 +
                              "Connection closed by foreign host.\r\n";
  const GangliaSnapshot r = testing::ValueOf(ParseGangliaXml(capture, "capture.txt"));
  REQUIRE(r.clusters.size() == 1);
  CHECK(r.clusters[0].hosts.size() == 2);

  // Errors keep the capture's own line numbers (the banner is 3 lines).
  std::string bad = capture;
  bad.replace(bad.find("VAL=\"50.0\""), 10, "VAL=\"half\"");
  const Status e = testing::ErrorOf(ParseGangliaXml(bad, "capture.txt"));
  CHECK(e.message().rfind("capture.txt:10:", 0) == 0);

  // A file that is neither XML nor a capture holding XML is still refused.
  const Status text =
      testing::ErrorOf(ParseGangliaXml("Trying 10.1.0.11...\nConnection refused\n", "t"));
  CHECK(text.message().rfind("t:", 0) == 0);
  CHECK(text.message().find(": malformed XML: ") != std::string::npos);
}

TEST_CASE("An element other than GRID, CLUSTER or HOST under GANGLIA_XML is refused") {
  const Status r =
      testing::ErrorOf(ParseGangliaXml("<GANGLIA_XML>\n<METRIC NAME=\"x\"/>\n</GANGLIA_XML>", "f"));
  CHECK(r.message() ==
        "f:2:2 (byte 15): unexpected element <METRIC> under GANGLIA_XML (expected GRID, CLUSTER "
        "or HOST)");
}

TEST_CASE("HOST:PORT is split and checked") {
  const auto ok = testing::ValueOf(ParseHostPort("127.0.0.1:8649"));
  CHECK(ok.first == "127.0.0.1");
  CHECK(ok.second == 8649);
  const auto v6 = testing::ValueOf(ParseHostPort("[::1]:8651"));
  CHECK(v6.first == "::1");
  CHECK(ParseHostPort("gmond").status().message() ==
        "'gmond' is not HOST:PORT (e.g. 127.0.0.1:8649)");
  CHECK(ParseHostPort("h:0").status().message() == "'h:0': port '0' is not in 1-65535");
}

TEST_CASE("An unreachable gmond fails with a message instead of hanging") {
  // Port 1 on loopback: nothing listens there on a test machine, so the connect is refused.
  const Status r = testing::ErrorOf(FetchGangliaXml("127.0.0.1", 1, 2.0));
  CHECK(r.code() == StatusCode::kFailed);
  CHECK(r.message() == "127.0.0.1:1: cannot connect: Connection refused");
}

}  // namespace
}  // namespace perfplan::profiles
