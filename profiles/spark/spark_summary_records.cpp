#include "profiles/spark/spark_summary_records.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <system_error>
#include <unistd.h>

#include "models/json_text.h"
#include "profiles/detail/rows.h"
#include "profiles/detail/spark_attempt_tables.h"
#include "profiles/json_depth.h"
#include "profiles/skip_tally.h"
#include "profiles/spark/spark_executor_timeline.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::profiles::spark {
namespace {

namespace fs = std::filesystem;
using detail::EachRow;
using detail::FirstRow;
using Json = nlohmann::ordered_json;

// The tables of each record kind, in the order they are written and loaded (spark_attempts
// first: its row gives the attempt its key).
constexpr const char* kApplicationTables[] = {
    "spark_attempts",       "spark_properties",         "spark_resource_profiles",
    "spark_executors",      "spark_jobs",               "spark_executor_summaries",
    "spark_sql_executions", "spark_rdds",               "spark_misc_processes",
    "spark_summary_attempts"};
constexpr const char* kStageTables[] = {"spark_stages", "spark_stage_summaries",
                                        "spark_stage_executor_summaries", "spark_stage_durations"};

// The record key: "<app id>/<attempt id>" with the escapes of a JSON string (no tab, no newline).
std::string RecordKey(const std::string& app_id, const std::string& attempt_id) {
  const std::string quoted = JsonText(nlohmann::json(app_id + "/" + attempt_id));
  return quoted.substr(1, quoted.size() - 2);
}

// The columns of `table` in the store, in table order.
Result<std::vector<std::string>> Columns(Store& store, const std::string& table) {
  return detail::CollectRows(
      store, "SELECT name FROM pragma_table_info(?1) ORDER BY cid",
      [](const Statement& q) { return q.ColumnText(0); }, table);
}

// The rows of `table` for attempt `key` as column → value objects without attempt_key.
Result<std::vector<Json>> TableRows(Store& store, const std::string& table, std::int64_t key) {
  auto cols = Columns(store, table);
  if (!cols.ok()) return cols.status();
  std::vector<std::string> names;
  std::string select;
  for (const std::string& c : cols.value()) {
    if (c == "attempt_key") continue;
    names.push_back(c);
    select += std::string(select.empty() ? "" : ", ") + "typeof(\"" + c + "\"), \"" + c + "\"";
  }
  std::vector<Json> out;
  Status s = EachRow(
      store, "SELECT " + select + " FROM " + table + " WHERE attempt_key = ?1",
      [&](const Statement& q) {
        Json row = Json::object();
        for (std::size_t i = 0; i < names.size(); ++i) {
          const int at = static_cast<int>(2 * i);
          const std::string type = q.ColumnText(at);
          Json& v = row[names[i]];
          if (type == "integer") {
            v = q.ColumnInt(at + 1);
          } else if (type == "real") {
            v = q.ColumnDouble(at + 1);
          } else if (type != "null") {
            v = q.ColumnText(at + 1);
          }
        }
        out.push_back(std::move(row));
      },
      key);
  if (!s.ok()) return s;
  return out;
}

// Each stage attempt's successful task durations in launch order (TaskDurationsByStage's order),
// as JSON arrays of milliseconds, into spark_stage_durations of the scratch store.
Status WriteStageDurations(Store& store, std::int64_t key) {
  std::map<std::pair<std::int64_t, std::int64_t>, Json> durations;
  Status s = EachRow(
      store,
      "SELECT stage_id, stage_attempt_id, duration_ms FROM spark_tasks WHERE attempt_key = ?1 "
      "AND status = 'SUCCESS' ORDER BY stage_id, stage_attempt_id, launch_time_ms, task_id",
      [&](const Statement& q) {
        Json& list = durations[{q.ColumnInt(0), q.ColumnInt(1)}];
        if (list.is_null()) list = Json::array();
        if (q.ColumnIsNull(2)) {
          list.push_back(nullptr);
        } else {
          list.push_back(q.ColumnInt(2));
        }
      },
      key);
  if (!s.ok()) return s;
  auto ins = store.Prepare(
      "INSERT INTO spark_stage_durations(attempt_key, stage_id, stage_attempt_id, "
      "durations_ms_json) VALUES(?1, ?2, ?3, ?4)");
  if (!ins.ok()) return ins.status();
  for (const auto& [stage, list] : durations) {
    Statement& q = ins.value();
    q.Reset();
    q.Bind(1, key).Bind(2, stage.first).Bind(3, stage.second).Bind(4, JsonText(list));
    if (Status r = q.Run(); !r.ok()) return r;
  }
  return Status::Ok();
}

// An attempt's identity and the fields the copy rule compares.
struct AttemptRow {
  std::int64_t key = 0;
  std::string app_id, attempt_id, source;
  std::int64_t events = 0;
  bool completed = false;
};

// The attempt row matching `where` (params bound to ?1, ?2, …), if any.
template <typename... P>
Result<std::optional<AttemptRow>> ReadAttemptRow(Store& store, const std::string& where,
                                                 const P&... params) {
  std::optional<AttemptRow> out;
  Status s = FirstRow(
      store,
      "SELECT attempt_key, app_id, attempt_id, COALESCE(source, ''), events, completed FROM "
      "spark_attempts WHERE " + where,
      [&](const Statement& q) {
        AttemptRow r;
        detail::ReadColumns(q, 0, r.key, r.app_id, r.attempt_id, r.source, r.events);
        r.completed = q.ColumnInt(5) != 0;
        out = std::move(r);
      },
      params...);
  if (!s.ok()) return s;
  return out;
}

// Turns the fully ingested attempt `key` of a scratch store into summary records.
Status EmitAttempt(Store& store, std::int64_t key,
                   const std::function<void(const std::string&)>& emit) {
  auto row = ReadAttemptRow(store, "attempt_key = ?1", key);
  if (!row.ok()) return row.status();
  if (!row.value()) return Status::Failed("attempt row vanished from the scratch store");
  const std::string app_id = row.value()->app_id, attempt_id = row.value()->attempt_id;
  const std::string source = row.value()->source;
  const std::int64_t events = row.value()->events;
  const bool completed = row.value()->completed;
  auto shape = LoadApplicationShape(store, app_id, attempt_id);
  if (Status w = WriteSummaryOnlyTotals(store, key, shape.ok() ? shape.value() : ApplicationShape{},
                                        shape.ok() ? "" : shape.status().message());
      !w.ok()) {
    return w;
  }
  if (Status w = WriteStageDurations(store, key); !w.ok()) return w;

  auto header = [&](const char* kind) {
    Json r = Json::object();
    r["v"] = kSummaryRecordVersion;
    r["record"] = kind;
    r["app_id"] = app_id;
    r["attempt_id"] = attempt_id;
    r["source"] = source;
    r["events"] = events;
    r["completed"] = completed;
    return r;
  };
  // Stage rows by stage attempt, over every stage table (a stage with tasks but no stage event
  // has summary rows only).
  std::map<std::pair<std::int64_t, std::int64_t>, Json> stages;
  for (const char* table : kStageTables) {
    auto rows = TableRows(store, table, key);
    if (!rows.ok()) return rows.status();
    for (Json& row : rows.value()) {
      const std::pair<std::int64_t, std::int64_t> id{row.value("stage_id", std::int64_t{0}),
                                                     row.value("stage_attempt_id", std::int64_t{0})};
      Json& tables = stages[id];
      if (tables.is_null()) tables = Json::object();
      tables[table].push_back(std::move(row));
    }
  }
  Json app = header("application");
  app["stages"] = static_cast<std::int64_t>(stages.size());
  Json& app_rows = app["rows"] = Json::object();
  for (const char* table : kApplicationTables) {
    auto rows = TableRows(store, table, key);
    if (!rows.ok()) return rows.status();
    app_rows[table] = Json::array();
    for (Json& row : rows.value()) app_rows[table].push_back(std::move(row));
  }
  const std::string key_text = RecordKey(app_id, attempt_id) + "\t";
  emit(key_text + JsonText(app));
  for (auto& [id, tables] : stages) {
    Json stage = header("stage");
    stage["stage_id"] = id.first;
    stage["stage_attempt_id"] = id.second;
    stage["rows"] = std::move(tables);
    emit(key_text + JsonText(stage));
  }
  return Status::Ok();
}

void RemoveStoreFiles(const fs::path& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal", ".lock"}) {
    fs::remove(path.string() + suffix, ec);
  }
}

bool IsScalar(const nlohmann::json& v) {
  return v.is_null() || v.is_string() || v.is_number_integer() || v.is_number_float();
}

// Checks a record's "rows": an object of known tables, each an array of objects of scalars.
Status CheckRows(const nlohmann::json& rows, bool application, const std::string& where) {
  if (!rows.is_object()) return Status::InvalidArgument(where + ": \"rows\" must be an object");
  for (const auto& [table, list] : rows.items()) {
    bool known = false;
    if (application) {
      for (const char* t : kApplicationTables) known |= table == t;
    } else {
      for (const char* t : kStageTables) known |= table == t;
    }
    if (!known) {
      return Status::InvalidArgument(where + ": unknown table \"" + table + "\" in a" +
                                     (application ? "n application" : " stage") + " record");
    }
    if (!list.is_array()) {
      return Status::InvalidArgument(where + ": rows of " + table + " must be an array");
    }
    for (const auto& row : list) {
      if (!row.is_object()) {
        return Status::InvalidArgument(where + ": a row of " + table + " must be an object");
      }
      for (const auto& [column, value] : row.items()) {
        if (!IsScalar(value)) {
          return Status::InvalidArgument(where + ": " + table + "." + column +
                                         " must be a number, a string or null");
        }
        if (column == "attempt_key") {
          return Status::InvalidArgument(where + ": " + table +
                                         ".attempt_key is the store's own; records omit it");
        }
      }
    }
  }
  return Status::Ok();
}

// Inserts rows into a store, each statement prepared once per table and column list.
class RowWriter {
 public:
  explicit RowWriter(Store& store) : store_(store) {}

  // Inserts `row` into `table` with attempt_key = key (key < 0: spark_attempts, which makes the
  // key; then the new key is returned).
  Result<std::int64_t> Insert(const std::string& table, const nlohmann::json& row,
                              std::int64_t key, const std::string& where) {
    auto known = known_.find(table);
    if (known == known_.end()) {
      auto cols = Columns(store_, table);
      if (!cols.ok()) return cols.status();
      known = known_.emplace(table, std::set<std::string>(cols.value().begin(),
                                                            cols.value().end()))
                  .first;
    }
    std::string names = key < 0 ? "" : "attempt_key", values = key < 0 ? "" : "?1";
    int n = key < 0 ? 0 : 1;
    for (const auto& [column, value] : row.items()) {
      if (!known->second.count(column)) {
        return Status::InvalidArgument(where + ": the store's " + table + " has no column \"" +
                                       column + "\" (records of a newer perfplan?)");
      }
      names += std::string(names.empty() ? "" : ", ") + "\"" + column + "\"";
      values += std::string(values.empty() ? "" : ", ") + "?" + std::to_string(++n);
    }
    const std::string sql = "INSERT INTO " + table + "(" + names + ") VALUES(" + values + ")";
    auto it = statements_.find(sql);
    if (it == statements_.end()) {
      auto st = store_.Prepare(sql);
      if (!st.ok()) return st.status();
      it = statements_.emplace(sql, std::move(st).value()).first;
    }
    Statement& q = it->second;
    q.Reset();
    int i = 1;
    if (key >= 0) q.Bind(i++, key);
    for (const auto& [column, value] : row.items()) {
      if (value.is_null()) {
        q.BindNull(i++);
      } else if (value.is_string()) {
        q.Bind(i++, value.get<std::string>());
      } else if (value.is_number_unsigned()) {
        const auto u = value.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
          return Status::InvalidArgument(where + ": " + table + "." + column +
                                         " is larger than a 64-bit integer");
        }
        q.Bind(i++, static_cast<std::int64_t>(u));
      } else if (value.is_number_integer()) {
        q.Bind(i++, value.get<std::int64_t>());
      } else {
        q.Bind(i++, value.get<double>());
      }
    }
    if (Status s = q.Run(); !s.ok()) return Status::InvalidArgument(where + ": " + s.message());
    return key < 0 ? store_.LastInsertRowId() : key;
  }

 private:
  Store& store_;
  std::map<std::string, std::set<std::string>> known_;
  std::map<std::string, Statement> statements_;
};

// Loads one record line's rows (already checked by Add) for attempt `key`; the application record
// creates the key (returned).
Result<std::int64_t> LoadRecord(RowWriter& writer, const std::string& line,
                                const std::string& where, std::int64_t key) {
  const nlohmann::json record = nlohmann::json::parse(line.substr(line.find('\t') + 1));
  const bool application = key < 0;
  const nlohmann::json& rows = record.at("rows");
  const auto& tables = application ? std::vector<std::string>(std::begin(kApplicationTables),
                                                             std::end(kApplicationTables))
                                   : std::vector<std::string>(std::begin(kStageTables),
                                                              std::end(kStageTables));
  for (const std::string& table : tables) {
    if (!rows.contains(table)) continue;
    const nlohmann::json& list = rows.at(table);
    if (table == "spark_attempts") {
      if (list.size() != 1) {
        return Status::InvalidArgument(where + ": an application record needs exactly one "
                                       "spark_attempts row, it has " +
                                       std::to_string(list.size()));
      }
      const nlohmann::json& a = list.at(0);
      auto same = [&](const char* field) {
        const auto f = a.find(field);
        return f != a.end() && f->is_string() && *f == record.at(field);
      };
      if (!same("app_id") || !same("attempt_id")) {
        return Status::InvalidArgument(where +
                                       ": the spark_attempts row names another application");
      }
      auto made = writer.Insert(table, a, -1, where);
      if (!made.ok()) return made.status();
      key = made.value();
      continue;
    }
    for (const nlohmann::json& row : list) {
      auto r = writer.Insert(table, row, key, where);
      if (!r.ok()) return r.status();
    }
  }
  if (key < 0) {
    return Status::InvalidArgument(where + ": an application record needs its spark_attempts row");
  }
  return key;
}

}  // namespace

const char* SummaryOnlySchema() {
  return R"sql(
CREATE TABLE spark_summary_attempts(
  attempt_key INTEGER PRIMARY KEY,
  e_task_seconds, e_compute_seconds, e_shuffle_seconds, e_shuffle_bytes, e_gc_seconds,
  e_result_serialization_seconds, e_total_seconds, e_finished_tasks, e_tasks_with_cpu_time,
  e_input_bytes, p_input_bytes, p_disk_seconds, p_fetch_wait_seconds, p_remote_bytes,
  p_cpu_seconds, p_result_bytes, p_result_seconds, p_hosts,
  driver_seconds, measured_seconds, observed_executors, cores_per_executor, shape_error TEXT);
CREATE TABLE spark_stage_durations(
  attempt_key INTEGER NOT NULL, stage_id INTEGER NOT NULL, stage_attempt_id INTEGER NOT NULL,
  durations_ms_json TEXT NOT NULL, PRIMARY KEY(attempt_key, stage_id, stage_attempt_id))
  WITHOUT ROWID;
CREATE TRIGGER spark_summary_attempts_cleanup AFTER DELETE ON spark_attempts BEGIN
  DELETE FROM spark_summary_attempts WHERE attempt_key = OLD.attempt_key;
  DELETE FROM spark_stage_durations WHERE attempt_key = OLD.attempt_key;
END;
)sql";
}

const char* SummaryReplaySchema() {
  return R"sql(
ALTER TABLE spark_summary_attempts ADD COLUMN replay_seconds;
ALTER TABLE spark_summary_attempts ADD COLUMN work_bound_seconds;
)sql";
}

Result<bool> IsSummaryOnly(Store& store, std::int64_t attempt_key) {
  bool found = false;
  Status s = FirstRow(
      store, "SELECT 1 FROM spark_summary_attempts WHERE attempt_key = ?1",
      [&](const Statement&) { found = true; }, attempt_key);
  if (!s.ok()) return s;
  return found;
}

Status SummaryOnly(const std::string& app_id) {
  return Status::NotFound(app_id +
                          " is summary only (loaded by spark reduce): the store has its stage and "
                          "executor summaries, not its tasks; ingest its event log with ingest "
                          "spark for task-level answers");
}

Result<ApplicationShape> LoadApplicationShape(Store& store, const std::string& app_id,
                                              const std::string& attempt_id) {
  auto key = FindAttemptKey(store, app_id, attempt_id);
  if (!key.ok()) return key.status();
  auto summary = IsSummaryOnly(store, key.value());
  if (!summary.ok()) return summary.status();
  ApplicationShape shape;
  if (!summary.value()) {
    auto timeline = LoadExecutorTimeline(store, app_id, attempt_id);
    if (!timeline.ok()) return timeline.status();
    const models::TimelineApplication& app = timeline.value();
    shape.driver_seconds = app.driver_seconds;
    shape.measured_seconds = app.measured_seconds;
    shape.observed_executors = app.observed_executors;
    shape.cores_per_executor = app.cores_per_executor;
    if (auto replay = models::ReplayOnTimeline(app); replay.ok()) {
      shape.replay_seconds = replay.value().seconds;
      shape.work_bound_seconds =
          models::BoundStages(app, static_cast<double>(app.observed_executors) *
                                       std::max(1, app.cores_per_executor))
              .work_bound_seconds;
    }
    return shape;
  }
  std::string error;
  Status s = FirstRow(
      store,
      "SELECT driver_seconds, measured_seconds, observed_executors, cores_per_executor, "
      "shape_error, replay_seconds, work_bound_seconds FROM spark_summary_attempts WHERE "
      "attempt_key = ?1",
      [&](const Statement& q) {
        shape.driver_seconds = q.ColumnDouble(0);
        shape.measured_seconds = q.ColumnDouble(1);
        shape.observed_executors = static_cast<int>(q.ColumnInt(2));
        shape.cores_per_executor = static_cast<int>(q.ColumnInt(3));
        if (!q.ColumnIsNull(4)) error = q.ColumnText(4);
        if (!q.ColumnIsNull(5)) shape.replay_seconds = q.ColumnDouble(5);
        if (!q.ColumnIsNull(6)) shape.work_bound_seconds = q.ColumnDouble(6);
      },
      key.value());
  if (!s.ok()) return s;
  if (!error.empty()) return Status::Failed(error);
  return shape;
}

Result<IngestSummary> MapEventLogs(const std::vector<std::string>& paths,
                                   const std::string& scratch_dir, const IngestLimits& limits,
                                   const std::function<void(const std::string&)>& emit) {
  if (Status s = limits.Validate(); !s.ok()) return s;
  IngestSummary total;
  SkipTally<SkippedLine> skips;
  std::map<std::string, std::int64_t> reasons;
  std::vector<SkippedLine> missing;
  const std::vector<EventLogSource> sources = FindEventLogs(paths, &missing);
  for (SkippedLine& m : missing) {
    ++reasons[SkipReasonOf(m.reason)];
    ++total.skipped_total;
    skips.Add(std::move(m));
  }
  std::int64_t n = 0;
  for (const EventLogSource& src : sources) {
    // Each log alone in a fresh scratch store: its records are complete for its attempt, so the
    // reducer can replay the ingester's choice between copies in any split of the sources.
    const fs::path scratch = fs::path(scratch_dir) / ("perfplan-spark-map-" +
                                                      std::to_string(::getpid()) + "-" +
                                                      std::to_string(n++) + ".db");
    RemoveStoreFiles(scratch);
    Status failed;
    {
      auto store = Store::Open(scratch.string(), {StoreMigrations()});
      if (!store.ok()) return store.status();
      // A scratch store need not survive a crash: no fsync per transaction.
      if (Status p = store.value()->Exec("PRAGMA synchronous = OFF"); !p.ok()) return p;
      auto one = IngestEventLogs(*store.value(), {src.name}, {}, limits);
      if (!one.ok()) {
        failed = one.status();
      } else {
        total.events += one.value().events;
        total.lines += one.value().lines;
        total.bytes_read += one.value().bytes_read;
        total.skipped_total += one.value().skipped_total;
        for (const SkipReason& r : one.value().skipped_reasons) reasons[r.reason] += r.count;
        for (SkippedLine& l : one.value().skipped) skips.Add(std::move(l));
        for (IngestedApplication& a : one.value().applications) {
          total.applications.push_back(std::move(a));
        }
        std::vector<std::int64_t> keys;
        failed = EachRow(
            *store.value(), "SELECT attempt_key FROM spark_attempts ORDER BY attempt_key",
            [&](const Statement& q) { keys.push_back(q.ColumnInt(0)); });
        for (std::size_t i = 0; failed.ok() && i < keys.size(); ++i) {
          failed = EmitAttempt(*store.value(), keys[i], emit);
        }
      }
    }
    RemoveStoreFiles(scratch);
    if (!failed.ok()) {
      return Status::Failed(src.name + ": the scratch store failed: " + failed.message());
    }
  }
  total.skipped = std::move(skips.mutable_examples());
  for (const auto& [reason, count] : reasons) total.skipped_reasons.push_back({reason, count});
  std::stable_sort(total.skipped_reasons.begin(), total.skipped_reasons.end(),
                   [](const SkipReason& a, const SkipReason& b) { return a.count > b.count; });
  return total;
}

Status SummaryRecordReducer::Add(std::string_view line, const std::string& where) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) return Status::Ok();
  const std::size_t tab = line.find('\t');
  if (tab == std::string_view::npos) {
    return Status::InvalidArgument(where +
                                   ": expected KEY, a tab and a JSON record (spark map's output)");
  }
  const std::string_view key = line.substr(0, tab);
  const std::string_view text = line.substr(tab + 1);
  if (JsonDeeperThan(text, 16)) {
    return Status::InvalidArgument(where + ": the record is nested deeper than 16 levels");
  }
  nlohmann::json r;
  try {
    r = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return Status::InvalidArgument(where + ": invalid JSON: " + e.what());
  }
  if (!r.is_object()) return Status::InvalidArgument(where + ": the record must be a JSON object");
  const auto v = r.find("v");
  if (v == r.end() || !v->is_number_integer()) {
    return Status::InvalidArgument(where + ": the record has no version \"v\"");
  }
  if (v->get<std::int64_t>() != kSummaryRecordVersion) {
    return Status::InvalidArgument(where + ": record version " + std::to_string(v->get<std::int64_t>()) +
                                   "; this perfplan reads version " +
                                   std::to_string(kSummaryRecordVersion));
  }
  auto text_field = [&](const char* name, std::string* out) -> Status {
    const auto f = r.find(name);
    if (f == r.end() || !f->is_string()) {
      return Status::InvalidArgument(where + ": \"" + name + "\" must be a string");
    }
    *out = f->get<std::string>();
    return Status::Ok();
  };
  auto int_field = [&](const char* name, std::int64_t* out) -> Status {
    const auto f = r.find(name);
    if (f == r.end() || !f->is_number_integer()) {
      return Status::InvalidArgument(where + ": \"" + name + "\" must be an integer");
    }
    *out = f->get<std::int64_t>();
    return Status::Ok();
  };
  std::string kind, app_id, attempt_id, source;
  std::int64_t events = 0;
  for (auto [name, out] : {std::pair{"record", &kind}, std::pair{"app_id", &app_id},
                           std::pair{"attempt_id", &attempt_id}, std::pair{"source", &source}}) {
    if (Status s = text_field(name, out); !s.ok()) return s;
  }
  if (Status s = int_field("events", &events); !s.ok()) return s;
  const auto completed = r.find("completed");
  if (completed == r.end() || !completed->is_boolean()) {
    return Status::InvalidArgument(where + ": \"completed\" must be true or false");
  }
  if (kind != "application" && kind != "stage") {
    return Status::InvalidArgument(where + ": \"record\" must be \"application\" or \"stage\", saw \"" +
                                   kind + "\"");
  }
  const std::string expected = RecordKey(app_id, attempt_id);
  if (key != expected) {
    return Status::InvalidArgument(where + ": key \"" + std::string(key.substr(0, 200)) +
                                   "\" does not match the record's application \"" + expected +
                                   "\"");
  }
  const auto rows = r.find("rows");
  if (rows == r.end()) return Status::InvalidArgument(where + ": the record has no \"rows\"");
  if (Status s = CheckRows(*rows, kind == "application", where); !s.ok()) return s;

  Candidate& c = attempts_[expected][{source, events}];
  c.source = source;
  c.events = events;
  c.completed = completed->get<bool>();
  const std::string copy(line);
  if (kind == "application") {
    std::int64_t stages = 0;
    if (Status s = int_field("stages", &stages); !s.ok()) return s;
    if (!c.app_line.empty() && c.app_line != copy) {
      return Status::InvalidArgument(where + ": a second, different application record for " +
                                     expected + " from " + source + " (first at " + c.app_where +
                                     ")");
    }
    c.app_line = copy;
    c.app_where = where;
    c.stages = stages;
  } else {
    std::int64_t stage = 0, attempt = 0;
    if (Status s = int_field("stage_id", &stage); !s.ok()) return s;
    if (Status s = int_field("stage_attempt_id", &attempt); !s.ok()) return s;
    auto [it, fresh] = c.stage_lines.try_emplace({stage, attempt}, copy);
    if (!fresh && it->second != copy) {
      return Status::InvalidArgument(where + ": a second, different record of stage " +
                                     std::to_string(stage) + "." + std::to_string(attempt) +
                                     " of " + expected + " from " + source);
    }
  }
  return Status::Ok();
}

Status SummaryRecordReducer::Merge(std::vector<Merged>* out) const {
  for (const auto& [key, by_source] : attempts_) {
    std::vector<const Candidate*> order;
    for (const auto& [id, c] : by_source) {
      if (c.app_line.empty()) {
        return Status::InvalidArgument(key + " from " + c.source +
                                       ": stage records without their application record (the "
                                       "map output is incomplete)");
      }
      if (static_cast<std::int64_t>(c.stage_lines.size()) != c.stages) {
        return Status::InvalidArgument(key + " from " + c.source + ": " +
                                       std::to_string(c.stage_lines.size()) + " of " +
                                       std::to_string(c.stages) +
                                       " stage records (the map output is incomplete)");
      }
      order.push_back(&c);
    }
    // The order `ingest spark` reads a folder in: path order, element by element.
    std::stable_sort(order.begin(), order.end(), [](const Candidate* a, const Candidate* b) {
      const fs::path pa(a->source), pb(b->source);
      if (pa != pb) return pa < pb;
      return a->events < b->events;
    });
    Merged m;
    m.key = key;
    for (const Candidate* c : order) {
      if (m.winner != nullptr &&
          ((m.winner->completed && !c->completed) || m.winner->events > c->events)) {
        m.left_out.push_back(c->source);  // the ingester would not replace the kept copy
        continue;
      }
      if (m.winner != nullptr) m.left_out.push_back(m.winner->source);
      m.winner = c;
    }
    out->push_back(std::move(m));
  }
  return Status::Ok();
}

Status SummaryRecordReducer::Write(const std::function<void(const std::string&)>& emit) const {
  std::vector<Merged> merged;
  if (Status s = Merge(&merged); !s.ok()) return s;
  for (const Merged& m : merged) {
    emit(m.winner->app_line);
    for (const auto& [id, line] : m.winner->stage_lines) emit(line);
  }
  return Status::Ok();
}

Result<std::vector<LoadedAttempt>> SummaryRecordReducer::Load(Store& store) const {
  std::vector<Merged> merged;
  if (Status s = Merge(&merged); !s.ok()) return s;
  std::vector<LoadedAttempt> out;
  RowWriter writer(store);
  for (const Merged& m : merged) {
    const Candidate& c = *m.winner;
    const nlohmann::json head = nlohmann::json::parse(c.app_line.substr(c.app_line.find('\t') + 1));
    LoadedAttempt loaded;
    loaded.app_id = head.at("app_id").get<std::string>();
    loaded.attempt_id = head.at("attempt_id").get<std::string>();
    loaded.source = c.source;
    loaded.events = c.events;
    for (const std::string& s : m.left_out) {
      loaded.note += std::string(loaded.note.empty() ? "copies left out: " : ", ") + s;
    }
    if (Status s = store.Begin(); !s.ok()) return s;
    auto fail = [&store](Status s) {
      store.Rollback();
      return s;
    };
    auto stored = ReadAttemptRow(store, "app_id = ?1 AND attempt_id = ?2", loaded.app_id,
                                 loaded.attempt_id);
    if (!stored.ok()) return fail(stored.status());
    if (const std::optional<AttemptRow>& old = stored.value()) {
      std::string why;
      if (old->source == c.source && old->events == c.events && old->completed == c.completed) {
        loaded.outcome = "unchanged";
      } else if (old->completed && !c.completed) {
        why = "it is incomplete and the stored copy is complete";
      } else if (old->events > c.events) {
        why = "it has " + std::to_string(c.events) + " events, the stored copy " +
              std::to_string(old->events);
      }
      if (!why.empty()) {
        loaded.outcome = "kept";
        loaded.note = "not replacing the copy stored from " + old->source + ": " + why +
                      (loaded.note.empty() ? "" : "; " + loaded.note);
      }
      if (!loaded.outcome.empty()) {
        store.Rollback();
        out.push_back(std::move(loaded));
        continue;
      }
      for (const char* table : profiles::detail::kSparkAttemptTables) {
        auto del = store.Prepare(std::string("DELETE FROM ") + table + " WHERE attempt_key = ?1");
        if (!del.ok()) return fail(del.status());
        del.value().Bind(1, old->key);
        if (Status d = del.value().Run(); !d.ok()) return fail(d);
      }
    }
    auto key = LoadRecord(writer, c.app_line, c.app_where, -1);
    if (!key.ok()) return fail(key.status());
    for (const auto& [id, line] : c.stage_lines) {
      auto r = LoadRecord(writer, line, m.key + " stage " + std::to_string(id.first) + "." +
                                            std::to_string(id.second), key.value());
      if (!r.ok()) return fail(r.status());
    }
    if (Status cs = store.Commit(); !cs.ok()) return cs;
    loaded.outcome = "loaded";
    out.push_back(std::move(loaded));
  }
  return out;
}

}  // namespace perfplan::profiles::spark
