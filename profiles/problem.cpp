#include "profiles/problem.h"

#include <algorithm>

namespace perfplan::profiles {

std::string FormatProblem(const Problem& p) {
  std::string out = p.file;
  if (p.line > 0) out += ":" + std::to_string(p.line);
  out += ": ";
  if (!p.field.empty()) out += p.field + ": ";
  out += p.message;
  return out;
}

Status ToStatus(const std::vector<Problem>& problems) {
  if (problems.empty()) return Status::Ok();
  std::string message;
  std::string field;
  for (const Problem& p : problems) {
    if (!message.empty()) message += "\n";
    message += FormatProblem(p);
    if (field.empty()) field = p.field;
  }
  return Status::InvalidArgument(std::move(message)).WithField(std::move(field));
}

namespace {
std::size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}
}  // namespace

std::string SuggestClosest(std::string_view word, const std::vector<std::string_view>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
  for (std::string_view c : candidates) {
    const std::size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = std::string(c);
    }
  }
  return best;
}

}  // namespace perfplan::profiles
