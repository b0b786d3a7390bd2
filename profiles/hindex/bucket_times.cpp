#include "profiles/hindex/bucket_times.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "models/text.h"

namespace perfplan::profiles {
namespace {

// Problems beyond this many are summarized in one line, so a wrong file does not flood the screen.
constexpr std::size_t kMaxProblems = 50;

using models::Trim;

std::string_view Unquote(std::string_view s) {
  s = Trim(s);
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return s;
}

void SplitCommas(std::string_view line, std::vector<std::string_view>& out) {
  out.clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    out.push_back(
        Unquote(line.substr(start, comma == std::string_view::npos ? line.npos : comma - start)));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

// Parses a time in seconds: a finite number ≥ 0. Returns "" or what is wrong with it.
std::string ParseSeconds(std::string_view cell, double* out) {
  if (cell.empty()) return "is empty; expected a number of seconds ≥ 0";
  std::string_view digits = cell;
  if (digits.front() == '+') digits.remove_prefix(1);
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *out);
  const std::string quoted = "'" + std::string(cell) + "'";
  if (ec != std::errc() || ptr != digits.data() + digits.size()) {
    return quoted + " is not a number; expected seconds ≥ 0";
  }
  if (!std::isfinite(*out)) return quoted + " is not finite; expected seconds ≥ 0";
  if (*out < 0) return quoted + " is negative; expected seconds ≥ 0";
  return "";
}

bool LooksLikeHeaderWord(std::string_view s) {
  if (s.empty() || !std::isalpha(static_cast<unsigned char>(s.front()))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != ' ') return false;
  }
  return true;
}

class Reader {
 public:
  Reader(const std::string& text, const std::string& file) : text_(text), file_(file) {}

  Loaded<BucketTimes> Read() {
    // Spreadsheets often save CSV with a UTF-8 byte-order mark; it is not part of the header.
    if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    std::string_view line;
    int number = 0;
    bool header_seen = false;
    while (NextLine(&line, &number)) {
      if (!header_seen) {
        header_seen = true;
        if (line.find(',') != std::string_view::npos) {
          out_.value.format = BucketTimesFormat::kBucketCsv;
          if (!ReadHeader(line, number)) return Finish();
          continue;
        }
        out_.value.format = BucketTimesFormat::kColumn;
        out_.value.tasks.push_back({"", number, {}});
        double ignored;
        if (!ParseSeconds(line, &ignored).empty() && LooksLikeHeaderWord(line)) continue;
      }
      if (out_.value.format == BucketTimesFormat::kColumn) {
        ColumnRow(line, number);
      } else {
        CsvRow(line, number);
      }
    }
    if (out_.value.format == BucketTimesFormat::kBucketCsv) CheckDuplicates();
    if (out_.value.values == 0 && out_.problems.empty()) {
      Add(0, "", "no values; expected a column of numbers or task_id,bucket,seconds rows");
    }
    return Finish();
  }

 private:
  bool NextLine(std::string_view* line, int* number) {
    while (pos_ < text_.size()) {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string::npos) end = text_.size();
      const std::string_view raw = Trim(std::string_view(text_).substr(pos_, end - pos_));
      pos_ = end + 1;
      ++line_;
      if (raw.empty() || raw.front() == '#') continue;
      *line = raw;
      *number = line_;
      return true;
    }
    return false;
  }

  void Add(int line, std::string field, std::string message) {
    ++problem_count_;
    if (out_.problems.size() < kMaxProblems) {
      out_.problems.push_back({file_, line, std::move(field), std::move(message)});
    }
  }

  Loaded<BucketTimes> Finish() {
    if (problem_count_ > kMaxProblems) {
      out_.problems.push_back(
          {file_, 0, "",
           "… and " + std::to_string(problem_count_ - kMaxProblems) + " more problems"});
    }
    return std::move(out_);
  }

  bool ReadHeader(std::string_view line, int number) {
    std::vector<std::string_view> names;
    SplitCommas(line, names);
    columns_ = names.size();
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (names[i] == "task_id") task_column_ = i;
      if (names[i] == "bucket") bucket_column_ = i;
      if (names[i] == "seconds") seconds_column_ = i;
    }
    if (task_column_ == kNone || bucket_column_ == kNone || seconds_column_ == kNone) {
      Add(number, "header",
          "expected the columns task_id,bucket,seconds; found '" + std::string(line) + "'");
      return false;
    }
    return true;
  }

  void ColumnRow(std::string_view line, int number) {
    double v = 0;
    const std::string error = ParseSeconds(line, &v);
    if (!error.empty()) return Add(number, "value", error);
    out_.value.tasks.front().seconds.push_back(v);
    ++out_.value.values;
  }

  void CsvRow(std::string_view line, int number) {
    std::vector<std::string_view>& cells = cells_;
    SplitCommas(line, cells);
    if (cells.size() != columns_) {
      return Add(number, "",
                 "expected " + std::to_string(columns_) + " fields as in the header, found " +
                     std::to_string(cells.size()));
    }
    const std::string_view task = cells[task_column_];
    const std::string_view bucket = cells[bucket_column_];
    if (task.empty()) return Add(number, "task_id", "is empty; expected a task identifier");
    if (bucket.empty()) return Add(number, "bucket", "is empty; expected a bucket identifier");
    double v = 0;
    const std::string error = ParseSeconds(cells[seconds_column_], &v);
    if (!error.empty()) return Add(number, "seconds", error);
    // Rows of one task are usually contiguous: look the task up only when it changes.
    if (last_task_ == out_.value.tasks.size() || out_.value.tasks[last_task_].task_id != task) {
      const auto [it, inserted] = task_index_.emplace(std::string(task), out_.value.tasks.size());
      if (inserted) out_.value.tasks.push_back({std::string(task), number, {}});
      last_task_ = it->second;
    }
    out_.value.tasks[last_task_].seconds.push_back(v);
    ++out_.value.values;
    buckets_.push_back({bucket, static_cast<std::uint32_t>(last_task_), number});
  }

  // Duplicate (task, bucket) pairs, found by sorting instead of a hash set of strings: 24 bytes a
  // row, so a job of 10^7 buckets stays practical. Problems are then put back in line order.
  void CheckDuplicates() {
    std::sort(buckets_.begin(), buckets_.end(), [](const BucketRow& a, const BucketRow& b) {
      if (a.task != b.task) return a.task < b.task;
      if (a.bucket != b.bucket) return a.bucket < b.bucket;
      return a.line < b.line;
    });
    for (std::size_t i = 1; i < buckets_.size(); ++i) {
      const BucketRow& a = buckets_[i - 1];
      const BucketRow& b = buckets_[i];
      if (a.task != b.task || a.bucket != b.bucket) continue;
      // Report each repeat against the first appearance of the pair.
      std::size_t first = i - 1;
      while (first > 0 && buckets_[first - 1].task == b.task &&
             buckets_[first - 1].bucket == b.bucket) {
        --first;
      }
      Add(b.line, "bucket",
          "task '" + out_.value.tasks[b.task].task_id + "' bucket '" + std::string(b.bucket) +
              "' already appeared on line " + std::to_string(buckets_[first].line));
    }
    std::stable_sort(out_.problems.begin(), out_.problems.end(),
                     [](const Problem& a, const Problem& b) { return a.line < b.line; });
  }

  struct BucketRow {
    std::string_view bucket;  // into text_
    std::uint32_t task;
    int line;
  };

  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const std::string& text_;
  const std::string& file_;
  std::size_t pos_ = 0;
  int line_ = 0;
  std::size_t columns_ = 0;
  std::size_t task_column_ = kNone, bucket_column_ = kNone, seconds_column_ = kNone;
  std::unordered_map<std::string, std::size_t> task_index_;
  std::size_t last_task_ = 0;  // index into tasks, or tasks.size() before the first row
  std::vector<std::string_view> cells_;
  std::vector<BucketRow> buckets_;
  std::size_t problem_count_ = 0;
  Loaded<BucketTimes> out_;
};

}  // namespace

Loaded<BucketTimes> ParseBucketTimes(const std::string& text, const std::string& file) {
  return Reader(text, file).Read();
}

}  // namespace perfplan::profiles
