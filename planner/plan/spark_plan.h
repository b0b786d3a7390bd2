// `perfplan plan --store DB --app NAME` (issue 20): the plan of a Spark application from the
// evidence the store holds for it, each part the answer of the separate command it combines, so
// the plan never contradicts them:
//
//   executors   the replay of the latest run's tasks at other executor counts
//               (planner::AnswerWhatIfExecutors, `perfplan whatif executors`), and, when the
//               store holds enough runs of the application at different executor counts
//               (kSparkHistoryMinRuns completed runs at kSparkHistoryMinCounts or more counts),
//               the runtime form fitted to that history (models::ChooseRuntimeForm over the
//               serial-floor, log-nodes and communication forms, chosen by leave-one-out /
//               leave-one-node-count-out error) with its CV+ interval (models/conformal.h);
//               otherwise it says how many runs and counts it has and needs.
//   parameters  planner::AnswerTuneRecommend over the application's runs in the store (`perfplan
//               tune recommend --store DB --app-name NAME --target total_time_seconds`) when it
//               has at least as many runs as the cross-validation has folds; its
//               spark-defaults.conf lines, CV error, and the top sensitive parameters with the
//               way that shortens the run (planner::AnswerTuneSensitivity on the same model).
//               Otherwise: how many runs it has and needs.
//   score       planner::AnswerScores of the latest run (`perfplan score APP`): its score and
//               its worst dimensions.
//   stragglers  planner::AnswerStragglers of the latest run (`perfplan stragglers APP`): H_job,
//               the attainable speed-up 1/(1 − H), and for its slowest stages (by summed task
//               time) their H, 1/(1 − H), whether speculation would act (a task longer than
//               spark.speculation.multiplier = 1.5 × the stage's median), and whether AQE's skew
//               rule would act (a shuffle-read partition larger than
//               spark.sql.adaptive.skewJoin.skewedPartitionFactor = 5 × the median and larger than
//               skewedPartitionThresholdInBytes = 256 MB), from the stage's taskSummary
//               (profiles::spark::HistoryApi, `perfplan spark api`).
//
// The executor count is chosen among the what-if's counts by the objective (time: the fastest,
// ties to fewer executors; node-seconds: the fewest executor-seconds), within the deadline and the
// executor limit. The store records neither sites nor instance types, so this path prices
// nothing: an objective of cost, a budget or a price file is refused (InvalidField naming it).
//
// NotFound for a store that does not exist or an application that is not in it; a part that
// cannot be answered (e.g. no finished task to score) is a warning, not a failure. No globals.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/conformal.h"
#include "models/status.h"
#include "planner/spark/spark_api.h"
#include "tuning/recommend.h"

namespace perfplan::planner {

struct PlanRequest;

inline constexpr std::size_t kSparkHistoryMinRuns = 3;    // completed runs of the application
inline constexpr std::size_t kSparkHistoryMinCounts = 2;  // distinct executor counts among them
inline constexpr std::size_t kSparkTopStages = 3;         // slowest stages listed
inline constexpr double kSpeculationMultiplier = 1.5;     // spark.speculation.multiplier default
inline constexpr double kSkewedPartitionFactor = 5;       // ...skewJoin.skewedPartitionFactor
inline constexpr double kSkewedPartitionThresholdBytes = 256.0 * 1024 * 1024;

struct SparkExecutorOption {
  int executors = 0;
  double whatif_seconds = 0;         // the replay's prediction
  double executor_seconds = 0;       // whatif_seconds × executors
  std::optional<double> history_seconds;  // the fitted history's prediction, when fitted
  std::optional<models::ConformalInterval> history_interval;
  bool feasible = true;  // within the deadline
};

struct SparkHistoryRun {
  std::string app_id;
  int executors = 0;
  double seconds = 0;
  bool completed = true;
};

struct SparkHistoryFit {
  std::vector<SparkHistoryRun> runs;  // every run of the application, oldest first
  std::size_t completed_runs = 0;
  std::size_t distinct_counts = 0;
  bool fitted = false;
  std::string form;     // the chosen form ("serial-floor", …)
  std::string scheme;   // its CV scheme
  double cv_error = 0;  // mean |log(measured/predicted)| over held-out runs
  double interval_level = 0.9;
  std::string note;  // why not fitted, or the choice's reason
};

struct SparkTuning {
  std::size_t runs = 0;    // the application's runs in the store
  std::size_t needed = 0;  // runs the cross-validation needs (its folds)
  std::vector<std::string> app_ids;  // the runs given to the model, oldest first
  bool recommended = false;
  std::optional<tuning::Recommendation> recommendation;
  std::vector<std::pair<std::string, std::string>> top_parameters;  // (name, direction)
  std::string note;  // why there is no recommendation
};

struct SparkScorePart {
  bool scored = false;
  double score = 0;
  double max_score = 0;
  std::size_t comparable_runs = 0;
  bool provisional = false;
  std::vector<std::pair<std::string, double>> worst;  // (dimension, its score), worst first
  std::string note;
};

struct SparkStageStragglers {
  int stage_id = 0, attempt_id = 0;
  double task_seconds = 0;
  std::optional<double> h_index;  // when the stage had enough tasks
  std::optional<double> speedup;  // 1/(1 − H)
  std::optional<double> max_over_median;
  bool speculation_would_act = false;
  std::optional<double> median_shuffle_read_bytes, max_shuffle_read_bytes;
  bool aqe_skew_would_act = false;
  std::string note;  // why H is absent
};

struct SparkStragglersPart {
  std::optional<double> h_job;
  std::optional<double> speedup;  // 1/(1 − H_job)
  std::size_t stages_used = 0;
  std::vector<SparkStageStragglers> slowest;  // by summed task time, longest first
  std::string note;
};

struct SparkPlanAnswer {
  std::string store_path;
  std::string app_name;
  std::string latest_app_id;  // latest start; the largest id among runs started together
  WhatIfAnswer whatif;                       // exactly AnswerWhatIfExecutors' answer
  std::vector<SparkExecutorOption> options;  // one per what-if count, ascending
  std::optional<std::size_t> chosen;         // index into options
  std::string chosen_because;
  SparkHistoryFit history;
  SparkTuning tuning;
  SparkScorePart score;
  SparkStragglersPart stragglers;
  std::vector<std::string> warnings;
};

// The what-if counts of a plan when none are given: 1, 2, 4, … up to twice the observed count
// (at least 8), plus the observed count, capped by max_executors (0 = no cap).
std::vector<int> DefaultExecutorCounts(int observed, int max_executors);

// Uses request.store_path, app, objective, deadline_seconds, max_nodes (executors) and
// node_counts (executor counts).
Result<SparkPlanAnswer> AnswerSparkPlan(const PlanRequest& request);

std::string ToJson(const SparkPlanAnswer& answer);

}  // namespace perfplan::planner
