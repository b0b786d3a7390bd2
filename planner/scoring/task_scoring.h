// Task types and heuristic scores of applications (DESIGN §3.5): joins each application's window
// and executor hosts with the Ganglia samples in the store (α), its event-log efficiency (β),
// clusters the γ of all applications into task types, and scores one application against the
// history of its type.
//
// The applications themselves (window, hosts, β, whether the run used the default
// configuration) come from the Spark event-log store through ApplicationRun values; this module
// does not read event logs. `perfplan label/classify/score/scores` are thin shells over these
// functions once that store exists.
//
// Not thread-safe beyond the Store's rules. Units as in models/task_vectors.h.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "models/heuristic_score.h"
#include "models/status.h"
#include "models/task_clustering.h"
#include "models/task_vectors.h"
#include "profiles/store.h"

namespace perfplan::planner {

// What the event-log store supplies for one application.
struct ApplicationRun {
  std::string app_id;
  std::int64_t start_epoch = 0;    // application start, Unix seconds
  std::int64_t end_epoch = 0;      // application end
  std::vector<std::string> hosts;  // hosts of its executors (as the event log names them)
  models::EfficiencyVector beta;
  bool baseline = false;  // ran with the default configuration
  std::string name;       // application name ("" when the log has none)
  double input_bytes = 0;  // Σ input bytes its tasks read
};

// γ of one application with how α was obtained.
struct RunVector {
  std::string app_id;
  std::string name;
  double input_bytes = 0;
  models::PerformanceVector gamma;
  models::ResourceVectorResult alpha;  // sources and warnings ("no resource data" …)
  bool baseline = false;
  std::optional<models::TaskType> hint;
};
// Loads each run's Ganglia samples (its window, its hosts) and builds γ. Executor hosts are
// matched with Ganglia's by name, short name or IP (models::MatchHost); a host that matches none
// keeps its name and is reported without samples. Failed on a store error.
Result<std::vector<RunVector>> BuildRunVectors(profiles::Store& store,
                                               const std::vector<ApplicationRun>& runs);

struct ClassifiedRun {
  std::string app_id;
  int cluster = -1;  // -1 when there were too few runs to cluster
  models::TaskType type = models::TaskType::kUnknown;
  std::optional<models::TaskType> hint;
};
struct ClassifyAnswer {
  std::vector<ClassifiedRun> runs;  // in input order
  std::optional<models::KMeansResult> kmeans;
  models::ClusterLabels labels;
  std::vector<std::string> warnings;
};
// Min-max normalizes the γ of all runs, clusters them, labels the clusters by hints. A run whose
// cluster is unknown but which carries its own hint takes the hint. Fewer runs than K: every run
// takes its own hint or unknown, with a warning. Never fails on data; InvalidArgument for bad
// settings.
Result<ClassifyAnswer> ClassifyRuns(const std::vector<RunVector>& runs,
                                    const models::KMeansOptions& settings = {});

struct ScoreAnswer {
  std::string app_id;
  models::ScoreResult result;
  std::array<std::string, 6> alpha_sources;  // how each α dimension was obtained
  std::string comparison;  // how the comparable runs were chosen, e.g. "same name 'Spark Pi'"
  std::vector<std::string> warnings;
};
// How far apart the input sizes of two comparable runs may be when they do not share a name:
// within a factor of 4 either way (both 0 also compare).
inline constexpr double kComparableInputFactor = 4.0;

// Scores `app_id` against its comparable runs: the other runs of the same application name when
// there is one, otherwise the other runs of its task type whose input size is within
// kComparableInputFactor of its own. `runs` must hold only applications with tasks (the callers
// drop the others). NotFound naming the id when it is not among `runs`; InvalidArgument from the
// score (no value at all, bad settings).
Result<ScoreAnswer> ScoreRun(const std::vector<RunVector>& runs, const ClassifyAnswer& classes,
                             const std::string& app_id, const models::ScoreOptions& settings = {});

// {"app_id", "kind" ("spark" or "mapreduce", as `scores` prints it), "score", "max_score", "comparable_runs", "comparison", "task_type", "provisional",
// "provisional_reasons", "dimensions": [{name, value, baseline, worst, best, score, weight,
// note}] (γ order), "explanation": [names worst first], "warnings"}; absent values are null.
std::string ToJson(const ScoreAnswer& answer);

}  // namespace perfplan::planner
