#include "profiles/spark/spark_task_metrics.h"

#include <cstring>
#include <unordered_map>

namespace perfplan::profiles::spark {
namespace {

constexpr std::size_t kMetrics = detail::kTaskMetrics.size();

std::string MetricName(std::size_t i) {
  return std::to_string(i + 1) + " of " + std::to_string(kMetrics) + " (" +
         std::string(detail::kTaskMetrics[i].column) + ")";
}

// The values of the blob spark_metric read last on this thread: one task row's metrics are read
// several times in a row (a statement summing many of them), decoded once.
struct LastDecoded {
  std::string blob;
  TaskMetricValues values{};
  bool valid = false;
};

Status SparkMetric(const std::vector<SqlArgument>& args, SqlResult& result) {
  const SqlArgument& blob = args[0];
  const SqlArgument& name = args[1];
  const int index = name.type == SqlArgument::Type::kText ? TaskMetricIndex(name.bytes) : -1;
  if (index < 0) {
    return Status::InvalidArgument(
        "spark_metric: no task metric named '" + std::string(name.bytes) +
        "'; expected a column name of profiles/detail/spark_metrics.h, e.g. 'input_bytes'");
  }
  if (blob.type == SqlArgument::Type::kNull) {
    result.Integer(0);
    return Status::Ok();
  }
  if (blob.type != SqlArgument::Type::kBlob) {
    return Status::InvalidArgument("spark_metric: the metrics are not a blob");
  }
  thread_local LastDecoded last;
  if (!last.valid || last.blob.size() != blob.bytes.size() ||
      std::memcmp(last.blob.data(), blob.bytes.data(), blob.bytes.size()) != 0) {
    auto values = DecodeTaskMetrics(blob.bytes);
    if (!values.ok()) {
      last.valid = false;
      return values.status();
    }
    last.blob.assign(blob.bytes);
    last.values = values.value();
    last.valid = true;
  }
  result.Integer(last.values[static_cast<std::size_t>(index)]);
  return Status::Ok();
}

Status PackMetrics(const std::vector<SqlArgument>& args, SqlResult& result) {
  TaskMetricValues values{};
  for (std::size_t i = 0; i < kMetrics; ++i) {
    if (args[i].type != SqlArgument::Type::kInteger) {
      return Status::InvalidArgument("spark_pack_metrics: metric " + MetricName(i) +
                                     " is not an integer");
    }
    values[i] = args[i].integer;
  }
  unsigned char out[kMaxTaskMetricsBytes];
  const std::size_t n = EncodeTaskMetrics(values, out);
  result.Blob(std::string_view(reinterpret_cast<const char*>(out), n));
  return Status::Ok();
}

}  // namespace

std::size_t EncodeTaskMetrics(const TaskMetricValues& values, unsigned char* out) {
  unsigned char* at = out;
  *at++ = kTaskMetricsFormat;
  for (const std::int64_t v : values) {
    std::uint64_t u = (static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63);
    while (u >= 0x80) {
      *at++ = static_cast<unsigned char>(u | 0x80);
      u >>= 7;
    }
    *at++ = static_cast<unsigned char>(u);
  }
  return static_cast<std::size_t>(at - out);
}

std::string EncodeTaskMetrics(const TaskMetricValues& values) {
  unsigned char out[kMaxTaskMetricsBytes];
  const std::size_t n = EncodeTaskMetrics(values, out);
  return std::string(reinterpret_cast<const char*>(out), n);
}

Result<TaskMetricValues> DecodeTaskMetrics(std::string_view blob) {
  if (blob.empty()) {
    return Status::InvalidArgument("task metrics blob: empty; expected format " +
                                   std::to_string(kTaskMetricsFormat) + " and " +
                                   std::to_string(kMetrics) + " metrics");
  }
  const auto* p = reinterpret_cast<const unsigned char*>(blob.data());
  if (p[0] != kTaskMetricsFormat) {
    return Status::InvalidArgument("task metrics blob: format " + std::to_string(p[0]) +
                                   "; this perfplan reads format " +
                                   std::to_string(kTaskMetricsFormat));
  }
  TaskMetricValues values{};
  std::size_t at = 1;
  for (std::size_t i = 0; i < kMetrics; ++i) {
    std::uint64_t u = 0;
    for (int shift = 0;; shift += 7) {
      if (at == blob.size()) {
        return Status::InvalidArgument("task metrics blob: ends inside metric " + MetricName(i) +
                                       " at byte " + std::to_string(at));
      }
      const unsigned char b = p[at++];
      // The tenth byte holds bit 63 only.
      if (shift == 63 && b > 1) {
        return Status::InvalidArgument("task metrics blob: metric " + MetricName(i) +
                                       " does not fit 64 bits (byte " + std::to_string(at - 1) +
                                       ")");
      }
      u |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (b < 0x80) break;
    }
    values[i] = static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
  }
  if (at != blob.size()) {
    return Status::InvalidArgument("task metrics blob: " + std::to_string(blob.size() - at) +
                                   " bytes after the " + std::to_string(kMetrics) + " metrics");
  }
  return values;
}

int TaskMetricIndex(std::string_view name) {
  static const std::unordered_map<std::string_view, int> kIndex = [] {
    std::unordered_map<std::string_view, int> index;
    for (std::size_t i = 0; i < kMetrics; ++i) {
      index.emplace(detail::kTaskMetrics[i].column, static_cast<int>(i));
    }
    return index;
  }();
  const auto it = kIndex.find(name);
  return it == kIndex.end() ? -1 : it->second;
}

std::string_view TaskMetricName(std::size_t index) { return detail::kTaskMetrics[index].column; }

std::vector<SqlFunction> TaskMetricSqlFunctions() {
  return {{"spark_metric", 2, SparkMetric},
          {"spark_pack_metrics", static_cast<int>(kMetrics), PackMetrics}};
}

std::string MetricSql(std::string_view column, std::string_view alias) {
  return "spark_metric(" + (alias.empty() ? std::string() : std::string(alias) + ".") +
         "metrics, '" + std::string(column) + "')";
}

}  // namespace perfplan::profiles::spark
