#include <nlohmann/json.hpp>

#include "planner/spark_api.h"

namespace perfplan::planner {

std::string ToJson(const profiles::spark::IngestSummary& summary) {
  nlohmann::json apps = nlohmann::json::array();
  for (const auto& a : summary.applications) {
    apps.push_back({{"app_id", a.app_id},
                    {"attempt_id", a.attempt_id},
                    {"source", a.source},
                    {"events", a.events},
                    {"completed", a.completed},
                    {"unchanged", a.unchanged}});
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const auto& s : summary.skipped) {
    skipped.push_back({{"file", s.file}, {"line", s.line}, {"reason", s.reason}});
  }
  nlohmann::json doc = {{"applications", summary.applications.size()},
                        {"events", summary.events},
                        {"lines", summary.lines},
                        {"bytes_read", summary.bytes_read},
                        {"applications_ingested", apps},
                        {"skipped", skipped}};
  return doc.dump(2) + "\n";
}

}  // namespace perfplan::planner
