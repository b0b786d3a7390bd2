#include <cmath>
#include <nlohmann/json.hpp>

#include "models/json_fields.h"
#include "models/json_text.h"
#include "planner/runtime/fit_eval.h"
#include "profiles/runtime/profile_writer.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

// A count (nodes, the schema version) as the profile reader wants it: a whole number written without a fraction.
json NodeCount(double nodes) {
  return std::floor(nodes) == nodes && std::abs(nodes) < 9e15 ? json(static_cast<long long>(nodes))
                                                              : json(nodes);
}

json ConfigJson(const models::MeasuredRun& r) {
  return PERFPLAN_JSON_FIELDS(r, workload, instance_type, dataset_bytes, storage_nodes,
                              compute_nodes, bandwidth_bytes_per_second);
}

json EntryValue(const profiles::ProfileEntry& e) {
  switch (e.kind) {
    case profiles::ProfileEntry::Kind::kText:
    case profiles::ProfileEntry::Kind::kWord: return e.text;
    case profiles::ProfileEntry::Kind::kFlag: return e.flag;
    case profiles::ProfileEntry::Kind::kCount: return NodeCount(e.number);
    case profiles::ProfileEntry::Kind::kNumber: return e.number;
  }
  return nullptr;
}

json EntriesJson(const std::vector<profiles::ProfileEntry>& entries) {
  json j = json::object();
  for (const profiles::ProfileEntry& e : entries) j[e.key] = EntryValue(e);
  return j;
}

// The profile the YAML writer writes (profiles/runtime/profile_writer.h), as JSON keys.
json ProfileJson(const profiles::ProfileEntries& doc) {
  json j = EntriesJson(doc.top);
  if (!doc.reduction_communication.empty()) {
    j["reduction_communication"] = EntriesJson(doc.reduction_communication);
  }
  json runs = json::array();
  for (const auto& run : doc.runs) runs.push_back(EntriesJson(run));
  j["runs"] = std::move(runs);
  return j;
}


// The fields evaluate and backtest share for one predicted run.
json PredictedRunJson(const models::MeasuredRun& run, int line,
                      const std::optional<double>& predicted, const std::optional<double>& ape,
                      const std::optional<double>& low, const std::optional<double>& high,
                      const std::optional<bool>& inside) {
  json row = ConfigJson(run);
  row["line"] = line;
  row["completed"] = run.completed;
  row["measured_seconds"] = run.runtime_seconds;
  row["predicted_seconds"] = OrNull(predicted);
  row["ape"] = OrNull(ape);
  row["interval"] = {{"low_seconds", OrNull(low)}, {"high_seconds", OrNull(high)}};
  row["inside_interval"] = OrNull(inside);
  return row;
}

json SummaryJson(const models::ErrorSummary& s) {
  return {{"median_ape", s.median_ape},
          {"p90_ape", s.p90_ape},
          {"mean_ape", s.mean_ape},
          {"predicted_rows", s.predicted}};
}

json FitJson(const models::RuntimeFit& f) {
  json j = PERFPLAN_JSON_FIELDS(f, workload, instance_type, classes_chosen_by_fit, weighted_rms,
                                selection_score, hardware_aware, instance_types,
                                memory_overhead_factor, censored_active, notes);
  j["reduction_object_class"] = models::ToString(f.reduction_object_class);
  j["reduction_object_scaling"] = models::ToString(f.reduction_object_scaling);
  j["global_reduction_class"] = models::ToString(f.global_reduction_class);
  j["coefficients"] = {{"disk", f.disk_coefficient},
                       {"network", f.network_coefficient},
                       {"compute", f.compute_coefficient},
                       {"fixed_seconds", f.fixed_seconds},
                       {"reduction_object", f.reduction_object_coefficient},
                       {"global_reduction", f.global_reduction_coefficient},
                       {"memory", f.memory_coefficient}};
  return j;
}

json ChoiceJson(const models::ModelChoice& c) {
  json candidates = json::array();
  for (const models::CandidateScore& s : c.candidates) {
    candidates.push_back({{"form", models::ToString(s.form)},
                          {"eligible", s.eligible},
                          {"cv_error", s.eligible ? json(s.cv_error) : json(nullptr)},
                          {"cv_median_ape", s.eligible ? json(s.cv_median_ape) : json(nullptr)},
                          {"scored_runs", s.scored},
                          {"note", s.note}});
  }
  json pooling = nullptr;
  if (!c.pooling_scores.empty()) {
    json grid = json::array();
    for (const auto& [penalty, error] : c.pooling_scores) {
      grid.push_back(
          {{"penalty", penalty}, {"cv_error", std::isfinite(error) ? json(error) : json(nullptr)}});
    }
    pooling = {{"penalty", c.pooling_penalty > 0 ? json(c.pooling_penalty) : json(nullptr)},
               {"pooled_cv_error", c.pooled_cv_error},
               {"grid", grid}};
  }
  return {{"chosen", models::ToString(c.chosen)},
          {"scheme", c.scheme},
          {"folds", c.folds},
          {"cv_error_measure", "mean |log(measured/predicted)| over held-out training runs"},
          {"candidates", candidates},
          {"partial_pooling", pooling},
          {"reason", c.reason}};
}

}  // namespace

namespace {

json SelectionJson(const EvaluateAnswer& a, const models::Evaluation& ev) {
  const models::SelectionCheck& s = ev.selection;
  if (!s.available) return nullptr;
  json picked = ConfigJson(a.rows[s.picked_row]);
  picked["line"] = a.row_lines[s.picked_row];
  picked["predicted_node_seconds"] = s.picked_predicted_node_seconds;
  picked["measured_node_seconds"] = s.picked_measured_node_seconds;
  picked["completed"] = s.picked_completed;
  json best = ConfigJson(a.rows[s.best_row]);
  best["line"] = a.row_lines[s.best_row];
  best["measured_node_seconds"] = s.best_measured_node_seconds;
  return {
      {"objective", "node-seconds"}, {"picked", picked}, {"best_measured", best}, {"gap", s.gap}};
}

}  // namespace

std::string ToJson(const FitAnswer& a) {
  json j = ProfileJson(profiles::ListProfileEntries(a.profile, a.fit.instance_type));
  json used = json::array();
  json residuals = json::array();
  for (std::size_t k = 0; k < a.fit.runs_used.size(); ++k) {
    const models::MeasuredRun& r = a.runs[a.fit.runs_used[k]];
    json row = ConfigJson(r);
    row["line"] = a.run_lines[a.fit.runs_used[k]];
    row["runtime_seconds"] = r.runtime_seconds;
    row["completed"] = r.completed;
    row["residual_seconds"] = a.fit.residual_seconds[k];
    used.push_back(row);
    residuals.push_back(a.fit.residual_seconds[k]);
  }
  json fit = FitJson(a.fit);
  fit["runs_file"] = a.runs_file;
  fit["residual_seconds"] = residuals;
  fit["runs_used"] = used;
  fit["warnings"] = a.warnings;
  fit["model_choice"] = a.choice ? ChoiceJson(*a.choice) : json(nullptr);
  j["fit"] = fit;
  return JsonLine(j);
}

std::string ToJson(const EvaluateAnswer& a) {
  const models::Evaluation& ev = a.evaluation;
  json predictions = json::array();
  for (const models::EvaluatedRow& r : ev.rows) {
    json row = PredictedRunJson(r.run, a.row_lines[r.row], r.predicted_seconds, r.ape,
                                r.interval_low_seconds, r.interval_high_seconds, r.inside_interval);
    row["interval_widening"] = r.interval_widening;
    row["transfer"] = r.transfer;
    row["scaling_spread"] = r.scaling_spread;
    row["method"] = r.method;
    row["ernest_seconds"] = OrNull(r.ernest_seconds);
    row["ernest_ape"] = OrNull(r.ernest_ape);
    row["amdahl_seconds"] = OrNull(r.amdahl_seconds);
    row["amdahl_ape"] = OrNull(r.amdahl_ape);
    if (!r.run.completed) {
      row["respects_lower_bound"] = OrNull(r.respects_bound);
    }
    predictions.push_back(row);
  }
  json train_lines = json::array();
  for (std::size_t i : ev.train_rows) train_lines.push_back(a.row_lines[i]);
  json fits = json::array();
  for (const models::RuntimeFit& f : ev.fits) fits.push_back(FitJson(f));
  json ernest = SummaryJson(ev.ernest);
  ernest["perfplan_on_same_rows"] = SummaryJson(ev.perfplan_on_ernest_rows);
  json j = {
      {"runs_file", a.runs_file},
      {"workload", ev.workload},
      {"train", a.train_expression},
      {"train_lines", train_lines},
      {"predictions", predictions},
      {"median_ape", ev.perfplan.median_ape},
      {"p90_ape", ev.perfplan.p90_ape},
      {"mean_ape", ev.perfplan.mean_ape},
      {"predicted_rows", ev.perfplan.predicted},
      {"baselines", {{"ernest", ernest}, {"amdahl", SummaryJson(ev.amdahl)}}},
      {"interval",
       {{"level", a.interval_level},
        {"coverage", ev.interval_coverage},
        {"method", a.intervals ? json("cv+ on log residuals") : json(nullptr)},
        {"reference_errors", ev.interval_noise_references},
        {"widened_rows", ev.widened_rows},
        {"max_widening", ev.max_interval_widening},
        {"scaling_rows", ev.scaling_rows},
        {"max_scaling_spread", ev.max_scaling_spread},
        {"scaling_references", ev.scaling_references},
        {"short_of_points", ev.intervals_short_of_points}}},
      {"model_choice", ev.choice ? ChoiceJson(*ev.choice) : json(nullptr)},
      {"censored", {{"rows", ev.censored_rows}, {"prediction_above_bound", ev.censored_respected}}},
      {"selection", SelectionJson(a, ev)},
      {"fits", fits},
      {"notes", ev.notes}};
  return JsonLine(j);
}

std::string ToJson(const BacktestAnswer& a) {
  const models::Backtest& bt = a.backtest;
  json rows = json::array();
  for (const models::BacktestRow& r : bt.rows) {
    json row = PredictedRunJson(a.rows[r.row], a.row_lines[r.row], r.predicted_seconds, r.ape,
                                r.interval_low_seconds, r.interval_high_seconds, r.inside_interval);
    row["time"] = r.time;
    row["history_runs"] = r.history_runs;
    row["form"] = r.form;
    row["note"] = r.note;
    row["rolling_median_ape"] = r.rolling_median_ape;
    row["rolling_coverage"] = r.rolling_coverage;
    rows.push_back(row);
  }
  return JsonLine(json{{"runs_file", a.runs_file},
                       {"workload", bt.workload},
                       {"time_column", a.time_column},
                       {"refit_every", bt.refit_every},
                       {"runs", rows},
                       {"summary", SummaryJson(bt.summary)},
                       {"coverage", bt.coverage}});
}

std::string ToJson(const ImportScoutAnswer& a) {
  json runs = json::array();
  for (const models::MeasuredRun& r : a.runs) {
    json row = ConfigJson(r);
    row["runtime_seconds"] = r.runtime_seconds;
    row["completed"] = r.completed;
    runs.push_back(row);
  }
  return JsonLine(json{{"runs", runs}, {"rows", a.runs.size()}});
}

}  // namespace perfplan::planner
