// The tuning questions of the query facade: cross-validate model kinds for a metric, train and
// save the chosen model, parameter sensitivity, configuration recommendation, the score
// classification check, and predictions of a saved model. Reads run tables (CSV, ARFF) through
// profiles/ and fits through tuning/; the CLI (`perfplan tune ...`) and, later, the HTTP service
// and the Spark store source call these functions and serialize the answers with tune_json.h.
// Stateless; thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "models/status.h"
#include "tuning/classification.h"
#include "tuning/gaussian_process.h"
#include "tuning/recommend.h"
#include "tuning/model_selection.h"
#include "tuning/sensitivity.h"

namespace perfplan::planner {

// Where training runs come from and how to read them.
// Exactly one of data_file and store_path is set.
struct TuneDataRequest {
  std::string data_file;   // .csv or .arff
  std::string store_path;  // profile store: one run per Spark application (docs/tuning.md)
  std::vector<std::string> store_apps;  // --apps: application ids (empty = all)
  std::string store_app_name;           // --app-name: substring of the application name
  // --ranges: YAML of min/max/default per parameter for a data file published with normalised
  // values (profiles/tuning/ranges_reader.h): each listed column's x becomes max(x·max, min)
  // before the data set is built, and when every model parameter has a default, the defaults
  // are the baseline of sensitivity and recommendation.
  std::string ranges_file;
  tuning::DatasetOptions dataset;
};

// A model to query: a saved model file, or (when model_file is empty) one trained on the fly
// from `data` with `search`.
struct TuneModelSource {
  std::string model_file;
  TuneDataRequest data;
  tuning::SearchOptions search;
};

struct TuneCvAnswer {
  std::string source;
  std::size_t runs = 0;
  std::size_t parameters = 0;  // features after encoding
  tuning::Selection selection;
  std::vector<std::string> warnings;  // data set warnings, then search warnings
};

struct TuneTrainAnswer {
  TuneCvAnswer cv;
  std::string model_file;
  std::size_t support_vectors = 0;
};

struct TuneClassifyAnswer {
  TuneCvAnswer cv;
  tuning::ClassificationReport report;
};

struct TunePrediction {
  int line = 0;
  double predicted = 0;
  bool has_measured = false;
  double measured = 0;
};
struct TunePredictAnswer {
  std::string model_file;
  std::string target;
  std::vector<TunePrediction> predictions;
};

// `tune next`: the configurations most worth running next (Gaussian process + expected
// improvement over a Latin-hypercube sample of the measured ranges).
struct TuneNextProposal {
  std::vector<tuning::RecommendedValue> config;  // one per parameter (baseline_text unused)
  double expected_improvement = 0;               // on the modelled (log) scale
  double predicted = 0;                          // posterior mean, target units
  double predicted_sd = 0;                       // posterior sd, modelled scale
};
struct TuneNextAnswer {
  std::string source;
  std::string target;
  std::size_t runs = 0;
  std::size_t candidates = 0;  // sampled configurations considered
  std::size_t failure_rejected = 0;  // of those, skipped as likely to fail (failed runs given)
  double length_scale = 0, noise = 0;
  bool log_target = false;
  std::uint64_t seed = 0;
  std::vector<TuneNextProposal> proposals;
  std::vector<std::string> warnings;
};

// The target sensitivity reports by default when it reads a store (DESIGN §3.6: "for the
// worst-scoring dimension"): the latest selected application (store_apps, store_app_name) with a
// finished task is scored against the store's history (planner/scoring), and its scored
// dimensions, worst first, are mapped to the store's run-table metrics: executor_compute_time_share
// → beta_compute_share (higher is better), shuffle_time_share → beta_shuffle_share, shuffle_bytes
// → beta_shuffle_bytes, gc_time_share → beta_gc_share, result_serialization_share →
// beta_result_serialization_share, total_time_seconds → itself. The Ganglia dimensions (α) have no
// per-application metric in the run table and are passed over. NotFound for a missing store;
// InvalidArgument when no selected application has a finished task or none of its scored
// dimensions has a metric.
struct WorstDimensionTarget {
  std::string app_id;     // the application scored
  std::string dimension;  // its worst-scoring dimension with a store metric
  double score = 0;       // that dimension's score
  std::string target;     // the run-table metric standing for it
  bool maximize = false;  // higher is better for the metric
};
Result<WorstDimensionTarget> WorstScoredTarget(const TuneDataRequest& data);

// Each: InvalidArgument (CLI exit 2) for unreadable or bad input files (the message lists every
// problem as FILE:LINE: FIELD: message), bad settings, unknown parameters, corrupt or other-version
// model files; Failed (exit 1) when a model cannot be trained or saved.
Result<TuneCvAnswer> AnswerTuneCv(const TuneDataRequest& data, const tuning::SearchOptions& search);
Result<TuneTrainAnswer> AnswerTuneTrain(const TuneDataRequest& data,
                                        const tuning::SearchOptions& search,
                                        const std::string& out_file);
// Sensitivity: from a store without a target (source.data.dataset.target empty), the target and
// goal of WorstScoredTarget, and the first warning says which dimension of which application.
Result<tuning::Sensitivity> AnswerTuneSensitivity(
    const TuneModelSource& source, const std::vector<std::pair<std::string, std::string>>& at,
    tuning::SensitivityOptions settings);
Result<tuning::Recommendation> AnswerTuneRecommend(const TuneModelSource& source,
                                                   const tuning::RecommendOptions& settings);
// Cross-validated predictions of the score column (data.dataset.target) classified at
// `threshold` against the measured scores.
Result<TuneClassifyAnswer> AnswerTuneClassify(const TuneDataRequest& data,
                                              const tuning::SearchOptions& search,
                                              double threshold);
Result<TuneNextAnswer> AnswerTuneNext(const TuneDataRequest& data, std::size_t count,
                                      std::size_t samples, std::uint64_t seed, tuning::Goal goal,
                                      double max_failure_probability);
// Predicts every row of `data_file` with a saved model; parameter columns are matched by name
// (extra columns are ignored; the model's target column, when present, is reported as measured).
Result<TunePredictAnswer> AnswerTunePredict(const std::string& model_file,
                                            const std::string& data_file);

}  // namespace perfplan::planner
