#include "profiles/mapreduce/mapreduce_store.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <string_view>
#include <unordered_map>

#include "models/tab_escape.h"
#include "profiles/detail/columns.h"
#include "profiles/detail/rows.h"

namespace perfplan::profiles::mapreduce {
namespace {

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE mr_jobs(
  job_key INTEGER PRIMARY KEY, job_id TEXT NOT NULL, name TEXT, user_name TEXT, queue TEXT,
  status TEXT, format TEXT NOT NULL, submit_time_ms INTEGER, launch_time_ms INTEGER,
  finish_time_ms INTEGER, total_maps INTEGER, total_reduces INTEGER, finished_maps INTEGER,
  finished_reduces INTEGER, failed_maps INTEGER, failed_reduces INTEGER, killed_maps INTEGER,
  killed_reduces INTEGER, diagnostics TEXT, events INTEGER NOT NULL, source TEXT NOT NULL);
CREATE UNIQUE INDEX mr_jobs_id ON mr_jobs(job_id);
CREATE TABLE mr_event_counts(
  job_key INTEGER NOT NULL, event_type TEXT NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY(job_key, event_type)) WITHOUT ROWID;
CREATE TABLE mr_tasks(
  job_key INTEGER NOT NULL, task_id TEXT NOT NULL, ord INTEGER NOT NULL, task_type TEXT,
  status TEXT, start_time_ms INTEGER, finish_time_ms INTEGER, successful_attempt TEXT,
  error TEXT, splits TEXT, PRIMARY KEY(job_key, task_id)) WITHOUT ROWID;
CREATE TABLE mr_attempts(
  job_key INTEGER NOT NULL, attempt_id TEXT NOT NULL, ord INTEGER NOT NULL, task_id TEXT,
  task_type TEXT, status TEXT, host TEXT, rack TEXT, start_time_ms INTEGER,
  finish_time_ms INTEGER, map_finish_time_ms INTEGER, shuffle_finish_time_ms INTEGER,
  sort_finish_time_ms INTEGER, error TEXT, PRIMARY KEY(job_key, attempt_id)) WITHOUT ROWID;
CREATE TABLE mr_counters(
  job_key INTEGER NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL, ord INTEGER NOT NULL,
  group_name TEXT NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL);
CREATE INDEX mr_counters_key ON mr_counters(job_key, scope, owner, ord);
CREATE TABLE mr_conf(
  job_id TEXT NOT NULL, ord INTEGER NOT NULL, name TEXT NOT NULL, value TEXT,
  source TEXT NOT NULL, PRIMARY KEY(job_id, ord)) WITHOUT ROWID;
CREATE TABLE mr_sources(
  source TEXT PRIMARY KEY, size_bytes INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
  fingerprint TEXT NOT NULL, format TEXT NOT NULL, jobs INTEGER NOT NULL,
  events INTEGER NOT NULL, problems INTEGER NOT NULL);
)sql";

// v2: a task's or attempt's counters are one row (the packed text below) instead of one row per
// counter — a Hadoop 2.x attempt carries ~50 counters, and the row-per-counter inserts were most
// of the ingest time (docs/performance.md, "MapReduce ingest"). Existing rows are packed in
// file order; a line with the full group name is as valid as one that repeats it by omission.
constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE mr_counter_sets(
  job_key INTEGER NOT NULL, scope TEXT NOT NULL, owner TEXT NOT NULL, counters TEXT NOT NULL,
  PRIMARY KEY(job_key, scope, owner)) WITHOUT ROWID;
INSERT INTO mr_counter_sets
  SELECT job_key, scope, owner, group_concat(line, '') FROM (
    SELECT job_key, scope, owner,
      CASE WHEN group_name = '' THEN '\e' ELSE
        replace(replace(replace(group_name, '\', '\\'), char(9), '\t'), char(10), '\n')
      END || char(9) ||
      replace(replace(replace(name, '\', '\\'), char(9), '\t'), char(10), '\n') ||
      char(9) || value || char(10) AS line
    FROM mr_counters ORDER BY job_key, scope, owner, ord)
  GROUP BY job_key, scope, owner;
DROP TABLE mr_counters;
)sql";

// Packed counters: one line per counter, `GROUP<TAB>NAME<TAB>VALUE<LF>`; GROUP is left empty
// when it is the previous line's group. In GROUP and NAME `\\`, `\t`, `\n` stand for a
// backslash, tab and newline, and a GROUP of exactly `\e` is the empty group name.
constexpr std::array<bool, 256> kEscaped = [] {
  std::array<bool, 256> t{};
  t[static_cast<unsigned char>('\\')] = t[static_cast<unsigned char>('\t')] =
      t[static_cast<unsigned char>('\n')] = true;
  return t;
}();
void PackField(std::string& out, std::string_view s) {
  std::size_t run = 0;  // start of the bytes not yet copied: copied in runs, not byte by byte
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (!kEscaped[static_cast<unsigned char>(c)]) continue;  // one load, not three compares
    out.append(s.data() + run, i - run);
    out += c == '\\' ? "\\\\" : c == '\t' ? "\\t" : "\\n";
    run = i + 1;
  }
  out.append(s.data() + run, s.size() - run);
}
// Into `out` (cleared; its capacity is kept from one row to the next).
void PackCounters(const std::vector<Counter>& counters, std::string& out) {
  out.clear();
  const CounterName* previous = nullptr;
  // Interned names know whether they hold anything to escape: most are copied whole.
  auto field = [&out](const CounterName& n) {
    if (n.has_escapes()) {
      PackField(out, n);
    } else {
      out += n.view();
    }
  };
  for (const Counter& c : counters) {
    if (previous == nullptr || *previous != c.group) {
      if (c.group.empty()) {
        out += "\\e";
      } else {
        field(c.group);
      }
    }
    previous = &c.group;
    out += '\t';
    field(c.name);
    out += '\t';
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, c.value).ptr;
    out.append(digits, end);
    out += '\n';
  }
}

// The store wrote `text` (PackCounters or the v2 migration); a line that is not three fields
// is a damaged store and fails rather than reading as a wrong counter.
Result<std::vector<Counter>> UnpackCounters(std::string_view text) {
  std::vector<Counter> out;
  std::string group;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const std::size_t t1 = line.find('\t');
    const std::size_t t2 = t1 == std::string_view::npos ? t1 : line.find('\t', t1 + 1);
    if (t2 == std::string_view::npos) {
      return Status::Failed("mr_counter_sets: damaged counter line \"" + std::string(line) +
                            "\" (expected GROUP, NAME and VALUE separated by tabs)");
    }
    const std::string_view g = line.substr(0, t1), value = line.substr(t2 + 1);
    if (g == "\\e") {
      group.clear();
    } else if (!g.empty()) {
      group = models::UnescapeTabs(g);
    }
    const std::string text_value(value);
    char* stop = nullptr;
    const long long v = std::strtoll(text_value.c_str(), &stop, 10);
    if (text_value.empty() || *stop != '\0') {
      return Status::Failed("mr_counter_sets: damaged counter value \"" + text_value + "\"");
    }
    out.push_back({group, models::UnescapeTabs(line.substr(t1 + 1, t2 - t1 - 1)), v});
  }
  return out;
}

Status Run(Statement& s) {
  Status st = s.Run();
  s.Reset();
  return st;
}

}  // namespace

// The write statements, each prepared once per writer (compiling them for every file was a
// tenth of the ingest of a folder of small histories) and reset after every use.
struct HistoryWriter::Statements {
  std::unordered_map<const char*, Statement> by_sql;
  Result<Statement*> Get(Store& store, const char* sql) {
    auto it = by_sql.find(sql);
    if (it == by_sql.end()) {
      auto q = store.Prepare(sql);
      if (!q.ok()) return q.status();
      it = by_sql.emplace(sql, std::move(q).value()).first;
    }
    return &it->second;
  }
};

namespace {
using Cache = HistoryWriter::Statements;

Status DeleteJob(Store& store, Cache& cache, const std::string& job_id) {
  auto q = cache.Get(store, "SELECT job_key FROM mr_jobs WHERE job_id = ?1");
  if (!q.ok()) return q.status();
  Statement& select = *q.value();
  select.Bind(1, job_id);
  const bool found = select.Step();
  Status error = select.Error();
  const std::int64_t key = found ? select.ColumnInt(0) : 0;
  select.Reset();
  if (!found) return error;
  for (const char* sql : {"DELETE FROM mr_event_counts WHERE job_key = ?1",
                          "DELETE FROM mr_tasks WHERE job_key = ?1",
                          "DELETE FROM mr_attempts WHERE job_key = ?1",
                          "DELETE FROM mr_counter_sets WHERE job_key = ?1",
                          "DELETE FROM mr_jobs WHERE job_key = ?1"}) {
    auto d = cache.Get(store, sql);
    if (!d.ok()) return d.status();
    d.value()->Bind(1, key);
    if (Status st = Run(*d.value()); !st.ok()) return st;
  }
  return Status::Ok();
}

Status SaveConf(Store& store, Cache& cache, const std::string& job_id,
                const std::vector<std::pair<std::string, std::string>>& conf,
                const std::string& source) {
  auto d = cache.Get(store, "DELETE FROM mr_conf WHERE job_id = ?1");
  if (!d.ok()) return d.status();
  d.value()->Bind(1, job_id);
  if (Status st = Run(*d.value()); !st.ok()) return st;
  auto ins = cache.Get(store, "INSERT INTO mr_conf VALUES(?1, ?2, ?3, ?4, ?5)");
  if (!ins.ok()) return ins.status();
  std::int64_t ord = 0;
  for (const auto& [name, value] : conf) {
    detail::BindAll(*ins.value(), job_id, ord++, name, value, source);
    if (Status st = Run(*ins.value()); !st.ok()) return st;
  }
  return Status::Ok();
}

// One row per owner with counters (none: no row, as before v2 when it had no counter rows).
Status SaveCounters(Statement& ins, std::int64_t key, const std::string& scope,
                    const std::string& owner, const std::vector<Counter>& counters) {
  if (counters.empty()) return Status::Ok();
  thread_local std::string packed;
  PackCounters(counters, packed);
  detail::BindAll(ins, key, scope, owner, packed);
  return Run(ins);
}

Status SaveJob(Store& store, Cache& cache, const Job& job, const HistoryFile& file) {
  if (Status st = DeleteJob(store, cache, job.job_id); !st.ok()) return st;
  auto j = cache.Get(store,
      "INSERT INTO mr_jobs(job_id, name, user_name, queue, status, format, submit_time_ms, "
      "launch_time_ms, finish_time_ms, total_maps, total_reduces, finished_maps, "
      "finished_reduces, failed_maps, failed_reduces, killed_maps, killed_reduces, diagnostics, "
      "events, source) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
      "?16, ?17, ?18, ?19, ?20)");
  if (!j.ok()) return j.status();
  std::int64_t events = 0;
  for (const auto& [t, n] : job.event_counts) events += n;
  detail::BindAll(*j.value(), job.job_id, job.name, job.user, job.queue, job.status,
                  std::string(ToString(file.format)), job.submit_ms, job.launch_ms, job.finish_ms,
                  job.total_maps, job.total_reduces, job.finished_maps, job.finished_reduces,
                  job.failed_maps, job.failed_reduces, job.killed_maps, job.killed_reduces,
                  job.diagnostics, events, file.path);
  if (Status st = Run(*j.value()); !st.ok()) return st;
  const std::int64_t key = store.LastInsertRowId();

  auto ec = cache.Get(store, "INSERT INTO mr_event_counts VALUES(?1, ?2, ?3)");
  if (!ec.ok()) return ec.status();
  for (const auto& [type, n] : job.event_counts) {
    detail::BindAll(*ec.value(), key, type, n);
    if (Status st = Run(*ec.value()); !st.ok()) return st;
  }
  auto counters = cache.Get(store, "INSERT INTO mr_counter_sets VALUES(?1, ?2, ?3, ?4)");
  if (!counters.ok()) return counters.status();
  for (const auto& [scope, list] : job.counters) {
    if (Status st = SaveCounters(*counters.value(), key, scope, "", list); !st.ok()) return st;
  }
  auto t = cache.Get(store, "INSERT INTO mr_tasks VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
  if (!t.ok()) return t.status();
  std::int64_t ord = 0;
  for (const Task& task : job.tasks) {
    detail::BindAll(*t.value(), key, task.task_id, ord++, task.task_type, task.status,
                    task.start_ms, task.finish_ms, task.successful_attempt, task.error,
                    task.splits);
    if (Status st = Run(*t.value()); !st.ok()) return st;
    if (Status st = SaveCounters(*counters.value(), key, "task", task.task_id, task.counters);
        !st.ok()) {
      return st;
    }
  }
  auto a = cache.Get(store,
      "INSERT INTO mr_attempts VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, "
      "?14)");
  if (!a.ok()) return a.status();
  ord = 0;
  for (const Attempt& at : job.attempts) {
    detail::BindAll(*a.value(), key, at.attempt_id, ord++, at.task_id, at.task_type, at.status,
                    at.host, at.rack, at.start_ms, at.finish_ms, at.map_finish_ms,
                    at.shuffle_finish_ms, at.sort_finish_ms, at.error);
    if (Status st = Run(*a.value()); !st.ok()) return st;
    if (Status st = SaveCounters(*counters.value(), key, "attempt", at.attempt_id, at.counters);
        !st.ok()) {
      return st;
    }
  }
  if (!job.conf.empty()) return SaveConf(store, cache, job.job_id, job.conf, file.path);
  return Status::Ok();
}

constexpr const char* kSummarySelect =
    "SELECT j.job_id, j.name, j.user_name, j.queue, j.status, j.format, j.source, "
    "j.submit_time_ms, j.launch_time_ms, j.finish_time_ms, j.events, "
    "(SELECT COUNT(*) FROM mr_tasks t WHERE t.job_key = j.job_key AND t.task_type = 'MAP'), "
    "(SELECT COUNT(*) FROM mr_tasks t WHERE t.job_key = j.job_key AND t.task_type = 'REDUCE'), "
    "(SELECT COUNT(*) FROM mr_tasks t WHERE t.job_key = j.job_key "
    " AND t.task_type NOT IN ('MAP', 'REDUCE')), "
    "(SELECT COUNT(*) FROM mr_attempts a WHERE a.job_key = j.job_key), "
    "(SELECT COUNT(*) FROM mr_attempts a WHERE a.job_key = j.job_key AND a.status = 'FAILED'), "
    "(SELECT COUNT(*) FROM mr_attempts a WHERE a.job_key = j.job_key AND a.status = 'KILLED'), "
    "(SELECT COUNT(*) FROM mr_conf c WHERE c.job_id = j.job_id) FROM mr_jobs j ";

JobSummary SummaryRow(const Statement& q) {
  JobSummary s;
  detail::ReadColumns(q, 0, s.job_id, s.name, s.user, s.queue, s.status, s.format, s.source,
                      s.submit_ms, s.launch_ms, s.finish_ms, s.events, s.maps, s.reduces,
                      s.other_tasks, s.attempts, s.failed_attempts, s.killed_attempts,
                      s.conf_properties);
  return s;
}

Status UnknownJob(Store& store, const std::string& job_id) {
  std::string message = "no MapReduce job " + job_id + " in the store";
  auto jobs = ListJobs(store);
  if (jobs.ok()) {
    std::vector<std::string_view> ids;
    for (const auto& j : jobs.value()) ids.push_back(j.job_id);
    const std::string s = SuggestClosest(job_id, ids);
    if (!s.empty()) message += "; did you mean \"" + s + "\"?";
  }
  return Status::NotFound(message);
}

Result<std::vector<Counter>> LoadCounters(Store& store, std::int64_t key, const char* scope,
                                          const std::string& owner) {
  auto q = store.Prepare(
      "SELECT counters FROM mr_counter_sets WHERE job_key = ?1 AND scope = ?2 AND owner = ?3");
  if (!q.ok()) return q.status();
  q.value().Bind(1, key).Bind(2, std::string(scope)).Bind(3, owner);
  if (!q.value().Step()) {
    if (!q.value().Error().ok()) return q.value().Error();
    return std::vector<Counter>{};
  }
  return UnpackCounters(q.value().ColumnText(0));
}

}  // namespace

const Migrations& StoreMigrations() {
  static const Migrations m{"mapreduce", {kSchemaV1, kSchemaV2}};
  return m;
}

Result<bool> SourceUnchanged(Store& store, const std::string& path, const SourceStamp& stamp) {
  auto q = store.Prepare(
      "SELECT 1 FROM mr_sources WHERE source = ?1 AND size_bytes = ?2 AND mtime_ns = ?3 AND "
      "fingerprint = ?4");
  if (!q.ok()) return q.status();
  q.value().Bind(1, path).Bind(2, stamp.size_bytes).Bind(3, stamp.mtime_ns)
      .Bind(4, stamp.fingerprint);
  const bool found = q.value().Step();
  if (!q.value().Error().ok()) return q.value().Error();
  return found;
}

HistoryWriter::HistoryWriter(Store& store) : store_(store), statements_(new Statements) {}
HistoryWriter::~HistoryWriter() = default;

Status HistoryWriter::Save(const HistoryFile& file, const SourceStamp& stamp) {
  Cache& cache = *statements_;
  for (const Job& job : file.jobs) {
    if (Status st = SaveJob(store_, cache, job, file); !st.ok()) return st;
  }
  if (file.format == Format::kConfXml && !file.conf_job_id.empty()) {
    if (Status st = SaveConf(store_, cache, file.conf_job_id, file.conf, file.path); !st.ok()) {
      return st;
    }
  }
  auto q = cache.Get(store_,
                     "INSERT OR REPLACE INTO mr_sources VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  if (!q.ok()) return q.status();
  detail::BindAll(*q.value(), file.path, stamp.size_bytes, stamp.mtime_ns, stamp.fingerprint,
                  std::string(ToString(file.format)), static_cast<std::int64_t>(file.jobs.size()),
                  file.events, static_cast<std::int64_t>(file.problems.size()));
  return Run(*q.value());
}

Result<std::vector<JobSummary>> ListJobs(Store& store) {
  auto q = store.Prepare(std::string(kSummarySelect) + "ORDER BY j.submit_time_ms, j.job_id");
  if (!q.ok()) return q.status();
  std::vector<JobSummary> out;
  while (q.value().Step()) out.push_back(SummaryRow(q.value()));
  if (!q.value().Error().ok()) return q.value().Error();
  return out;
}

Result<JobSummary> LoadJobSummary(Store& store, const std::string& job_id) {
  auto q = store.Prepare(std::string(kSummarySelect) + "WHERE j.job_id = ?1");
  if (!q.ok()) return q.status();
  q.value().Bind(1, job_id);
  if (!q.value().Step()) {
    if (!q.value().Error().ok()) return q.value().Error();
    return UnknownJob(store, job_id);
  }
  return SummaryRow(q.value());
}

// The counters of each of `items` (tasks or attempts, by their `id` member), under `scope`.
template <typename T>
Status LoadCountersOf(Store& store, std::int64_t key, const char* scope, std::string T::*id,
                      std::vector<T>& items) {
  for (T& item : items) {
    auto c = LoadCounters(store, key, scope, item.*id);
    if (!c.ok()) return c.status();
    item.counters = std::move(c).value();
  }
  return Status::Ok();
}

Result<Job> LoadJob(Store& store, const std::string& job_id) {
  auto q = store.Prepare(
      "SELECT job_key, name, user_name, queue, status, submit_time_ms, launch_time_ms, "
      "finish_time_ms, total_maps, total_reduces, finished_maps, finished_reduces, failed_maps, "
      "failed_reduces, killed_maps, killed_reduces, diagnostics FROM mr_jobs WHERE job_id = ?1");
  if (!q.ok()) return q.status();
  q.value().Bind(1, job_id);
  if (!q.value().Step()) {
    if (!q.value().Error().ok()) return q.value().Error();
    return UnknownJob(store, job_id);
  }
  const Statement& r = q.value();
  Job job;
  const std::int64_t key = r.ColumnInt(0);
  job.job_id = job_id;
  detail::ReadColumns(r, 1, job.name, job.user, job.queue, job.status, job.submit_ms,
                      job.launch_ms, job.finish_ms, job.total_maps, job.total_reduces,
                      job.finished_maps, job.finished_reduces, job.failed_maps,
                      job.failed_reduces, job.killed_maps, job.killed_reduces, job.diagnostics);
  for (const char* scope : {"total", "map", "reduce"}) {
    auto c = LoadCounters(store, key, scope, "");
    if (!c.ok()) return c.status();
    if (!c.value().empty()) job.counters[scope] = std::move(c).value();
  }
  if (Status st = detail::EachRow(
          store, "SELECT event_type, count FROM mr_event_counts WHERE job_key = ?1",
          [&](Statement& q) { job.event_counts[q.ColumnText(0)] = q.ColumnInt(1); }, key);
      !st.ok()) {
    return st;
  }
  auto tasks = detail::CollectRows(
      store,
      "SELECT task_id, task_type, status, start_time_ms, finish_time_ms, successful_attempt, "
      "error, splits FROM mr_tasks WHERE job_key = ?1 ORDER BY ord",
      [](Statement& q) {
        Task task;
        detail::ReadColumns(q, 0, task.task_id, task.task_type, task.status, task.start_ms,
                            task.finish_ms, task.successful_attempt, task.error, task.splits);
        return task;
      },
      key);
  if (!tasks.ok()) return tasks.status();
  job.tasks = std::move(tasks).value();
  if (Status st = LoadCountersOf(store, key, "task", &Task::task_id, job.tasks); !st.ok()) {
    return st;
  }
  auto attempts = detail::CollectRows(
      store,
      "SELECT attempt_id, task_id, task_type, status, host, rack, start_time_ms, finish_time_ms, "
      "map_finish_time_ms, shuffle_finish_time_ms, sort_finish_time_ms, error FROM mr_attempts "
      "WHERE job_key = ?1 ORDER BY ord",
      [](Statement& q) {
        Attempt at;
        detail::ReadColumns(q, 0, at.attempt_id, at.task_id, at.task_type, at.status, at.host,
                            at.rack, at.start_ms, at.finish_ms, at.map_finish_ms,
                            at.shuffle_finish_ms, at.sort_finish_ms, at.error);
        return at;
      },
      key);
  if (!attempts.ok()) return attempts.status();
  job.attempts = std::move(attempts).value();
  if (Status st = LoadCountersOf(store, key, "attempt", &Attempt::attempt_id, job.attempts);
      !st.ok()) {
    return st;
  }
  if (Status st = detail::EachRow(
          store, "SELECT name, value FROM mr_conf WHERE job_id = ?1 ORDER BY ord",
          [&](Statement& q) { job.conf.emplace_back(q.ColumnText(0), q.ColumnText(1)); }, job_id);
      !st.ok()) {
    return st;
  }
  return job;
}

}  // namespace perfplan::profiles::mapreduce
