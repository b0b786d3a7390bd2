// How every `ingest` answer reports what it skipped (issue 17): the kept examples (the first 10
// of each reason, profiles/skip_tally.h) as the ingester's own lines, then — when some were not
// shown — the count of every reason, so a log with a million garbled lines reads as one line.
//
//   skipped 1200 line(s) or file(s) by reason (the first 10 of each are listed above):
//     1197  invalid JSON
//        3  task N has no Finish Time
//
// JSON answers carry the same as "skipped_total" and "skipped_reasons": [{"reason", "count"}].
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "profiles/skip_tally.h"

namespace perfplan::planner {

// Writes the by-reason lines above when `total` exceeds `shown` (the examples already written);
// nothing otherwise, so an ingest that skipped a few lines reads as before.
void WriteSkipReasons(std::ostream& out, const std::vector<profiles::SkipReason>& reasons,
                      std::int64_t total, std::size_t shown);

// [{"reason": …, "count": …}, …], most frequent first.
nlohmann::json SkipReasonsJson(const std::vector<profiles::SkipReason>& reasons);

}  // namespace perfplan::planner
