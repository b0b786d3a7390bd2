// Ganglia evidence: the XML that gmond (TCP 8649) and gmetad (TCP 8651) serve, the same XML saved
// to a file, and the two RRD export formats Ambari and ganglia-web produce.
//
// - XML: GANGLIA_XML › GRID* (gmetad, may nest) › CLUSTER › HOST › METRIC (NAME VAL TYPE UNITS TN
//   TMAX DMAX SLOPE SOURCE, EXTRA_DATA › EXTRA_ELEMENT NAME VAL). gmetad's summary form puts
//   HOSTS (UP DOWN SOURCE) and METRICS (NAME SUM NUM TYPE UNITS SLOPE SOURCE) under a GRID or
//   CLUSTER instead of HOSTs. Every TYPE gmond knows is accepted: string, int8, uint8, int16,
//   uint16, int32, uint32, float, double, timestamp.
// - Ambari's rrd.py text protocol (a server epoch line, then blocks "ds_name, cluster, host,
//   metric, start epoch, step seconds, values…, [~EOM]", "[~r]N" = the previous line N times in
//   all, "[~n]" = no value, "[~EOF]" then an end epoch): a time series per (cluster, host, metric).
// - ganglia-web graph.php JSON: [{ds_name, cluster_name, host_name, metric_name, datapoints:
//   [[value, epoch], …]}, …].
//
// Units: times are Unix epoch seconds; durations (TN, TMAX, DMAX, step) seconds. Values are as the
// source reports them (their UNITS attribute says which: %, KB, GB, bytes/sec, …).
// All functions are pure over their input except FetchGangliaXml (network) and ReadGangliaFile
// (reads one file). Results are plain values; thread-safe as any value type.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <cstddef>

#include "models/status.h"

namespace perfplan::profiles {

// Ganglia's metric value types (gmond's DTD). The string round trip uses the DTD's spelling.
enum class GangliaType {
  kString,
  kInt8,
  kUint8,
  kInt16,
  kUint16,
  kInt32,
  kUint32,
  kFloat,
  kDouble,
  kTimestamp
};
std::string_view ToString(GangliaType type);
std::optional<GangliaType> GangliaTypeFromString(std::string_view text);
bool IsNumeric(GangliaType type);

enum class GangliaSlope { kUnspecified, kZero, kPositive, kNegative, kBoth, kDerivative };
std::string_view ToString(GangliaSlope slope);

struct GangliaMetric {
  std::string name;
  std::string text;             // VAL exactly as served
  std::optional<double> value;  // VAL as a number; absent for TYPE="string"
  GangliaType type = GangliaType::kString;
  std::string units;              // may be " " (gmond writes one space for "no unit")
  std::int64_t tn_seconds = 0;    // seconds since the value was last updated
  std::int64_t tmax_seconds = 0;  // expected maximum time between updates
  std::int64_t dmax_seconds = 0;  // delete after this many seconds without update; 0 = never
  GangliaSlope slope = GangliaSlope::kUnspecified;
  std::string source;  // SOURCE attribute ("gmond", "gmetric", …); may be empty
  std::vector<std::pair<std::string, std::string>> extra;  // EXTRA_ELEMENT NAME/VAL, in order
  // EXTRA_ELEMENT GROUP (e.g. "cpu"), or "" when absent.
  std::string Group() const;
};

struct GangliaHost {
  std::string name;
  std::string ip;
  std::int64_t reported_epoch = 0;  // REPORTED: last heartbeat
  std::int64_t tn_seconds = 0;
  std::int64_t tmax_seconds = 0;
  std::int64_t dmax_seconds = 0;
  std::int64_t gmond_started_epoch = 0;  // 0 when not served
  std::string location;
  std::vector<GangliaMetric> metrics;
};

// gmetad's per-metric summary over a cluster or grid (METRICS element).
struct GangliaMetricSummary {
  std::string name;
  double sum = 0;
  std::int64_t num = 0;  // hosts contributing
  GangliaType type = GangliaType::kDouble;
  std::string units;
  GangliaSlope slope = GangliaSlope::kUnspecified;
  std::string source;
  std::vector<std::pair<std::string, std::string>> extra;
};

// gmetad's host summary (HOSTS element).
struct GangliaHostSummary {
  std::int64_t up = 0;
  std::int64_t down = 0;
  std::string source;
};

struct GangliaCluster {
  std::string name;
  std::int64_t localtime_epoch = 0;  // the serving daemon's clock when it wrote the XML
  std::string owner, latlong, url;
  std::string grid;  // name of the innermost enclosing GRID, "" for gmond
  std::vector<GangliaHost> hosts;
  std::optional<GangliaHostSummary> hosts_summary;
  std::vector<GangliaMetricSummary> metric_summaries;
};

struct GangliaGridSummary {
  std::string name;
  std::string authority;
  std::int64_t localtime_epoch = 0;
  std::optional<GangliaHostSummary> hosts_summary;
  std::vector<GangliaMetricSummary> metric_summaries;
};

// One XML document: every CLUSTER, flattened out of any GRID nesting (each keeps its grid name).
struct GangliaSnapshot {
  std::string version;                    // GANGLIA_XML VERSION
  std::string source;                     // "gmond" or "gmetad"
  std::vector<GangliaGridSummary> grids;  // only gmetad documents have GRIDs
  std::vector<GangliaCluster> clusters;
  std::size_t MetricCount() const;  // METRIC elements over all hosts
};

// Parses a Ganglia XML document. `origin` names it in errors (a path or "HOST:PORT").
// Ganglia 2.5.x documents with HOST directly under GANGLIA_XML (or a GRID) are read as one
// cluster named "" per enclosing grid. A saved telnet/nc capture is read as served: lines before
// the first line starting "<?xml" or "<GANGLIA_XML" and text after the last "</GANGLIA_XML>" are
// skipped; error positions stay those of the whole file.
// Fails (InvalidArgument) on malformed XML ("ORIGIN:LINE:COL (byte N): …" from the parser), a
// missing or wrong root element, an unknown TYPE or SLOPE, a missing required attribute, or a VAL
// that is not a number of its TYPE (e.g. "ORIGIN:12:1 (byte 845): HOST 'a' METRIC 'load_one': VAL
// 'x' is not a float"). Integer TYPEs must hold integers within the type's range.
Result<GangliaSnapshot> ParseGangliaXml(std::string_view xml, const std::string& origin);

// One time series of an RRD export.
struct GangliaSeries {
  std::string cluster;
  std::string host;  // "__SummaryInfo__" when the export names no host (cluster summaries)
  std::string metric;
  std::string ds_name;            // "sum" (Ambari) or "a0", "a1"… (ganglia-web)
  std::int64_t step_seconds = 0;  // 0 when the export gives explicit times (ganglia-web)
  std::vector<std::pair<std::int64_t, double>> points;  // (epoch, value); gaps are left out
  std::size_t missing = 0;                              // "[~n]" / null points left out
};

struct GangliaExport {
  std::string format;             // "ambari-rrd-text" or "ganglia-web-json"
  std::int64_t server_epoch = 0;  // Ambari: first line; 0 for JSON
  std::vector<GangliaSeries> series;
};

// The most points (values and gaps, over all series) one Ambari export may hold: 160 MB of
// points. A "[~r]N" line of a few bytes stands for N points, so without a bound over the whole
// export a small file could ask for any amount of memory (a bound per series did not stop a file
// of many series). A day of 100 hosts × 17 metrics at a 15 s step is 9.8 million.
inline constexpr std::int64_t kMaxAmbariPoints = 10'000'000;

// Ambari rrd.py text. Fails with "ORIGIN:LINE: …" on a non-numeric value, a bad repeat count,
// more than `max_points` points in all, a block cut off before [~EOM], or a missing header line.
Result<GangliaExport> ParseAmbariRrdText(std::string_view text, const std::string& origin,
                                         std::int64_t max_points = kMaxAmbariPoints);
// ganglia-web JSON. Fails with "ORIGIN: …" naming the array index and field.
Result<GangliaExport> ParseGangliaWebJson(std::string_view text, const std::string& origin);

// What a file holds, decided from its content (first non-blank byte: '<' XML, '[' or '{' JSON,
// a digit Ambari text).
enum class GangliaFileKind { kXml, kAmbariText, kGangliaWebJson };
struct GangliaFile {
  GangliaFileKind kind = GangliaFileKind::kXml;
  std::optional<GangliaSnapshot> snapshot;  // kXml
  std::optional<GangliaExport> exported;    // the two RRD export kinds
};
// Reads and parses one file of any of the three kinds. NotFound when the file cannot be read.
Result<GangliaFile> ReadGangliaFile(const std::string& path);

// The largest gmond/gmetad answer read: a grid of 1,000 hosts with 30 metrics each is about
// 10 MB of XML. Without a cap a peer that keeps sending (400 MB was tried) costs twice its size
// in memory before parsing starts.
inline constexpr std::size_t kMaxGangliaAnswerBytes = std::size_t{64} << 20;

// Connects to HOST:PORT over TCP, reads until the peer closes, and parses the XML. gmond answers
// any connection with its whole state; gmetad on 8651 likewise. Fails (kFailed) with "HOST:PORT:
// connection refused" / "…: no answer within T s" / "…: cannot resolve host" — never hangs longer
// than `timeout_seconds` in total. The raw bytes are returned in `raw` when non-null.
Result<GangliaSnapshot> FetchGangliaXml(const std::string& host, int port, double timeout_seconds,
                                        std::string* raw = nullptr);
// Only the TCP part of FetchGangliaXml: the bytes the peer sent before closing. Failed "HOST:PORT:
// the answer is larger than N bytes (the limit for one gmond/gmetad answer)" as soon as more than
// `max_bytes` arrive.
Result<std::string> FetchTcp(const std::string& host, int port, double timeout_seconds,
                             std::size_t max_bytes = kMaxGangliaAnswerBytes);

// Splits "HOST:PORT" (port 1–65535). InvalidArgument naming the text otherwise.
Result<std::pair<std::string, int>> ParseHostPort(std::string_view text);

}  // namespace perfplan::profiles
