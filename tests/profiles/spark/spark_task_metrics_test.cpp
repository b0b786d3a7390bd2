// The task metrics blob of spark_tasks (schema version 7): format 1, 34 zigzag varints in
// detail::kTaskMetrics order, and the SQL functions that read and write it.
#include "profiles/spark/spark_task_metrics.h"

#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "tests/support/result_checks.h"

namespace perfplan::profiles::spark {
namespace {

constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

TaskMetricValues Ramp() {
  TaskMetricValues v{};
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int64_t>(i * i * 1000003);
  return v;
}

std::string Bytes(std::initializer_list<int> bytes) {
  std::string out;
  for (int b : bytes) out += static_cast<char>(b);
  return out;
}

TEST_CASE("Zero metrics are the format byte and one byte each") {
  const std::string blob = EncodeTaskMetrics(TaskMetricValues{});
  CHECK(blob == std::string(1, '\1') + std::string(34, '\0'));
  CHECK(testing::ValueOf(DecodeTaskMetrics(blob)) == TaskMetricValues{});
}

TEST_CASE("Zigzag: small negative numbers stay short, one is 2 and minus one is 1") {
  TaskMetricValues v{};
  v[0] = 1;
  v[1] = -1;
  v[2] = -64;  // zigzag 127: one byte
  v[3] = 64;   // zigzag 128: two bytes
  const std::string blob = EncodeTaskMetrics(v);
  CHECK(blob.substr(0, 6) == Bytes({1, 2, 1, 0x7f, 0x80, 0x01}));
  CHECK(blob.size() == 1 + 3 + 2 + 30);
  CHECK(testing::ValueOf(DecodeTaskMetrics(blob)) == v);
}

TEST_CASE("Round trip: every metric, INT64 extremes and ordinary values") {
  for (const TaskMetricValues& v :
       {Ramp(), [] {
          TaskMetricValues x{};
          x.fill(kMax);
          x[7] = kMin;
          x[33] = kMin + 1;
          x[20] = -1234567890123;
          return x;
        }()}) {
    const std::string blob = EncodeTaskMetrics(v);
    CHECK(blob.size() <= kMaxTaskMetricsBytes);
    CHECK(testing::ValueOf(DecodeTaskMetrics(blob)) == v);
  }
  TaskMetricValues all_min{};
  all_min.fill(kMin);
  CHECK(EncodeTaskMetrics(all_min).size() == kMaxTaskMetricsBytes);  // ten bytes a metric
  CHECK(testing::ValueOf(DecodeTaskMetrics(EncodeTaskMetrics(all_min))) == all_min);
}

TEST_CASE("A blob that is not a whole format-1 encoding is refused with where it goes wrong") {
  const std::string good = EncodeTaskMetrics(Ramp());
  CHECK(testing::ErrorOf(DecodeTaskMetrics("")).message() ==
        "task metrics blob: empty; expected format 1 and 34 metrics");
  CHECK(testing::ErrorOf(DecodeTaskMetrics(Bytes({2, 0}))).message() ==
        "task metrics blob: format 2; this perfplan reads format 1");
  CHECK(testing::ErrorOf(DecodeTaskMetrics(Bytes({1}))).message() ==
        "task metrics blob: ends inside metric 1 of 34 (executor_deserialize_time_ms) at byte 1");
  CHECK(testing::ErrorOf(DecodeTaskMetrics(good.substr(0, good.size() - 1))).message() ==
        "task metrics blob: ends inside metric 34 of 34 (shuffle_records_written) at byte " +
            std::to_string(good.size() - 1));
  // A varint still going after ten bytes (or whose tenth byte sets bits above 63).
  std::string long_varint = Bytes({1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02});
  CHECK(testing::ErrorOf(DecodeTaskMetrics(long_varint)).message() ==
        "task metrics blob: metric 1 of 34 (executor_deserialize_time_ms) does not fit 64 bits "
        "(byte 10)");
  CHECK(testing::ErrorOf(DecodeTaskMetrics(good + Bytes({0, 0}))).message() ==
        "task metrics blob: 2 bytes after the 34 metrics");
  CHECK(testing::ErrorOf(DecodeTaskMetrics(good + Bytes({0}))).code() ==
        StatusCode::kInvalidArgument);
}

TEST_CASE("Every truncation and every single-byte corruption fails or decodes, never crashes") {
  const std::string good = EncodeTaskMetrics(Ramp());
  for (std::size_t n = 0; n < good.size(); ++n) {
    CHECK_FALSE(DecodeTaskMetrics(good.substr(0, n)).ok());
  }
  for (std::size_t at = 0; at < good.size(); ++at) {
    for (int b : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::string bad = good;
      bad[at] = static_cast<char>(b);
      (void)DecodeTaskMetrics(bad);  // either answer; no read past the end (ASan, valgrind)
    }
  }
}

TEST_CASE("Metric names are the columns of spark_metrics.h") {
  CHECK(TaskMetricIndex("executor_deserialize_time_ms") == 0);
  CHECK(TaskMetricIndex("input_bytes") == 10);
  CHECK(TaskMetricIndex("shuffle_records_written") == 33);
  CHECK(TaskMetricIndex("inputBytes") == -1);
  CHECK(TaskMetricName(10) == "input_bytes");
  CHECK(MetricSql("input_bytes") == "spark_metric(metrics, 'input_bytes')");
  CHECK(MetricSql("input_bytes", "t") == "spark_metric(t.metrics, 'input_bytes')");
}

TEST_CASE("SQL reads a metric with spark_metric and packs 34 with spark_pack_metrics") {
  const auto store =
      testing::ValueOf(Store::Open(":memory:", {Migrations{"m", {}, TaskMetricSqlFunctions()}}));
  auto value = [&](const std::string& sql) -> Result<std::int64_t> {
    auto q = store->Prepare(sql);
    if (!q.ok()) return q.status();
    if (!q.value().Step()) return q.value().Error();
    return q.value().ColumnInt(0);
  };
  std::string args;
  for (int i = 0; i < 34; ++i) args += (i ? ", " : "") + std::to_string(i == 10 ? -5 : i);
  CHECK(testing::ValueOf(value("SELECT spark_metric(spark_pack_metrics(" + args +
                               "), 'input_bytes')")) == -5);
  CHECK(testing::ValueOf(value("SELECT spark_metric(spark_pack_metrics(" + args +
                               "), 'shuffle_records_written')")) == 33);
  CHECK(testing::ValueOf(value("SELECT spark_metric(NULL, 'input_bytes')")) == 0);
  CHECK(testing::ErrorOf(value("SELECT spark_metric(NULL, 'inputBytes')")).message() ==
        "SQLite: spark_metric: no task metric named 'inputBytes'; expected a column name of "
        "profiles/detail/spark_metrics.h, e.g. 'input_bytes' in: SELECT spark_metric(NULL, "
        "'inputBytes')");
  CHECK(testing::ErrorOf(value("SELECT spark_metric(x'0102', 'input_bytes')")).message() ==
        "SQLite: task metrics blob: ends inside metric 2 of 34 (executor_deserialize_cpu_time_ns) "
        "at byte 2 in: SELECT spark_metric(x'0102', 'input_bytes')");
  CHECK(testing::ErrorOf(value("SELECT spark_metric(3, 'input_bytes')")).message() ==
        "SQLite: spark_metric: the metrics are not a blob in: SELECT spark_metric(3, "
        "'input_bytes')");
  CHECK(testing::ErrorOf(value("SELECT spark_pack_metrics(" + args.substr(0, args.size() - 2) +
                               "'x')"))
            .message()
            .find("spark_pack_metrics: metric 34 of 34 (shuffle_records_written) is not an "
                  "integer") != std::string::npos);
}

}  // namespace
}  // namespace perfplan::profiles::spark
