// Fleet mode (issue 16, item 6): Spark event logs as mergeable summary records, so an existing
// distributed engine (Hadoop Streaming, Spark's RDD.pipe, Dask) fans the parsing out over a
// cluster and one reducer loads the result into a store. docs/fleet.md gives the commands.
//
// Record format (version 1). One line per record: KEY, a tab, one JSON object.
//   KEY        "<app id>/<attempt id>" (tab, newline and backslash escaped as \t, \n, \\): the
//              text Hadoop Streaming partitions and sorts by, so every record of an application
//              attempt reaches the same reducer.
//   "v"        1; "record": "application" or "stage"; "app_id", "attempt_id", "source" (the
//              file or rolling folder as found), "events", "completed"
//   application  "stages": how many stage records belong to it; "rows": the attempt's rows of
//              spark_attempts, spark_properties, spark_resource_profiles, spark_executors,
//              spark_jobs, spark_executor_summaries, spark_sql_executions, spark_rdds,
//              spark_misc_processes and spark_summary_attempts (the totals below)
//   stage      "stage_id", "stage_attempt_id"; "rows": its rows of spark_stages,
//              spark_stage_summaries, spark_stage_executor_summaries, spark_stage_durations
// A row is an object of column name → value (integer, real, text or null) without attempt_key;
// the loader accepts only the tables above and the columns the store has.
//
// Mapping: every event log (file or rolling folder, any codec) is ingested alone by the ingester
// itself (spark_ingest.h) into a scratch store, its tasks folded into the summaries, and the
// summary rows written out; so a record holds exactly what `ingest spark` keeps, minus the tasks.
// Merging: the records of one source are complete for its attempt. When several sources hold
// the same attempt (copies, a stale `.inprogress`), the reducer replays the ingester's rule over
// them in the order `ingest spark` walks a folder (path order): a later copy replaces the kept one
// unless the kept one is complete and it is not, or the kept one has more events. The result is
// the same whatever the split of the sources over mappers and reducers, and reducing a reducer's
// output again gives the same lines (merging is idempotent).
//
// Summary-only applications: an attempt loaded from records has a row in spark_summary_attempts
// (schema version 5) holding what the read paths would otherwise compute from its tasks (the
// efficiency vector's sums, the derived profile's sums, the executor shape of the what-if);
// spark_stage_durations holds each stage attempt's successful task durations in launch order
// (stage quantiles, stragglers). Task lists, task quantiles and the task timeline are not there:
// SummaryOnly() is the error those answers give. Ingesting the log with `ingest spark` later
// replaces the summary with the full application (same events: the replace rule lets it).
//
// Thread-safety: as Store (one per thread).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/store.h"

namespace perfplan::profiles::spark {

inline constexpr int kSummaryRecordVersion = 1;

// Schema version 5 of the "spark" component (spark_summary_attempts, spark_stage_durations and
// the trigger that removes them with their attempt).
const char* SummaryOnlySchema();
// Schema version 6: spark_summary_attempts keeps the shape's replay_seconds and
// work_bound_seconds (NULL in rows written before).
const char* SummaryReplaySchema();

// True when the attempt was loaded from summary records; Failed on a store error.
Result<bool> IsSummaryOnly(Store& store, std::int64_t attempt_key);

// The error of an answer that needs task rows of a summary-only application (FailedPrecondition
// style, as NotFound): "APP is summary only (loaded by spark reduce): …".
Status SummaryOnly(const std::string& app_id);

// Maps the event logs under `paths` (as IngestEventLogs finds them) into records, calling
// `emit` with each line (without its newline). Each log is ingested into a scratch store under
// `scratch_dir` (removed afterwards). Problems with the input land in the returned summary's
// skipped lines, as for IngestEventLogs; fails only when the scratch store fails.
Result<IngestSummary> MapEventLogs(const std::vector<std::string>& paths,
                                   const std::string& scratch_dir, const IngestLimits& limits,
                                   const std::function<void(const std::string&)>& emit);

// The executor shape of an application (what the what-if, the derived profile and the backtest
// read): from its tasks, or from spark_summary_attempts for a summary-only one. The two replay
// figures are what the derived profile splits (spark_store.h, DeriveRuntimeProfile): the replay
// on the recorded executor timeline (models::ReplayOnTimeline) and the work-bound stages' share
// of it at observed_executors × cores_per_executor slots (models::BoundStages). nullopt when the
// replay failed, or for a summary written before schema version 6.
struct ApplicationShape {
  double driver_seconds = 0, measured_seconds = 0;
  int observed_executors = 1, cores_per_executor = 1;
  std::optional<double> replay_seconds, work_bound_seconds;
};
Result<ApplicationShape> LoadApplicationShape(Store& store, const std::string& app_id,
                                              const std::string& attempt_id);

// Marks fully ingested attempt `attempt_key` as summary-only material: its row of
// spark_summary_attempts, the task sums ComputeEfficiencyVector and DeriveRuntimeProfile read
// computed by their own SQL, with `shape` (or `shape_error` when the shape failed). The map
// writes it into its scratch store before turning the attempt into records.
Status WriteSummaryOnlyTotals(Store& store, std::int64_t attempt_key, const ApplicationShape& shape,
                              const std::string& shape_error);

// What loading one application attempt did.
struct LoadedAttempt {
  std::string app_id, attempt_id, source;
  std::int64_t events = 0;
  std::string outcome;  // "loaded", "unchanged" or "kept"
  std::string note;     // why an attempt was kept, or which copies were left out
};

// Merges records (any order; duplicates allowed) and writes them out or loads them.
class SummaryRecordReducer {
 public:
  // Adds one record line. `where` names it in errors ("stdin:12"). InvalidArgument
  // "WHERE: why" for a line that is not a record of this version.
  Status Add(std::string_view line, const std::string& where);

  // The merged records, key order, application record first: the reducer's output lines.
  // InvalidArgument when an attempt's records are incomplete (fewer stage records than its
  // application record counts, or stage records without one).
  Status Write(const std::function<void(const std::string&)>& emit) const;

  // Loads the merged attempts into `store` (opened with StoreMigrations()), one transaction
  // each. An attempt the store already holds from the same source with the same events is left
  // as it is ("unchanged", whether summary only or ingested in full); one stored from a source
  // with more events, or complete while the merged one is not, is kept ("kept"), as the
  // ingester keeps it. Errors: incomplete records as Write; a table or column the store lacks;
  // store failures.
  Result<std::vector<LoadedAttempt>> Load(Store& store) const;

 private:
  struct Candidate {
    std::string source;
    std::int64_t events = 0;
    bool completed = false;
    std::string app_line, app_where;  // empty until the application record is seen
    std::int64_t stages = 0;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> stage_lines;
  };
  struct Merged {
    std::string key;
    const Candidate* winner = nullptr;
    std::vector<std::string> left_out;  // sources replaced or kept out, for the note
  };
  Status Merge(std::vector<Merged>* out) const;
  // key → candidates by source and event count
  std::map<std::string, std::map<std::pair<std::string, std::int64_t>, Candidate>> attempts_;
};

}  // namespace perfplan::profiles::spark
