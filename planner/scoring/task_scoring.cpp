#include "planner/scoring/task_scoring.h"

#include <cmath>

#include "profiles/ganglia/ganglia_store.h"
#include "profiles/ganglia/task_type_hints.h"

namespace perfplan::planner {

Result<std::vector<RunVector>> BuildRunVectors(profiles::Store& store,
                                               const std::vector<ApplicationRun>& runs) {
  auto labels = profiles::LoadTaskTypeHints(store);
  if (!labels.ok()) return labels.status();
  std::vector<RunVector> out;
  for (const ApplicationRun& run : runs) {
    auto samples = profiles::LoadGangliaSamples(store, run.start_epoch, run.end_epoch, run.hosts);
    if (!samples.ok()) return samples.status();
    RunVector v;
    v.app_id = run.app_id;
    v.baseline = run.baseline;
    v.alpha =
        models::ComputeResourceVector(samples.value(), {run.start_epoch, run.end_epoch, run.hosts});
    v.gamma = models::MakePerformanceVector(v.alpha.alpha, run.beta);
    if (auto it = labels.value().find(run.app_id); it != labels.value().end()) {
      v.hint = it->second;
    }
    out.push_back(std::move(v));
  }
  return out;
}

Result<ClassifyAnswer> ClassifyRuns(const std::vector<RunVector>& runs,
                                    const models::KMeansOptions& settings) {
  if (Status s = settings.Validate(); !s.ok()) return s;
  ClassifyAnswer out;
  for (const RunVector& r : runs) {
    out.runs.push_back({r.app_id, -1, r.hint.value_or(models::TaskType::kUnknown), r.hint});
  }
  if (static_cast<int>(runs.size()) < settings.k) {
    out.warnings.push_back(std::to_string(runs.size()) +
                           " run(s), fewer than k = " + std::to_string(settings.k) +
                           ": not clustered; each run takes its own label or unknown");
    return out;
  }
  std::vector<std::vector<double>> rows;
  for (const RunVector& r : runs) {
    std::vector<double> row;
    for (const auto& v : r.gamma.values) row.push_back(v ? *v : std::nan(""));
    rows.push_back(std::move(row));
  }
  auto scaling = models::FitMinMax(rows);
  if (!scaling.ok()) return scaling.status();
  for (auto& row : rows) row = models::ApplyMinMax(scaling.value(), row);
  auto km = models::KMeans(rows, settings);
  if (!km.ok()) return km.status();
  std::vector<std::optional<models::TaskType>> hints;
  for (const RunVector& r : runs) hints.push_back(r.hint);
  out.labels = models::LabelClusters(km.value().assignment, settings.k, hints);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const int c = km.value().assignment[i];
    out.runs[i].cluster = c;
    out.runs[i].type = out.labels.types[c];
    if (out.runs[i].type == models::TaskType::kUnknown && runs[i].hint) {
      out.runs[i].type = *runs[i].hint;
    }
  }
  out.warnings.insert(out.warnings.end(), out.labels.notes.begin(), out.labels.notes.end());
  out.kmeans = std::move(km).value();
  return out;
}

Result<ScoreAnswer> ScoreRun(const std::vector<RunVector>& runs, const ClassifyAnswer& classes,
                             const std::string& app_id, const models::ScoreOptions& settings) {
  std::size_t index = runs.size();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (runs[i].app_id == app_id) index = i;
  }
  if (index == runs.size() || index >= classes.runs.size()) {
    return Status::NotFound("application " + app_id + " is not in the store");
  }
  models::ScoreInput input;
  input.gamma = runs[index].gamma;
  input.type = classes.runs[index].type;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    if (i == index || classes.runs[i].type != input.type) continue;
    input.history.push_back({runs[i].app_id, runs[i].gamma, runs[i].baseline});
  }
  auto result = models::ComputeScore(input, settings);
  if (!result.ok()) {
    return Status::InvalidArgument("application " + app_id + ": " + result.status().message());
  }
  ScoreAnswer out;
  out.app_id = app_id;
  out.result = std::move(result).value();
  out.alpha_sources = runs[index].alpha.sources;
  out.warnings = runs[index].alpha.warnings;
  out.warnings.insert(out.warnings.end(), out.result.warnings.begin(), out.result.warnings.end());
  return out;
}

}  // namespace perfplan::planner
