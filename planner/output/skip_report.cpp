#include "planner/output/skip_report.h"

#include <algorithm>
#include <string>

namespace perfplan::planner {

void WriteSkipReasons(std::ostream& out, const std::vector<profiles::SkipReason>& reasons,
                      std::int64_t total, std::size_t shown) {
  if (total <= static_cast<std::int64_t>(shown)) return;
  out << "skipped " << total << " line(s) or file(s) by reason (the first "
      << profiles::kSkipExamplesPerReason << " of each are listed above):\n";
  std::size_t width = 1;
  for (const auto& r : reasons) width = std::max(width, std::to_string(r.count).size());
  for (const auto& r : reasons) {
    const std::string count = std::to_string(r.count);
    out << "  " << std::string(width - count.size(), ' ') << count << "  " << r.reason << "\n";
  }
}

nlohmann::json SkipReasonsJson(const std::vector<profiles::SkipReason>& reasons) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : reasons) out.push_back({{"reason", r.reason}, {"count", r.count}});
  return out;
}

}  // namespace perfplan::planner
