// Problem: one thing wrong with an input file, located precisely enough to fix it.
//
// Every reader in profiles/ reports bad input as Problems rather than stopping at the first one,
// so `perfplan validate` can list all of them at once.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"

namespace perfplan::profiles {

struct Problem {
  std::string file;     // path as given by the user
  int line = 0;         // 1-based; 0 when the problem is about the whole file
  std::string field;    // dotted path inside the document, e.g. "runs[1].compute_nodes"
  std::string message;  // what was seen and what was expected
};

// "FILE:LINE: FIELD: MESSAGE" (LINE and FIELD omitted when unknown).
std::string FormatProblem(const Problem& p);

// InvalidArgument listing `problems` one per line (FormatProblem), whose field() is the first
// problem's field ("" when none names one). Ok when `problems` is empty.
Status ToStatus(const std::vector<Problem>& problems);

// The value of a reader: present when there were no problems.
template <typename T>
struct Loaded {
  T value{};
  std::vector<Problem> problems;
  bool ok() const { return problems.empty(); }
};

// The candidate closest to `word` by edit distance, or "" when none is close enough to suggest
// (distance more than a third of the word's length, at least 2).
std::string SuggestClosest(std::string_view word, const std::vector<std::string_view>& candidates);

}  // namespace perfplan::profiles
