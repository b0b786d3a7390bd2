// The query facade for fitting and evaluating the runtime model from runs CSV files
// (`perfplan fit`, `perfplan evaluate`, `perfplan import scout`; DESIGN §3.2, §6).
//
// Each function reads its input files, reports every input problem as "file:line: column:
// message" (InvalidArgument → exit 2), calls models/runtime_fit.h and returns a plain answer that
// the CLI prints as a table or as JSON (ToJson below). No globals; thread-safe.
#pragma once

#include <string>
#include <vector>

#include "models/runtime_backtest.h"
#include "models/runtime_evaluate.h"
#include "models/runtime_fit.h"
#include "models/runtime_forms.h"
#include "models/status.h"

namespace perfplan::planner {

struct FitRequest {
  std::string runs_file;
  std::string workload;
  // The instance type to fit on; "" = the type with the most completed runs of the workload.
  std::string instance_type;
  std::string train_expression;  // optional row filter (DESIGN §6 syntax); "" = every row
  models::FitOptions options;
};

struct FitAnswer {
  std::string runs_file;
  models::RuntimeFit fit;
  models::RuntimeProfile profile;         // what `perfplan predict` reads
  // The candidate forms scored by cross-validation on the same runs (nullopt, with a warning,
  // when no form can be scored); the profile always holds the freeride-g fit.
  std::optional<models::ModelChoice> choice;
  std::vector<int> run_lines;             // CSV line of each entry of fit.runs_used
  std::vector<models::MeasuredRun> runs;  // the runs given to the fit (fit.runs_used indexes it)
  std::vector<std::string> warnings;
};

Result<FitAnswer> AnswerFit(const FitRequest& request);

struct EvaluateRequest {
  std::string runs_file;
  std::string workload;
  std::string train_expression;  // required: rows of the workload to train on
  models::EvaluateOptions options;
};

// What an answer over every row of a runs CSV carries beside its result (evaluate, backtest).
struct RunsFileRows {
  std::string runs_file;
  std::vector<int> row_lines;             // CSV line of every row of the file, by row index
  std::vector<models::MeasuredRun> rows;  // every row of the file
};

struct EvaluateAnswer : RunsFileRows {
  std::string train_expression;
  models::Evaluation evaluation;
  bool intervals = true;
  double interval_level = 0;
};

Result<EvaluateAnswer> AnswerEvaluate(const EvaluateRequest& request);

// `perfplan backtest`: the runs CSV must have a numeric time column (any monotone unit, e.g. Unix
// seconds); the workload's runs are replayed in that order (models/runtime_backtest.h).
struct BacktestRequest {
  std::string runs_file;
  std::string workload;
  std::string time_column = "time";
  models::BacktestOptions options;
};

struct BacktestAnswer : RunsFileRows {
  std::string time_column;
  models::Backtest backtest;
};

// Errors (InvalidArgument): the CSV problems; "FILE:1: time: no such column (columns: …)"; a
// time cell that is not a number ("FILE:7: time: must be a number, got 'soon'"); unknown workload.
Result<BacktestAnswer> AnswerBacktest(const BacktestRequest& request);

struct ImportScoutAnswer {
  std::vector<models::MeasuredRun> runs;
  std::string csv;  // the runs CSV text
};

// `dataset_bytes`: "WORKLOAD=BYTES" sizes for workloads whose reports record none (input_size -1,
// as Spark 1.5's HiBench runs write). Errors (InvalidArgument): the import's problems, a malformed
// pair ("--dataset-bytes: \"kmeans\": expected WORKLOAD=BYTES, …"), a workload not in the folder.
Result<ImportScoutAnswer> AnswerImportScout(const std::string& dir,
                                            const std::vector<std::string>& dataset_bytes = {});

// The JSON documents of these answers (fit_json.cpp). Keys follow DESIGN §6; units in every key
// name. The fit document is itself a profile `perfplan predict` reads (the profile keys at top
// level, plus an informational "fit" object). nlohmann::json stays in the .cpp.
std::string ToJson(const FitAnswer& answer);
std::string ToJson(const EvaluateAnswer& answer);
std::string ToJson(const BacktestAnswer& answer);
std::string ToJson(const ImportScoutAnswer& answer);

}  // namespace perfplan::planner
