// Reader for the inputs of `perfplan hindex`: bucket-time CSV or a plain column of numbers.
//
// Bucket-time CSV (seed 000's per-bucket timings): a header naming the columns task_id, bucket and
// seconds (any order; other columns are ignored), then one row per bucket. Every task gets its own
// H-index; the job's is weighted by task time. Plain column: one number per line (seconds, or any
// unit), optionally under one header word such as `seconds`. In both, blank lines and lines
// starting with '#' are skipped; CRLF line ends and a UTF-8 byte-order mark are accepted. The
// format is chosen by the first content line: a comma means CSV.
//
// Every bad cell is a Problem "FILE:LINE: FIELD: MESSAGE" (non-numeric, not finite, negative,
// missing field, duplicate task/bucket); all are collected, not just the first. Pure parsing of a
// string; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "profiles/problem.h"

namespace perfplan::profiles {

enum class BucketTimesFormat {
  kBucketCsv,  // task_id,bucket,seconds
  kColumn,     // one number per line
};

struct TaskBuckets {
  std::string task_id;          // "" for a plain column
  int first_line = 0;           // 1-based line of the task's first row
  std::vector<double> seconds;  // in file order
};

struct BucketTimes {
  BucketTimesFormat format = BucketTimesFormat::kColumn;
  std::vector<TaskBuckets> tasks;  // in order of first appearance; one task for a plain column
  std::size_t values = 0;          // total number of values over all tasks
};

// Parses `text` read from `file` (the name used in problems, e.g. "<stdin>"). An input with no
// values at all is a problem at line 0.
Loaded<BucketTimes> ParseBucketTimes(const std::string& text, const std::string& file);

}  // namespace perfplan::profiles
