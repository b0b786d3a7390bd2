// The 34 task metrics of a spark_tasks row packed into one BLOB, the column `metrics` (schema
// version 7; docs/spark.md "Task metrics"). Encoding, format 1:
//   byte 0       the format, 1
//   then         the 34 metrics of detail::kTaskMetrics, in that order, each a zigzag varint:
//                n ↦ (n << 1) ^ (n >> 63) as an unsigned 64-bit value, written 7 bits at a time,
//                least significant first, the high bit of a byte set when more follow (1 to 10
//                bytes; 0 is one byte)
// and nothing after. A task end without "Task Metrics" stores NULL (every metric reads 0).
// Encoding and decoding live here only; SQL reads a metric through spark_metric(metrics, name)
// (TaskMetricSqlFunctions, registered on every connection of the Spark store).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "profiles/detail/spark_metrics.h"
#include "profiles/store.h"

namespace perfplan::profiles::spark {

// A task's metrics in detail::kTaskMetrics order.
using TaskMetricValues = std::array<std::int64_t, detail::kTaskMetrics.size()>;

inline constexpr unsigned char kTaskMetricsFormat = 1;
// The longest encoding: the format byte and 34 ten-byte varints.
inline constexpr std::size_t kMaxTaskMetricsBytes = 1 + 10 * detail::kTaskMetrics.size();

// Writes the encoding of `values` to `out` (kMaxTaskMetricsBytes at least) and returns its size.
std::size_t EncodeTaskMetrics(const TaskMetricValues& values, unsigned char* out);
std::string EncodeTaskMetrics(const TaskMetricValues& values);

// The metrics of an encoding. Fails InvalidArgument "task metrics blob: …" when `blob` is
// empty, has another format, ends inside the 34 metrics, holds a varint of more than 64 bits or
// has bytes after the last metric.
Result<TaskMetricValues> DecodeTaskMetrics(std::string_view blob);

// The position of a metric in detail::kTaskMetrics by its name (the column it had before schema
// version 7), or -1; and the name at a position (< TaskMetricValues().size()).
int TaskMetricIndex(std::string_view name);
std::string_view TaskMetricName(std::size_t index);

// The Spark store's SQL functions over the blob:
//   spark_metric(metrics, 'name')   the metric `name` (e.g. 'input_bytes') of a task's blob; 0
//                                   when the blob is NULL; fails on an unknown name and on a
//                                   blob DecodeTaskMetrics refuses
//   spark_pack_metrics(v1, …, v34)  the blob of 34 integers in detail::kTaskMetrics order (the
//                                   migration of stores written before version 7)
std::vector<SqlFunction> TaskMetricSqlFunctions();

// "spark_metric(ALIAS.metrics, 'COLUMN')" (no "ALIAS." when `alias` is empty): the SQL reading
// one metric of a task row.
std::string MetricSql(std::string_view column, std::string_view alias = "");

}  // namespace perfplan::profiles::spark
