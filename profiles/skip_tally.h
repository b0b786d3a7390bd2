// SkipTally: what an ingester could not use, counted by reason, with the first few examples of
// each reason kept (issue 17: "skipped-line reports are counted by reason with the first 10
// examples each"). A log with ten million garbled lines costs a count per reason, not ten million
// messages in memory or on the terminal.
//
// The reason of a message is its text up to the first ": " (what follows is usually the value
// seen or a parser's detail), with every number written as "N" (a run of digits not right after
// a letter: "log4j" stays), so "invalid JSON" lines
// share one reason whatever their position, and "line longer than 67108864 bytes" does too:
//   SkipReasonOf("corrupt zstd stream: Unknown frame descriptor") == "corrupt zstd stream"
//   SkipReasonOf("task 17 has no Finish Time")                    == "task N has no Finish Time"
//
// `Example` is the ingester's own record of one skip (profiles::Problem, spark::SkippedLine); the
// tally reads its message through SkipMessageOf(example), an overload beside the type (found by
// argument-dependent lookup). Not thread-safe; one tally per ingest.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "profiles/problem.h"

namespace perfplan::profiles {

// See the file comment.
std::string SkipReasonOf(std::string_view message);

inline constexpr std::int64_t kSkipExamplesPerReason = 10;

inline const std::string& SkipMessageOf(const Problem& p) { return p.message; }

struct SkipReason {
  std::string reason;
  std::int64_t count = 0;
};

template <typename Example>
class SkipTally {
 public:
  // Counts one skip; keeps it when fewer than kSkipExamplesPerReason of its reason are kept.
  void Add(Example example) {
    std::int64_t& n = counts_[SkipReasonOf(SkipMessageOf(example))];
    if (n++ < kSkipExamplesPerReason) examples_.push_back(std::move(example));
    ++total_;
  }

  // Adds everything `other` counted, keeping its examples while their reason has room.
  void Merge(SkipTally&& other) {
    std::map<std::string, std::int64_t, std::less<>> kept;  // other's examples taken per reason
    for (Example& e : other.examples_) {
      const std::string reason = SkipReasonOf(SkipMessageOf(e));
      const auto already = counts_.find(reason);
      const std::int64_t room =
          kSkipExamplesPerReason - (already == counts_.end() ? 0 : already->second);
      if (kept[reason]++ < room) examples_.push_back(std::move(e));
    }
    for (const auto& [reason, n] : other.counts_) counts_[reason] += n;
    total_ += other.total_;
    other = SkipTally();
  }

  std::int64_t total() const { return total_; }
  // The kept examples, in the order they were added.
  const std::vector<Example>& examples() const { return examples_; }
  std::vector<Example>& mutable_examples() { return examples_; }

  // Every reason with its count, most frequent first (then by reason).
  std::vector<SkipReason> Reasons() const {
    std::vector<SkipReason> out;
    out.reserve(counts_.size());
    for (const auto& [reason, n] : counts_) out.push_back({reason, n});
    std::stable_sort(out.begin(), out.end(),
                     [](const SkipReason& a, const SkipReason& b) { return a.count > b.count; });
    return out;
  }

 private:
  std::map<std::string, std::int64_t, std::less<>> counts_;
  std::vector<Example> examples_;
  std::int64_t total_ = 0;
};

}  // namespace perfplan::profiles
