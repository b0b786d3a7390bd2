// JSON documents for the Ganglia answers (DESIGN §6: collect ganglia → samples, hosts, metrics).
#include <nlohmann/json.hpp>

#include "models/json_fields.h"
#include "models/json_text.h"
#include "planner/ganglia/ganglia_collect.h"

namespace perfplan::planner {

std::string ToJson(const CollectAnswer& a) {
  return JsonLine(PERFPLAN_JSON_FIELDS(a, source, kind, samples, samples_seen, hosts, metrics,
                                       polls, failed_polls, interrupted, warnings));
}

}  // namespace perfplan::planner
