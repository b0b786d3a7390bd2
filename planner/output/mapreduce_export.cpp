#include "planner/output/mapreduce_export.h"

#include <algorithm>

namespace perfplan::planner {

ExportTable MapReduceStragglersTable(const MapReduceStragglersAnswer& answer) {
  // One StragglersTable over the phases, then the stage columns become the phase column.
  StragglersAnswer as_stages;
  as_stages.app_id = answer.job_id;
  as_stages.h_job = answer.h_job;
  std::vector<std::string> names;
  for (const auto& [name, s] : answer.phases) {
    as_stages.stages.push_back(s);
    names.push_back(name);
  }
  for (const auto& [name, s] : answer.reduce_sub_phases) {
    as_stages.stages.push_back(s);
    names.push_back("reduce." + name);
  }
  ExportTable t = StragglersTable(as_stages);
  const auto stage = std::find(t.columns.begin(), t.columns.end(), "stage_id");
  const auto at = static_cast<std::size_t>(stage - t.columns.begin());  // attempt_id follows
  t.columns[0] = "job";
  t.columns[at] = "phase";
  t.columns.erase(t.columns.begin() + static_cast<std::ptrdiff_t>(at) + 1);
  for (std::size_t r = 0; r < t.rows.size(); ++r) {
    t.rows[r][at] = names[r];
    t.rows[r].erase(t.rows[r].begin() + static_cast<std::ptrdiff_t>(at) + 1);
  }
  return t;
}

Result<ExportTable> AnswerMapReduceStragglersExport(const std::string& store_path,
                                                    const std::string& job_id,
                                                    const models::HIndexOptions& options) {
  auto store = profiles::Store::OpenReadOnly(store_path, {profiles::mapreduce::StoreMigrations()});
  if (!store.ok()) return store.status();
  auto answer = AnswerMapReduceStragglers(*store.value(), job_id, options);
  if (!answer.ok()) return answer.status();
  return MapReduceStragglersTable(answer.value());
}

}  // namespace perfplan::planner
