// Reading Hadoop MapReduce job evidence: what one file says about jobs, their tasks and attempts.
//
// Formats (recognised by content, not by name; gzip'd files too — the codec comes from the magic
// bytes, as for Spark logs):
//   kJhist     Hadoop 2.x/3.x job history (`.jhist`): the line `Avro-Json`, the Avro schema of
//              `Event` (Events.avpr) on one line, then one `{"type":T,"event":{CLASS:{…}}}` per
//              line. Every event type of the schema is counted; the ones that shape a job
//              (JOB_*, TASK_*, *_ATTEMPT_*) are folded into it the way JobHistoryParser does.
//   kHistory1  Hadoop 0.20/1.x JobHistory lines: `Meta|Job|Task|MapAttempt|ReduceAttempt
//              KEY="VALUE" … .` with `\` escaping `"`, `.`, `=` and `\`; a record may continue
//              over several physical lines until one ends with ` .`. Counters are
//              `{(group)(display)[(name)(display)(value)]…}`.
//   kRumen     Rumen traces: `LoggedJob` JSON objects one after another (or a JSON array of them)
//              with mapTasks / reduceTasks / otherTasks → attempts; jobProperties as the
//              configuration; attempt counters (hdfsBytesRead, …, spilledRecords) as counters.
//   kSls       YARN Scheduler Load Simulator job traces (`am.type`, `job.tasks[]` containers):
//              each container is one task with one attempt.
//   kConfXml   `job_…_conf.xml` (Hadoop Configuration XML: <property><name/><value/></property>).
// An SLS node topology (`{"rack":…,"nodes":[…]}`) holds no job; it is recognised and reported
// as such (not an error).
//
// Times are epoch milliseconds (`_ms`) exactly as Hadoop writes them (Rumen/SLS relative times
// too); a time Hadoop writes as -1 or 0 for "never" is absent. Task types are MAP, REDUCE,
// SETUP, CLEANUP; statuses are Hadoop's (SUCCEEDED/FAILED/KILLED; 1.x and Rumen write SUCCESS,
// kept as written so the store says what the file said).
// Memory: one job's tasks and attempts are held while its file is read (a job's history is
// bounded by its task count; Rumen holds one LoggedJob object at a time).
// Thread-safety: pure functions, reentrant.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/status.h"
#include "profiles/problem.h"

namespace perfplan::profiles::mapreduce {

enum class Format { kJhist, kHistory1, kRumen, kSls, kConfXml, kSlsTopology };
// "jhist", "history1", "rumen", "sls", "conf-xml", "sls-topology".
std::string_view ToString(Format format);

// A counter group or counter name, interned: a job holds thousands of counters but only a few
// dozen distinct names, so each is stored once per process and a counter holds a pointer to it
// (two heap strings per counter were a fifth of a folder's ingest; docs/performance.md). Built
// implicitly from any text; equal texts are the same pointer. Interned texts live until the
// process exits (they are bounded by the distinct names read). Thread-safe.
class CounterName {
 public:
  CounterName();  // ""
  CounterName(std::string_view text);  // NOLINT: implicit, like std::string
  CounterName(const std::string& text) : CounterName(std::string_view(text)) {}  // NOLINT
  CounterName(const char* text) : CounterName(std::string_view(text)) {}         // NOLINT
  std::string_view view() const { return entry_->text; }
  operator std::string_view() const { return view(); }  // NOLINT
  std::string str() const { return entry_->text; }
  bool empty() const { return entry_->text.empty(); }
  // True when the text holds a backslash, tab or newline (what the store's packing escapes).
  bool has_escapes() const { return entry_->has_escapes; }
  friend bool operator==(const CounterName& a, const CounterName& b) {
    return a.entry_ == b.entry_;
  }
  friend bool operator==(const CounterName& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const CounterName& a, const std::string& b) { return a.view() == b; }
  friend bool operator==(const CounterName& a, const char* b) { return a.view() == b; }
  struct Entry {
    std::string text;
    bool has_escapes = false;
  };

 private:
  const Entry* entry_;
};

struct Counter {
  CounterName group;  // e.g. org.apache.hadoop.mapreduce.TaskCounter (1.x: FileSystemCounters)
  CounterName name;   // e.g. CPU_MILLISECONDS
  std::int64_t value = 0;
};

struct Attempt {
  std::string attempt_id, task_id, task_type;
  std::string status;  // SUCCEEDED / FAILED / KILLED / SUCCESS…; "" while still running
  std::string host, rack, error;
  std::optional<std::int64_t> start_ms, finish_ms;
  std::optional<std::int64_t> map_finish_ms;                     // maps: end of the map phase
  std::optional<std::int64_t> shuffle_finish_ms, sort_finish_ms;  // reduces
  std::vector<Counter> counters;
};

struct Task {
  std::string task_id, task_type, status, error, successful_attempt, splits;
  std::optional<std::int64_t> start_ms, finish_ms;
  std::vector<Counter> counters;
};

struct Job {
  std::string job_id, name, user, queue, status;  // status: SUCCEEDED/FAILED/KILLED/…
  std::optional<std::int64_t> submit_ms, launch_ms, finish_ms;
  std::optional<std::int64_t> total_maps, total_reduces;
  std::optional<std::int64_t> finished_maps, finished_reduces, failed_maps, failed_reduces,
      killed_maps, killed_reduces;
  std::string diagnostics;
  // Counter scopes as JobFinished writes them: "total", "map", "reduce".
  std::map<std::string, std::vector<Counter>> counters;
  std::vector<Task> tasks;        // in first-seen order
  std::vector<Attempt> attempts;  // in first-seen order
  std::vector<std::pair<std::string, std::string>> conf;  // Rumen jobProperties
  std::map<std::string, std::int64_t> event_counts;       // event/record type → count
};

// What one file holds.
struct HistoryFile {
  std::string path;
  Format format = Format::kJhist;
  std::vector<Job> jobs;                                   // empty for conf-xml / topology
  std::string conf_job_id;                                 // conf-xml: from the file name
  std::vector<std::pair<std::string, std::string>> conf;  // conf-xml properties, in file order
  std::int64_t events = 0;      // events / records / objects read (all kinds)
  std::int64_t lines = 0;       // physical lines read
  std::int64_t bytes_read = 0;  // file bytes (compressed size)
  std::vector<Problem> problems;  // bad lines: file:line: field: message; never stops the file
};

// The job id a configuration file names: "job_1329348432655_0001" for
// ".../job_1329348432655_0001_conf.xml"; "" when the name has no job id.
std::string JobIdFromConfName(std::string_view file_name);

// The MapReduce history format whose first line is `first_line` (Avro-Json, `Meta VERSION=`,
// `Job JOBID=`), or none. JSON and XML first lines are not claimed (they are not specific enough).
// Lets other readers (`perfplan hindex`) say what a file is instead of failing on its content.
std::optional<Format> SniffHistoryLine(std::string_view first_line);

// Reads one file of any format above. Fails (InvalidArgument "PATH: not a MapReduce job history,
// Rumen trace, SLS trace or job configuration (first line: …)") only when the content is none of
// them; every problem inside a recognised file is a Problem and the rest of the file is read.
Result<HistoryFile> ReadHistoryFile(const std::string& path);

}  // namespace perfplan::profiles::mapreduce
