#include "planner/scoring/score_runs.h"

#include <utility>

namespace perfplan::planner {

Result<std::vector<ScoreAnswer>> ScoreNotedRuns(profiles::Store& store,
                                                const std::vector<NotedRun>& runs,
                                                const std::string& only_id,
                                                const models::ScoreOptions& settings) {
  std::vector<ApplicationRun> plain;
  plain.reserve(runs.size());
  for (const NotedRun& r : runs) plain.push_back(r.run);
  auto vectors = BuildRunVectors(store, plain);
  if (!vectors.ok()) return vectors.status();
  auto classes = ClassifyRuns(vectors.value());
  if (!classes.ok()) return classes.status();
  std::vector<ScoreAnswer> out;
  for (const NotedRun& r : runs) {
    if (!only_id.empty() && r.run.app_id != only_id) continue;
    auto answer = ScoreRun(vectors.value(), classes.value(), r.run.app_id, settings);
    if (!answer.ok()) return answer.status();
    ScoreAnswer a = std::move(answer).value();
    a.warnings.insert(a.warnings.begin(), r.notes.begin(), r.notes.end());
    a.warnings.insert(a.warnings.end(), classes.value().warnings.begin(),
                      classes.value().warnings.end());
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace perfplan::planner
