// The accuracy study of issue 9 over a runs table with several workloads on several instance types
// (the Scout data): the targets of the issue, computed with the same EvaluateWorkload() that
// `perfplan evaluate` runs, plus selection quality. Used by the data test
// (tests/planner/runtime/scout_accuracy_test.cpp) and by bench/scout_accuracy, which prints the tables of
// docs/accuracy.md. Pure over its input; thread-safe.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "models/runtime_evaluate.h"

namespace perfplan::planner {

struct AccuracyOptions {
  models::EvaluateOptions evaluate;  // candidate forms, intervals, heterogeneity mode
  std::size_t train_runs = 3;        // the "three smallest completed node counts"
  Status Validate() const;           // train_runs >= 1 and evaluate.Validate()
};

// Target (a): train on the k smallest completed node counts of every instance type.
struct PerTypeTrainResult {
  std::string workload;
  models::ErrorSummary perfplan, perfplan_on_ernest_rows, ernest, amdahl;
  double interval_coverage = 0;
  std::string form;  // the runtime form chosen by cross-validation ("" with kReferences)
};
// Target (b): train on the k smallest completed node counts of ONE type (plus every run of the
// other workloads as references); predict every other configuration of the workload.
struct OneTypeTrainResult {
  std::string workload;
  std::string base_type;
  models::ErrorSummary perfplan, ernest, amdahl;
  double interval_coverage = 0;
  std::string form;
};
// Selection: the configuration with the lowest predicted node-seconds (target (a) models) against
// the best measured one.
struct SelectionResult {
  std::string workload;
  std::string picked_type;
  double picked_nodes = 0;
  double picked_predicted_node_seconds = 0;
  double picked_measured_node_seconds = 0;
  bool picked_completed = true;
  std::string best_type;
  double best_nodes = 0;
  double best_measured_node_seconds = 0;
  double gap = 0;  // picked measured / best measured − 1
};

struct AccuracyReport {
  std::vector<PerTypeTrainResult> per_type;
  std::vector<OneTypeTrainResult> one_type;  // nine rows per workload
  std::vector<SelectionResult> selection;
  // Per workload: median over the base types of the one-type median APE (and of the P90).
  struct OneTypeSummary {
    std::string workload;
    double median_of_median_ape = 0;
    double median_of_p90_ape = 0;
    double ernest_median_of_median_ape = 0;
    double amdahl_median_of_median_ape = 0;
    double median_interval_coverage = 0;
  };
  std::vector<OneTypeSummary> one_type_summary;
  // Over every evaluation of the study (targets (a) and (b), every workload): rows with an
  // interval, and those whose interval does not contain their own prediction (must be 0).
  std::size_t intervals_checked = 0;
  std::size_t intervals_excluding_prediction = 0;
  std::string Markdown() const;
};

// The training mask: rows of `workload` (on `only_type`, or every type when empty) whose compute
// node count is among the k smallest completed ones of their type, plus the censored runs below
// the k-th (timeouts met on the way: lower bounds the fit uses as such).
std::vector<bool> SmallestCompletedPerType(const std::vector<models::MeasuredRun>& rows,
                                           const std::string& workload, std::size_t k,
                                           const std::string& only_type = "");

// Runs targets (a) and (b) and the selection check for every workload in `rows`. Fails with the
// first evaluation's error (e.g. a workload with too few completed runs on some type).
Result<AccuracyReport> StudyAccuracy(const std::vector<models::MeasuredRun>& rows,
                                     const AccuracyOptions& options = {});

}  // namespace perfplan::planner
