// The adapter from the Spark event-log store (profiles/spark/spark_store.h) to task scoring
// (planner/scoring/task_scoring.h): per application its time window, the hosts of its executors, β and
// whether it ran with the default configuration; and the whole `perfplan score APP` pipeline over
// one store (every application's γ, k-means task types, the score of one of them).
//
// Default-configuration rule: an application ran with the default configuration when none of the
// tuning properties listed by TuningPropertyDefaults() is set in its `spark` properties to a value
// other than Spark's documented default (compared as trimmed text; a property with no fixed
// default, such as spark.executor.instances, counts whenever it is set). Deployment properties
// (master, app name, ports, paths, ids) never count.
//
// The store must be opened with the spark, ganglia and task_types migrations (ScoringMigrations()).
// Not thread-safe beyond the Store's rules. Times are Unix seconds.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "models/status.h"
#include "planner/scoring/task_scoring.h"
#include "profiles/store.h"

namespace perfplan::planner {

// spark + ganglia + task_types, for Store::Open.
std::vector<profiles::Migrations> ScoringMigrations();

// Tuning property → Spark's default value as text ("" = no fixed default: any setting counts).
const std::vector<std::pair<std::string_view, std::string_view>>& TuningPropertyDefaults();

// The tuning properties among `spark_properties` (name, value) that differ from their default,
// formatted "name=value", in input order. Empty = default configuration.
std::vector<std::string> NonDefaultTuningProperties(
    const std::vector<std::pair<std::string, std::string>>& spark_properties);

// One application as task scoring needs it, with how it was derived.
struct StoredRun {
  ApplicationRun run;
  std::vector<std::string> non_default;  // NonDefaultTuningProperties of the application
  std::vector<std::string> notes;        // e.g. window end taken from the last task
};

// The latest attempt of `app_id`: window = [floor(start), ceil(end)] seconds (end = start + β's
// total time when the log has no end); hosts = the distinct hosts of its non-driver executors, or
// the driver's host in local mode; β from ComputeEfficiencyVector (shares absent when no task
// finished). NotFound "no Spark application APP in the store" with "; did you mean 'X'?" when an
// id is close; Failed on a store error.
Result<StoredRun> LoadStoredRun(profiles::Store& store, const std::string& app_id);

// Every application in the store (latest attempt of each), latest start first.
Result<std::vector<StoredRun>> LoadStoredRuns(profiles::Store& store);

// InvalidArgument/NotFound as LoadStoredRun when `app_id` is not in the store; ok otherwise.
Status CheckApplicationExists(profiles::Store& store, const std::string& app_id);

// Scores `app_id` (or, when empty, every application) against the store's history: γ of every
// application, task types by k-means over all of them, then ScoreRun per requested application.
// The answers' warnings carry the classification's warnings. NotFound as LoadStoredRun (also when
// the store holds no application); InvalidArgument from the score.
Result<std::vector<ScoreAnswer>> ScoreStoredApplications(profiles::Store& store,
                                                         const std::string& app_id,
                                                         const models::ScoreOptions& settings = {});

// ScoreStoredApplications over the store file at `store_path`, opened with ScoringMigrations().
// NotFound "STORE: no such store; run `perfplan ingest spark` first" when the file does not
// exist (a read never creates a store); the errors of ScoreStoredApplications otherwise.
Result<std::vector<ScoreAnswer>> AnswerScores(const std::string& store_path,
                                              const std::string& app_id);

// Task types of every application in the store: γ of each, k-means over all of them, clusters
// labelled by the stored hints (ClassifyRuns). NotFound when the store holds no application.
Result<ClassifyAnswer> ClassifyStoredApplications(profiles::Store& store);

// `perfplan classify --json`: {"applications": [{app_id, cluster, task_type, hint}], "clusters":
// [{cluster, task_type, size}], "warnings"}; cluster −1 and no clusters when not clustered.
std::string ToJson(const ClassifyAnswer& answer);

// `perfplan label --json`: {"app_id", "task_type", "stored": true}.
std::string LabelToJson(const std::string& app_id, models::TaskType type);
// `perfplan scores --json`: {"applications": [ToJson(ScoreAnswer) objects in the given order]}.
std::string ToJson(const std::vector<ScoreAnswer>& answers);

}  // namespace perfplan::planner
