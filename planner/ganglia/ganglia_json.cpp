// JSON documents for the Ganglia answers (DESIGN §6: collect ganglia → samples, hosts, metrics).
#include <nlohmann/json.hpp>

#include "planner/ganglia/ganglia_collect.h"
#include "models/json_text.h"

namespace perfplan::planner {

std::string ToJson(const CollectAnswer& a) {
  nlohmann::json j = {{"source", a.source},
                      {"kind", a.kind},
                      {"samples", a.samples},
                      {"samples_seen", a.samples_seen},
                      {"hosts", a.hosts},
                      {"metrics", a.metrics},
                      {"polls", a.polls},
                      {"failed_polls", a.failed_polls},
                      {"interrupted", a.interrupted},
                      {"warnings", a.warnings}};
  return JsonLine(j);
}

}  // namespace perfplan::planner
