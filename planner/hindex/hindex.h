// Straggler-overhead answers for the CLI and the service: `perfplan hindex` (H-index of bucket or
// task times from a file or stdin) and `perfplan simulate hindex` (Monte Carlo check of the
// estimator on a mixture). The math is models/hindex.h; reading is profiles/hindex/bucket_times.h.
//
// `perfplan stragglers APP` (planner/hindex/stragglers.h) feeds each stage's task durations (std::vector<double>) to
// models::ComputeHIndex directly and weights stages with models::JobHIndex — no file step.
//
// Errors: InvalidArgument (exit 2) for unreadable or bad input, listing every problem as
// "FILE:LINE: FIELD: MESSAGE", and for a task the model rejects ("FILE: task 't7' (line 12): …").
// No globals; safe to call concurrently with distinct input streams.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "models/hindex.h"
#include "models/hindex_simulation.h"
#include "models/status.h"

namespace perfplan::planner {

struct HIndexRequest {
  std::string file;               // a path, or "-" for `input`
  std::istream* input = nullptr;  // read when file is "-" (stdin in the CLI)
  models::HIndexOptions options;
  bool svg = false;  // also draw the figure of the paper (HIndexAnswer::svg)
};

struct TaskHIndexAnswer {
  std::string task_id;
  int first_line = 0;
  double task_seconds = 0;  // P_t = Σ of the task's bucket seconds
  double weight = 0;        // P_t / Σ P
  models::HIndexResult result;
};

struct HIndexAnswer {
  std::string file;    // as given ("-" shown as "<stdin>")
  std::string format;  // "bucket-csv" or "column"
  // All values pooled into one Lorenz curve (for a plain column: the column itself). Its keys are
  // the top level of the JSON document (DESIGN §6).
  models::HIndexResult pooled;
  std::vector<TaskHIndexAnswer> tasks;  // bucket CSV only, in order of first appearance
  std::optional<double> h_job;          // bucket CSV only: Σ w_t·H_t
  std::string svg;                      // when requested: L, L*, y = x and the change point
};

Result<HIndexAnswer> AnswerHIndex(const HIndexRequest& request);

struct SimulateHIndexRequest {
  std::string mixture;  // e.g. "0.9*pareto(4,0.1)+0.1*pareto(1.7,1)"
  std::uint64_t seed = 1;
  models::HIndexSimulationOptions options;
};

struct SimulateHIndexAnswer {
  std::string mixture;  // canonical form
  std::uint64_t seed = 1;
  models::HIndexSimulationOptions options;
  models::HIndexSimulationResult result;
};

// InvalidArgument "--mixture: column 5: …" for a bad expression; the model's errors otherwise.
Result<SimulateHIndexAnswer> AnswerSimulateHIndex(const SimulateHIndexRequest& request);

// The JSON documents (DESIGN §6 keys; hindex_json.cpp). Every H-index result is written by one
// function with the keys of planner/hindex/hindex_fields.h: `hindex` → those keys (plus warnings,
// bic, file, format, tasks[] and h_job); `stragglers` (its ToJson is in stragglers.h) → per stage
// the same keys plus stage_id, attempt_id, task_seconds, included, weight, excluded_reason;
// `simulate hindex` → true_h_index, mean_change_point, mean_h_index, median_h_index (plus the
// settings and seed). nlohmann::json stays in the .cpp file.
std::string ToJson(const HIndexAnswer& answer);
std::string ToJson(const SimulateHIndexAnswer& answer);

}  // namespace perfplan::planner
