// Ingesting Spark event logs into the profile store.
//
// Each event log (file or rolling folder, see spark_log_reader.h) is read once, line by line; the
// events are folded into the application's jobs, stages, executors and tasks the way Spark's
// History Server (AppStatusListener) counts them, and written in ONE transaction per
// application attempt, replacing what the store held for the same application id and attempt id.
// So ingesting the same log twice adds nothing, a grown `.inprogress` log replaces its earlier
// state, and a crash part-way leaves the previous state intact. An unchanged source (same path,
// size, modification time and leading bytes) is not read again.
//
// Memory: tasks go to the store as they finish; only running tasks, stages, jobs and executors
// are held, so memory follows the application's shape, not the file size.
// Bad input (invalid JSON, truncated last line, corrupt compression, events missing required
// fields) is counted and reported with file and line; it never stops the rest of the log.
//
// Thread-safety: one call per Store at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "models/status.h"
#include "profiles/skip_tally.h"
#include "profiles/spark/spark_log_reader.h"
#include "profiles/store.h"

namespace perfplan::profiles::spark {

struct IngestedApplication {
  std::string app_id;
  std::string attempt_id;  // "" when the log has none
  std::string source;      // file or rolling folder
  std::int64_t events = 0;
  bool completed = false;
  bool unchanged = false;  // skipped because the source had not changed since last ingested
};

struct IngestSummary {
  std::vector<IngestedApplication> applications;
  std::int64_t events = 0;           // events read (all kinds, including ones perfplan ignores)
  std::int64_t lines = 0;            // lines read
  std::int64_t bytes_read = 0;       // file bytes read (compressed size)
  // Bad lines, bad streams, logs without an application: the first 10 of each reason
  // (SkipTally), in the order met; skipped_total counts all of them, skipped_reasons by reason.
  std::vector<SkippedLine> skipped;
  std::int64_t skipped_total = 0;
  std::vector<SkipReason> skipped_reasons;  // most frequent first
};

// Limits that keep hostile or broken logs from exhausting memory or stack.
struct IngestLimits {
  // Longest line read (decompressed, without its terminator); longer lines are skipped with
  // "line longer than N bytes (the maximum line length); skipped". Default 64 MiB.
  std::size_t max_line_bytes = EventLineReader::kDefaultMaxLineBytes;
  // Deepest nesting of JSON arrays/objects in one event; deeper lines are skipped with
  // "JSON nested deeper than N levels". Default 512.
  int max_json_depth = 512;
  // A log holding an application attempt the store already has from a source with more events,
  // or completed while this log is not (a stale `.inprogress` copy), is not ingested: it lands
  // in IngestSummary::skipped with the reason. true replaces anyway (`--replace`).
  bool replace = false;

  // InvalidArgument naming the field when max_line_bytes < 1024 or max_json_depth < 16.
  Status Validate() const;
};

// Called after each log with (logs done, logs total, bytes read so far).
using IngestProgress = std::function<void(std::size_t, std::size_t, std::int64_t)>;

// Ingests every event log found under `paths` (files, rolling folders, folders searched
// recursively) into `store`, which must have been opened with StoreMigrations(). Fails only when
// the store itself fails (the transaction of the current log is rolled back); every problem with
// the input lands in IngestSummary::skipped.
// Fails with InvalidArgument when `limits` do not validate.
Result<IngestSummary> IngestEventLogs(Store& store, const std::vector<std::string>& paths,
                                      const IngestProgress& progress = {},
                                      const IngestLimits& limits = {});

}  // namespace perfplan::profiles::spark
