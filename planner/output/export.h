// Export: answers as tables for spreadsheets (CSV) and scripts (JSON) — `perfplan export`.
//
// Every export builds one ExportTable (named columns with units in their names, typed cells) and
// serializes it one of two ways, so CSV and JSON never disagree:
//   CSV  — RFC 4180: header row, CRLF line ends, fields with comma, quote, CR or LF quoted with
//          doubled quotes; text cells starting with = + - @ get a leading ' so a spreadsheet
//          shows them instead of evaluating them (formula injection).
//   JSON — {"schema_version": 1, "what": ..., "columns": [...], "rows": [{column: value}, ...]}
// docs/export.md documents the columns of each export. Pure; thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "planner/hdfs/hdfs.h"
#include "planner/hindex/stragglers.h"
#include "planner/runtime/runtime.h"
#include "planner/plan/capacity.h"
#include "planner/plan/combined_plan.h"
#include "planner/plan/plan.h"
#include "planner/plan/spark_plan.h"
#include "planner/scoring/task_scoring.h"
#include "tuning/sensitivity.h"

namespace perfplan::planner {

inline constexpr int kExportSchemaVersion = 1;

using ExportCell =
    std::variant<std::monostate, double, long long, std::string>;  // monostate: empty

struct ExportTable {
  std::string what;                  // e.g. "predictions"
  std::vector<std::string> columns;  // units in names: runtime_seconds, dataset_bytes, …
  std::vector<std::vector<ExportCell>> rows;
};

std::string ToCsv(const ExportTable& table);
std::string ToJson(const ExportTable& table);

// What `perfplan export --what` exports; one ExportTable builder each.
enum class ExportKind {
  kPredictions,
  kSelection,
  kScores,
  kSensitivity,
  kStragglers,
  kWorkload,
  kPlan,
  kCapacity
};
// "predictions", "selection", "scores", "sensitivity", "stragglers", "workload", "plan", "capacity".
std::string_view ToString(ExportKind kind);
// False (and *out unchanged) for any other text.
bool Parse(std::string_view text, ExportKind* out);

// The inputs of one export; each kind reads only its own fields.
struct ExportRequest {
  ExportKind what = ExportKind::kPredictions;
  std::string profile_file;  // predictions, selection: profile summary (YAML or JSON)
  // predictions: one prediction for every combination of these lists (none may be empty)
  std::vector<double> dataset_bytes, storage_nodes, compute_nodes, bandwidth_bytes_per_second;
  std::string cluster_file, site;          // predictions: optional heterogeneity factors
  std::string topology_file;               // selection: cluster topology
  SelectOptions select;                    // selection: dataset (required), objective, budget, top
  std::string store_path = "perfplan.db";  // stragglers, scores, workload
  std::string app_id;                      // stragglers (required); scores: only this application
  StragglersRequest stragglers;  // stragglers: options (store_path and app_id come from above)
  std::string model_file;        // sensitivity: model saved by `perfplan tune train`
  bool maximize = false;         // sensitivity: higher is better for the target
  WorkloadRequest workload;      // workload: window (store_path comes from above)
  // plan: prices, objective, budget, and the runs path (plan.runs_file, plan.workload,
  // plan.node_counts); the profile path's profile, topology and dataset, the deadline and node
  // limit come from the fields above; with app_id, the Spark application path over store_path
  // (whose executor counts are plan.node_counts when it is the only path). Two or three paths
  // given: the combined plan (CombinedPlanTable).
  PlanRequest plan;
  CapacityRequest capacity;  // capacity: trace, sizes, prices (the profile comes from above)
};

// Answers the request and builds its table. InvalidArgument when a field the kind needs is
// missing; otherwise whatever the answer it exports returns.
Result<ExportTable> AnswerExport(const ExportRequest& request);

// One row per prediction, with the target, the breakdown and the warnings ("; "-joined).
ExportTable PredictionsTable(const std::vector<PredictAnswer>& answers);
// One row per alternative, best first, with its rank.
ExportTable SelectionTable(const SelectAnswer& answer);
// One row per stage attempt of `perfplan stragglers`: the H-index columns are empty for a stage
// left out of H_job, whose `excluded_reason` says why; `h_job` repeats the application's value
// on every row (empty when there is none).
ExportTable StragglersTable(const StragglersAnswer& answer);
// One row per application of `perfplan scores`, in the given order: the score, its task type,
// the worst dimension, then each γ dimension's value and its score (columns <dimension> and
// <dimension>_score, Dimensions() order; empty when absent).
ExportTable ScoresTable(const std::vector<ScoreAnswer>& answers);
// One row per parameter of `perfplan tune sensitivity`, most influential first.
ExportTable SensitivityTable(const tuning::Sensitivity& sensitivity);
// The HDFS workload of `perfplan workload` as one table whose `kind` column says what a row is:
// one "cluster" row, then "datanode", "client" and "user" rows, then "recommendation" rows
// (command and reason); columns that do not apply to a kind are empty.
ExportTable WorkloadTable(const WorkloadAnswer& answer);
// One row per alternative of `perfplan plan`, in the plan's order: the select columns, the cost
// (empty when unpriced), and the flags chosen / on_front / feasible (1 or 0).
ExportTable PlanTable(const PlanAnswer& answer);
// The plan of a Spark application (`perfplan plan --store DB --app NAME`) as one table whose
// `kind` column says what a row is: "executors" rows (one per what-if count, ascending, with the
// fitted history's prediction and interval when fitted, chosen and feasible as 1 or 0), then
// "parameter" rows (the recommended spark-defaults values, when the application has enough runs),
// then "stage" rows (its slowest stages' stragglers); columns that do not apply are empty.
ExportTable SparkPlanTable(const SparkPlanAnswer& answer);
// The combined plan over several evidence paths (planner/plan/combined_plan.h) as one table: the
// rows of each part's own table (PlanTable for the profile and runs parts, SparkPlanTable for
// the Spark part), in that order, under the union of their columns (in order of first
// appearance), after four columns of the combined plan: `part` ("profile", "runs",
// "spark-application"), `alternative` (the row's index in its part's alternatives; empty for
// Spark rows), `combined_chosen` (1 on the placement the combined plan chose and on the Spark
// part's chosen executor count, else 0; empty for Spark rows other than executor counts) and
// `combined_on_front` (1 on the points of the front over both placement parts; empty for Spark
// rows). A column a part does not have is empty on its rows.
ExportTable CombinedPlanTable(const CombinedPlanAnswer& answer);
// One row per cluster size of `perfplan capacity`, in the requested order.
ExportTable CapacityTable(const CapacityAnswer& answer);

}  // namespace perfplan::planner
