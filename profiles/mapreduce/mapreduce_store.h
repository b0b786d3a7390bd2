// The MapReduce part of the profile store: schema (component "mapreduce"), the write of one
// read file, and the typed reads the planner uses.
//
// Tables (see docs/mapreduce.md):
//   mr_jobs          one row per job id (unique); job_key is its row id
//   mr_event_counts  how many events (or records, tasks, attempts for Rumen) of each type the
//                    job's file held
//   mr_tasks, mr_attempts   one row per task / task attempt, times in epoch ms
//   mr_counters      scope 'total' | 'map' | 'reduce' (the job's JobFinished groups), 'task' or
//                    'attempt' (owner = the task or attempt id)
//   mr_conf          job configuration by job id (from *_conf.xml or Rumen jobProperties), so a
//                    configuration may be ingested before or after its history
//   mr_sources       the files ingested, with size, modification time and a fingerprint of the
//                    leading bytes, so an unchanged file is not read again
// Thread-safety: as Store (one per thread).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/status.h"
#include "profiles/mapreduce/mapreduce_history.h"
#include "profiles/store.h"

namespace perfplan::profiles::mapreduce {

// The "mapreduce" component's migrations; pass to Store::Open.
const Migrations& StoreMigrations();

// Identity of a file on disk: an unchanged file has the same stamp.
struct SourceStamp {
  std::int64_t size_bytes = 0;
  std::int64_t mtime_ns = 0;
  std::string fingerprint;  // xxh64 of the first 64 KiB, hex
};

// True when `path` was ingested before with this stamp.
Result<bool> SourceUnchanged(Store& store, const std::string& path, const SourceStamp& stamp);

// Writes ingested history files. Save(file, stamp) writes everything `file` holds — its jobs
// (replacing any job with the same id, tasks, attempts, counters and event counts included), its
// configuration (replacing the job's configuration) — and records the source. Each statement is
// compiled once per writer. Does not begin or commit: the caller wraps each Save in one
// transaction so a crash leaves the previous state. `store` must outlive the writer.
class HistoryWriter {
 public:
  explicit HistoryWriter(Store& store);
  ~HistoryWriter();
  Status Save(const HistoryFile& file, const SourceStamp& stamp);
  struct Statements;  // private to mapreduce_store.cpp

 private:
  Store& store_;
  std::unique_ptr<Statements> statements_;
};

// One job, for listings.
struct JobSummary {
  std::string job_id, name, user, queue, status, format, source;
  std::optional<std::int64_t> submit_ms, launch_ms, finish_ms;
  std::int64_t maps = 0, reduces = 0, other_tasks = 0;  // tasks stored, by type
  std::int64_t attempts = 0, failed_attempts = 0, killed_attempts = 0, events = 0;
  std::int64_t conf_properties = 0;
};

// Every job in the store, by submit time then id.
Result<std::vector<JobSummary>> ListJobs(Store& store);

// One job in full (tasks and attempts in file order, every counter scope, configuration from
// mr_conf, event counts). NotFound "no MapReduce job ID in the store; did you mean \"X\"?" (the
// suggestion only when one is close).
Result<Job> LoadJob(Store& store, const std::string& job_id);

// The summary row of one job (NotFound as LoadJob).
Result<JobSummary> LoadJobSummary(Store& store, const std::string& job_id);

}  // namespace perfplan::profiles::mapreduce
