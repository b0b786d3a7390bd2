#include "planner/mapreduce/mapreduce_runs.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string_view>
#include <utility>

#include "planner/mapreduce/mapreduce_api.h"
#include "planner/scoring/score_runs.h"
#include "planner/scoring/spark_scoring.h"
#include "profiles/mapreduce/mapreduce_run_table.h"
#include "profiles/mapreduce/mapreduce_store.h"
#include "profiles/runtime/runs_csv.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::planner {
namespace {

namespace mr = profiles::mapreduce;

// mapred-default.xml of Hadoop 2.x and 3.x (3.x writes -1 for "derive the container size from
// the heap"); the value a job with no setting of its own logs in its conf.xml.
struct JobDefault {
  std::string_view name;
  std::vector<std::string_view> values;
};
const std::vector<JobDefault>& JobDefaults() {
  static const std::vector<JobDefault> kDefaults = {
      {"mapreduce.map.memory.mb", {"1024", "-1"}},
      {"mapreduce.reduce.memory.mb", {"1024", "-1"}},
      {"mapreduce.map.cpu.vcores", {"1"}},
      {"mapreduce.reduce.cpu.vcores", {"1"}},
      {"mapreduce.task.io.sort.mb", {"100"}},
      {"mapreduce.task.io.sort.factor", {"10"}},
      {"mapreduce.map.sort.spill.percent", {"0.80", "0.8"}},
      {"mapreduce.reduce.shuffle.parallelcopies", {"5"}},
      {"mapreduce.reduce.shuffle.input.buffer.percent", {"0.70", "0.7"}},
      {"mapreduce.reduce.shuffle.merge.percent", {"0.66"}},
      {"mapreduce.job.reduce.slowstart.completedmaps", {"0.05"}},
      {"mapreduce.map.output.compress", {"false"}},
      {"mapreduce.map.speculative", {"true"}},
      {"mapreduce.reduce.speculative", {"true"}},
  };
  return kDefaults;
}

std::optional<double> Share(const std::optional<double>& part, double whole) {
  if (!part || whole <= 0) return std::nullopt;
  return *part / whole;
}

struct ScoredJob {
  ApplicationRun run;
  std::vector<std::string> notes;
  std::size_t successful_attempts = 0;
};

ScoredJob ToScoredJob(const mr::Job& job) {
  const mr::JobRun r = mr::ToJobRun(job);
  ScoredJob s;
  for (const mr::Attempt& a : job.attempts) {
    if (a.status == "SUCCEEDED" || a.status == "SUCCESS") ++s.successful_attempts;
  }
  ApplicationRun& run = s.run;
  run.app_id = r.job_id;
  run.name = r.name;
  run.hosts = r.hosts;
  run.input_bytes = r.input_bytes.value_or(0);
  run.baseline = NonDefaultJobProperties(r.conf).empty() && !r.conf.empty();
  if (r.start_ms) {
    run.start_epoch = static_cast<std::int64_t>(std::floor(*r.start_ms / 1000.0));
    run.end_epoch = static_cast<std::int64_t>(
        std::ceil((r.finish_ms ? *r.finish_ms : *r.start_ms) / 1000.0));
  }
  run.beta.executor_compute_time_share = Share(r.cpu_seconds, r.task_seconds);
  run.beta.shuffle_time_share =
      r.reduces > 0 ? Share(r.shuffle_seconds, r.task_seconds) : std::optional<double>(0.0);
  run.beta.shuffle_bytes = r.shuffle_bytes;
  run.beta.gc_time_share = Share(r.gc_seconds, r.task_seconds);
  run.beta.total_time_seconds = r.total_seconds;
  if (r.conf.empty()) {
    s.notes.push_back("no configuration stored for the job (ingest its conf.xml): it is never "
                      "taken as a default-configuration run");
  }
  if (r.counters_from_attempts) {
    s.notes.push_back("the job has no JobFinished counters: its counters are the sum over its "
                      "successful attempts");
  }
  if (!r.cpu_seconds) s.notes.push_back("no CPU_MILLISECONDS counter: the compute share is absent");
  return s;
}

}  // namespace

std::vector<profiles::Migrations> RunStoreMigrations() {
  return {profiles::spark::StoreMigrations(), mr::StoreMigrations()};
}

Result<bool> StoreRunsAreJobs(profiles::Store& store,
                              const profiles::spark::RunTableSelection& selection) {
  if (!selection.app_ids.empty()) {
    for (const std::string& id : selection.app_ids) {
      if (!IsMapReduceJobId(id)) return false;
    }
    return true;
  }
  auto apps = profiles::spark::ListApplications(store);
  if (!apps.ok()) return apps.status();
  if (!apps.value().empty()) return false;
  auto jobs = mr::ListJobs(store);
  if (!jobs.ok()) return jobs.status();
  return !jobs.value().empty();
}

std::vector<std::string> NonDefaultJobProperties(
    const std::vector<std::pair<std::string, std::string>>& conf) {
  std::vector<std::string> out;
  for (const auto& [name, value] : conf) {
    for (const JobDefault& d : JobDefaults()) {
      if (d.name != name) continue;
      bool is_default = false;
      for (std::string_view v : d.values) is_default = is_default || v == value;
      if (!is_default) out.push_back(name + "=" + value);
    }
  }
  return out;
}

Result<std::vector<ScoreAnswer>> ScoreStoredJobs(profiles::Store& store,
                                                 const std::string& job_id) {
  if (!job_id.empty()) {
    if (auto s = mr::LoadJobSummary(store, job_id); !s.ok()) return s.status();
  }
  auto listed = mr::ListJobs(store);
  if (!listed.ok()) return listed.status();
  std::vector<ScoredJob> jobs;
  for (const mr::JobSummary& summary : listed.value()) {
    auto job = mr::LoadJob(store, summary.job_id);
    if (!job.ok()) return job.status();
    ScoredJob s = ToScoredJob(job.value());
    if (s.successful_attempts > 0) {
      jobs.push_back(std::move(s));
    } else if (summary.job_id == job_id) {
      return Status::InvalidArgument("job " + job_id +
                                     " has no successful attempt: a job without tasks is not "
                                     "scored");
    }
  }
  if (jobs.empty()) {
    return Status::InvalidArgument(
        "no MapReduce job in the store has a successful attempt: nothing to score");
  }
  std::vector<NotedRun> runs;
  for (ScoredJob& s : jobs) runs.push_back({std::move(s.run), std::move(s.notes)});
  return ScoreNotedRuns(store, runs, job_id);
}

Result<std::vector<ScoreAnswer>> AnswerJobScores(const std::string& store_path,
                                                 const std::string& job_id) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(store_path, ec)) {
    return Status::NotFound(store_path + ": no such store; run `perfplan ingest mapreduce` first");
  }
  std::vector<profiles::Migrations> components = ScoringMigrations();
  components.push_back(mr::StoreMigrations());
  auto store = profiles::Store::OpenReadOnly(store_path, components);
  if (!store.ok()) return store.status();
  return ScoreStoredJobs(*store.value(), job_id);
}

Result<std::optional<ScoreAnswer>> ScoreLatestJob(
    profiles::Store& store, const profiles::spark::RunTableSelection& selection) {
  auto listed = mr::ListJobs(store);  // by submit time: the latest is last
  if (!listed.ok()) return listed.status();
  const std::vector<mr::JobSummary>& jobs = listed.value();
  for (auto it = jobs.rbegin(); it != jobs.rend(); ++it) {
    const bool selected =
        (selection.app_ids.empty() || std::find(selection.app_ids.begin(),
                                                selection.app_ids.end(),
                                                it->job_id) != selection.app_ids.end()) &&
        (selection.name_contains.empty() ||
         it->name.find(selection.name_contains) != std::string::npos);
    if (!selected || it->attempts == 0) continue;
    auto scored = ScoreStoredJobs(store, it->job_id);
    if (scored.ok()) return std::optional<ScoreAnswer>(std::move(scored.value().front()));
    // A job with attempts but none successful is not scored: try the one before it.
    if (scored.status().code() != StatusCode::kInvalidArgument) return scored.status();
  }
  return std::optional<ScoreAnswer>();
}

std::string_view JobMetricOfDimension(std::string_view dimension) {
  static constexpr std::pair<std::string_view, std::string_view> kMetric[] = {
      {"shuffle_time_share", "shuffle_seconds"},
      {"shuffle_bytes", "shuffle_bytes"},
      {"gc_time_share", "gc_time_seconds"},
      {"total_time_seconds", "total_time_seconds"},
  };
  for (const auto& [d, metric] : kMetric) {
    if (d == dimension) return metric;
  }
  return {};
}

Result<std::vector<ScoreAnswer>> AnswerStoreScores(const std::string& store_path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(store_path, ec)) return AnswerScores(store_path, "");
  std::vector<profiles::Migrations> components = ScoringMigrations();
  components.push_back(mr::StoreMigrations());
  auto store = profiles::Store::OpenReadOnly(store_path, components);
  // A read-only Spark store without the mapreduce schema (it cannot be added here) has no jobs.
  if (!store.ok()) return AnswerScores(store_path, "");
  auto jobs = mr::ListJobs(*store.value());
  if (!jobs.ok()) return jobs.status();
  if (jobs.value().empty()) return ScoreStoredApplications(*store.value(), "");
  auto apps = profiles::spark::ListApplications(*store.value());
  if (!apps.ok()) return apps.status();
  auto job_scores = ScoreStoredJobs(*store.value(), "");
  if (apps.value().empty()) return job_scores;
  auto app_scores = ScoreStoredApplications(*store.value(), "");
  if (!app_scores.ok() && !job_scores.ok()) return app_scores.status();
  std::vector<ScoreAnswer> out;
  for (auto* part : {&app_scores, &job_scores}) {
    if (!part->ok()) continue;
    for (ScoreAnswer& a : part->value()) out.push_back(std::move(a));
  }
  return out;
}

Result<ExportTable> JobRunsTable(const std::string& store_path, std::vector<std::string>* notes) {
  auto store = profiles::Store::OpenReadOnly(store_path, {mr::StoreMigrations()});
  if (!store.ok()) return store.status();
  auto runs = mr::LoadJobRuns(*store.value(), {});
  if (!runs.ok()) return runs.status();
  mr::JobRunsCsv csv = mr::ToRunsCsvRows(runs.value());
  if (notes) *notes = csv.notes;
  if (csv.rows.empty()) {
    return Status::InvalidArgument("no job in the store " + store_path +
                                   " has a start and finish time: no runs to export");
  }
  ExportTable t;
  t.what = "runs";
  t.columns = profiles::RunsCsvColumns();
  for (const std::string& c : mr::JobRunsCsvExtraColumns()) t.columns.push_back(c);
  for (const mr::JobRunsCsvRow& row : csv.rows) {
    const models::MeasuredRun& m = row.run;
    t.rows.push_back({m.workload, m.instance_type, m.dataset_bytes, m.storage_nodes,
                      m.compute_nodes, m.bandwidth_bytes_per_second, m.runtime_seconds,
                      std::string(m.completed ? "true" : "false"), row.job_id,
                      static_cast<long long>(row.maps), static_cast<long long>(row.reduces),
                      row.submit_time_seconds, m.vcpus, m.memory_bytes});
  }
  return t;
}

}  // namespace perfplan::planner
