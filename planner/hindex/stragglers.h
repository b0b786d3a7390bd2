// Straggler overhead of a Spark application in the store — `perfplan stragglers APP`: the H-index
// (models/hindex.h, DESIGN §3.4) of the task durations of every stage attempt, and the job-level
// H_job = Σ w_t·H_t with w_t = the stage's share of the summed task time of the stages used.
//
// A stage attempt with fewer than 2ω + 2 successful tasks (ω = the minimum segment, default
// max(10, ⌊n/100⌋)), or whose durations the model rejects (e.g. all zero), is reported with the
// reason and left out of H_job; when no stage is left, H_job is absent (never NaN).
// Times are seconds. No globals; opens its own Store, so concurrent calls need distinct requests
// only.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "models/hindex.h"
#include "models/status.h"

namespace perfplan::planner {

struct StragglersRequest {
  std::string store_path = "perfplan.db";
  std::string app_id;
  std::string attempt_id;  // application attempt; empty = the latest
  models::HIndexOptions options;
};

struct StageStragglers {
  int stage_id = 0;
  int attempt_id = 0;  // stage attempt
  std::size_t tasks = 0;
  double task_seconds = 0;                     // Σ successful task durations
  std::optional<double> max_over_median;       // also for excluded stages; empty when median is 0
  bool included = false;                       // used in H_job
  std::string excluded_reason;                 // set when !included
  double weight = 0;                           // w_t; 0 when excluded
  std::optional<models::HIndexResult> result;  // set when included
};

struct StragglersAnswer {
  std::string app_id;
  std::string attempt_id;               // as requested ("" = latest)
  std::vector<StageStragglers> stages;  // by stage, then stage attempt
  std::optional<double> h_job;          // absent when no stage could be used
  std::size_t stages_used = 0;
  std::string h_job_note;  // why h_job is absent
};

// Success: one entry per stage attempt. Errors: the store cannot be opened (Failed); the
// application is not in the store (NotFound "no Spark application APP in the store; did you mean
// "X"?"); options.Validate() (InvalidArgument).
Result<StragglersAnswer> AnswerStragglers(const StragglersRequest& request);

// The figures of one set of successful task durations (a Spark stage attempt, a MapReduce phase):
// n, Σ seconds, max/median, and the H-index when n ≥ 2ω + 2 and the model accepts the values
// (otherwise included = false with the reason). stage_id/attempt_id are left 0.
StageStragglers MeasureStragglers(const std::vector<double>& task_seconds,
                                  const models::HIndexOptions& options);

// H_job = Σ w_t·H_t over the included entries (w_t = share of their summed task time); sets each
// included entry's weight. Absent with a note ("no WHAT has enough successful tasks for a change
// point", …) when it cannot be formed. Returns the number of entries used.
std::size_t WeighStragglers(std::vector<StageStragglers>& entries, const std::string& what,
                            std::optional<double>* h_job, std::string* note);

// The JSON document of DESIGN §6 (`stages[]` with the hindex keys plus stage_id, attempt_id,
// max_over_median; `h_job`), defined in hindex_json.cpp.
std::string ToJson(const StragglersAnswer& answer);

}  // namespace perfplan::planner
