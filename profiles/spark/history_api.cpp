#include "profiles/spark/history_api.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <utility>

#include "models/json_text.h"
#include "models/text.h"
#include "profiles/detail/rows.h"
#include "profiles/detail/spark_metrics.h"
#include "profiles/spark/spark_store.h"
#include "profiles/spark/spark_summary_records.h"
#include "profiles/spark/spark_task_metrics.h"

namespace perfplan::profiles::spark {
namespace {

using Json = nlohmann::ordered_json;
namespace metrics = detail;
using profiles::detail::EachRow;
using profiles::detail::FirstRow;

// Executor memory metrics in the order Spark's ExecutorMetricType lists them.
constexpr const char* kExecutorMetricNames[] = {"JVMHeapMemory",
                                                "JVMOffHeapMemory",
                                                "OnHeapExecutionMemory",
                                                "OffHeapExecutionMemory",
                                                "OnHeapStorageMemory",
                                                "OffHeapStorageMemory",
                                                "OnHeapUnifiedMemory",
                                                "OffHeapUnifiedMemory",
                                                "DirectPoolMemory",
                                                "MappedPoolMemory",
                                                "ProcessTreeJVMVMemory",
                                                "ProcessTreeJVMRSSMemory",
                                                "ProcessTreePythonVMemory",
                                                "ProcessTreePythonRSSMemory",
                                                "ProcessTreeOtherVMemory",
                                                "ProcessTreeOtherRSSMemory",
                                                "MinorGCCount",
                                                "MinorGCTime",
                                                "MajorGCCount",
                                                "MajorGCTime",
                                                "TotalGCTime"};

// "2015-02-03T16:42:59.720GMT", as the History Server formats dates.
std::string FormatDate(std::int64_t epoch_ms) {
  std::int64_t secs = epoch_ms >= 0 ? epoch_ms / 1000 : (epoch_ms - 999) / 1000;
  int millis = static_cast<int>(epoch_ms - secs * 1000);
  std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03dGMT", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, millis);
  return buf;
}

// Parses the History Server's date parameters strictly, as Spark's SimpleDateParam does
// ("yyyy-MM-dd'T'HH:mm:ss.SSSz", then "yyyy-MM-dd", then epoch milliseconds): the whole text
// must match, fields must be in range (no 2015-13-45, no 02-30), and the zone of the long form is
// GMT, UTC, Z, GMT+HH:MM / GMT-HH:MM or +HHMM / -HHMM. nullopt otherwise.
std::optional<std::int64_t> ParseDate(const std::string& s) {
  auto digits = [&](std::size_t at, std::size_t n, int* out) {
    if (at + n > s.size()) return false;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
  };
  if (!s.empty() && s.size() <= 15 &&
      std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::stoll(s);  // at most 15 digits: year 33658, no overflow
  }
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0, ms = 0;
  if (!digits(0, 4, &y) || s.size() < 10 || s[4] != '-' || !digits(5, 2, &mo) || s[7] != '-' ||
      !digits(8, 2, &d)) {
    return std::nullopt;
  }
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (mo < 1 || mo > 12 || d < 1 || d > kDays[mo - 1]) return std::nullopt;
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  if (mo == 2 && d == 29 && !leap) return std::nullopt;
  int offset_minutes = 0;
  if (s.size() > 10) {
    if (s.size() < 23 || s[10] != 'T' || !digits(11, 2, &h) || s[13] != ':' ||
        !digits(14, 2, &mi) || s[16] != ':' || !digits(17, 2, &sec) || s[19] != '.' ||
        !digits(20, 3, &ms)) {
      return std::nullopt;
    }
    if (h > 23 || mi > 59 || sec > 59) return std::nullopt;
    std::string zone = s.substr(23);
    if (zone == "GMT" || zone == "UTC" || zone == "Z") {
      zone.clear();
    } else if (zone.rfind("GMT", 0) == 0 && zone.size() == 9 && zone[6] == ':') {
      zone = zone.substr(3, 3) + zone.substr(7);  // GMT+01:00 -> +0100
    }
    if (!zone.empty()) {
      int zh = 0, zm = 0;
      if (zone.size() != 5 || (zone[0] != '+' && zone[0] != '-') ||
          !std::all_of(zone.begin() + 1, zone.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return std::nullopt;
      }
      zh = (zone[1] - '0') * 10 + (zone[2] - '0');
      zm = (zone[3] - '0') * 10 + (zone[4] - '0');
      if (zh > 23 || zm > 59) return std::nullopt;
      offset_minutes = (zone[0] == '-' ? -1 : 1) * (zh * 60 + zm);
    }
  }
  std::tm tm{};
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = sec;
  return (static_cast<std::int64_t>(timegm(&tm)) - offset_minutes * 60LL) * 1000 + ms;
}

// A whole-number query parameter in [0, 2147483647] (Spark's Integer parameters; negative
// values would silently mean "none"); absent -> `fallback`.
Result<std::int64_t> CountParam(const std::optional<std::string>& v, const char* name,
                                std::int64_t fallback) {
  if (!v) return fallback;
  if (v->empty() || v->size() > 10 ||
      !std::all_of(v->begin(), v->end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      std::stoll(*v) > 2147483647LL) {
    return Status::InvalidField(name, "expected a whole number 0..2147483647, got \"" + *v + "\"");
  }
  return std::stoll(*v);
}

struct Query {
  std::multimap<std::string, std::string> params;
  std::optional<std::string> Get(const std::string& key) const {
    auto it = params.find(key);
    if (it == params.end()) return std::nullopt;
    return it->second;
  }
  std::vector<std::string> All(const std::string& key) const {
    std::vector<std::string> out;
    auto [b, e] = params.equal_range(key);
    for (auto it = b; it != e; ++it) out.push_back(it->second);
    return out;
  }
};

using models::Lower;
using models::Upper;

Json ParseOr(const std::string& text, Json fallback) {
  Json j = Json::parse(text, nullptr, false);
  return j.is_discarded() ? fallback : j;
}

// j[name] = the integer in column i, for each (name, i) in order.
void IntFields(Json& j, const Statement& s,
               std::initializer_list<std::pair<const char*, int>> fields) {
  for (const auto& [name, i] : fields) j[name] = s.ColumnInt(i);
}

class Api {
 public:
  explicit Api(Store& store) : store_(store) {}

  Result<Json> Answer(const std::vector<std::string>& seg, const Query& q);

 private:
  Result<Json> Applications(const Query& q);
  Result<Json> Application(const std::string& app_id, const std::string& only_attempt);
  Result<Json> Jobs(std::int64_t key, const Query& q, std::optional<int> job_id);
  Result<Json> Stages(std::int64_t key, const Query& q, std::optional<int> stage_id,
                      std::optional<int> attempt);
  Result<Json> TaskList(std::int64_t key, int stage, int attempt, const Query& q);
  Result<Json> TaskSummary(std::int64_t key, int stage, int attempt, const Query& q);
  Result<Json> Executors(std::int64_t key, bool all);
  Result<Json> Environment(std::int64_t key);
  Result<Json> MiscProcesses(std::int64_t key);
  Result<Json> Rdds(std::int64_t key, std::optional<int> rdd_id);
  Result<Json> Sql(std::int64_t key, const Query& q, std::optional<std::int64_t> execution_id);

  // Fails on a corrupt task row of the stage (its tasks or their distributions).
  Result<Json> StageJson(Statement& s, std::int64_t key, const Query& q, bool single);
  Json ExecutorSummary(std::int64_t key, int stage, int attempt);
  Result<Json> ExecutorDistributions(std::int64_t key, int stage, int attempt, const Query& q);
  Result<Json> TaskJson(Statement& s, int metrics_column);
  // One stage attempt's tasks in id order; fails on a task whose metrics blob is corrupt.
  Result<std::vector<Json>> TasksOf(std::int64_t key, int stage, int attempt,
                                    const std::string& status);

  // The rows of `sql` (?1 = key), each mapped by row(s), as a JSON array in the query's order.
  template <typename Row>
  Result<Json> JsonRows(const std::string& sql, std::int64_t key, Row&& row) {
    Json out = Json::array();
    Status st = EachRow(
        store_, sql, [&](Statement& s) { out.push_back(row(s)); }, key);
    if (!st.ok()) return st;
    return out;
  }

  Store& store_;
};

Result<Json> Api::Answer(const std::vector<std::string>& seg, const Query& q) {
  if (seg.empty() || seg[0] != "applications") {
    return Status::InvalidArgument("unsupported path: only applications[/...] is answered");
  }
  if (seg.size() == 1) return Applications(q);
  const std::string& app_id = seg[1];
  static const std::set<std::string> kEndpoints = {
      "jobs",        "stages",  "executors", "allexecutors", "allmiscellaneousprocess",
      "environment", "storage", "sql",       "logs",         "streaming"};
  std::size_t at = 2;
  std::string attempt;
  if (seg.size() > 2 && !kEndpoints.count(seg[2])) {
    attempt = seg[2];
    at = 3;
  }
  std::string path;
  for (const auto& s : seg) path += (path.empty() ? "" : "/") + s;
  const Status unsupported =
      Status::NotFound("unsupported endpoint: " + path + " (docs/spark.md lists the served ones)");
  auto key_or = profiles::spark::FindAttemptKey(store_, app_id, attempt);
  if (!key_or.ok()) {
    // An application that exists with a path segment that is neither an attempt (attempt ids
    // are numbers) nor an endpoint perfplan serves.
    const bool numeric =
        !attempt.empty() &&
        std::all_of(attempt.begin(), attempt.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!attempt.empty() && !numeric && profiles::spark::FindAttemptKey(store_, app_id, "").ok()) {
      return unsupported;
    }
    return Status::NotFound(attempt.empty() ? "unknown app: " + app_id
                                            : "unknown app " + app_id + ", attempt " + attempt);
  }
  if (seg.size() == at) return Application(app_id, attempt);
  std::int64_t key = key_or.value();
  const std::string& what = seg[at];
  std::size_t rest = seg.size() - at - 1;
  auto number = [&](std::size_t i) -> std::optional<int> {
    try {
      std::size_t used = 0;
      int v = std::stoi(seg[i], &used);
      if (used == seg[i].size()) return v;
    } catch (...) {
    }
    return std::nullopt;
  };
  if (what == "jobs" && rest <= 1) {
    std::optional<int> id;
    if (rest == 1 && !(id = number(at + 1))) {
      return Status::InvalidArgument("job id must be a number: " + seg[at + 1]);
    }
    return Jobs(key, q, id);
  }
  if (what == "stages") {
    std::optional<int> stage, sattempt;
    if (rest >= 1 && !(stage = number(at + 1))) {
      return Status::InvalidArgument("stage id must be a number: " + seg[at + 1]);
    }
    if (rest >= 2 && !(sattempt = number(at + 2))) {
      return Status::InvalidArgument("stage attempt id must be a number: " + seg[at + 2]);
    }
    // A summary-only application has no task rows: its task answers say so instead of
    // answering with empty lists (the stage list without details is served from summaries).
    const bool tasks = rest == 3 || q.Get("details").value_or(stage ? "true" : "false") == "true" ||
                       q.Get("withSummaries").value_or("false") == "true";
    if (tasks && (rest <= 2 || seg[at + 3] == "taskList" || seg[at + 3] == "taskSummary")) {
      auto summary_only = profiles::spark::IsSummaryOnly(store_, key);
      if (!summary_only.ok()) return summary_only.status();
      if (summary_only.value()) return profiles::spark::SummaryOnly(app_id);
    }
    if (rest <= 2) return Stages(key, q, stage, sattempt);
    if (rest == 3 && seg[at + 3] == "taskList") return TaskList(key, *stage, *sattempt, q);
    if (rest == 3 && seg[at + 3] == "taskSummary") return TaskSummary(key, *stage, *sattempt, q);
  }
  if ((what == "executors" || what == "allexecutors") && rest == 0) {
    return Executors(key, what == "allexecutors");
  }
  if (what == "environment" && rest == 0) return Environment(key);
  if (what == "allmiscellaneousprocess" && rest == 0) return MiscProcesses(key);
  if (what == "storage" && rest >= 1 && rest <= 2 && seg[at + 1] == "rdd") {
    std::optional<int> rdd;
    if (rest == 2 && !(rdd = number(at + 2))) {
      return Status::InvalidArgument("rdd id must be a number: " + seg[at + 2]);
    }
    return Rdds(key, rdd);
  }
  if (what == "sql" && rest <= 1) {
    std::optional<std::int64_t> id;
    if (rest == 1) {
      const std::string& text = seg[at + 1];
      // SqlResource's path pattern is {executionId:\d+}.
      if (text.empty() || text.size() > 18 ||
          !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return unsupported;
      }
      id = std::stoll(text);
    }
    return Sql(key, q, id);
  }
  return unsupported;
}

// ---- applications ----

Result<Json> Api::Application(const std::string& app_id, const std::string& only_attempt) {
  Json app = {{"id", app_id}, {"name", ""}, {"attempts", Json::array()}};
  bool any = false;
  Status st = EachRow(
      store_,
      "SELECT app_name, attempt_id, start_time_ms, end_time_ms, completed, last_updated_ms, "
      "spark_user, spark_version FROM spark_attempts WHERE app_id = ?1 "
      "ORDER BY start_time_ms DESC, attempt_id DESC",
      [&](Statement& s) {
        std::string attempt_id = s.ColumnText(1);
        if (!only_attempt.empty() && attempt_id != only_attempt) return;
        any = true;
        app["name"] = s.ColumnText(0);
        std::int64_t start = s.ColumnIsNull(2) ? -1 : s.ColumnInt(2);
        bool completed = s.ColumnInt(4) != 0;
        std::int64_t end = completed && !s.ColumnIsNull(3) ? s.ColumnInt(3) : -1;
        std::int64_t updated = s.ColumnInt(5);
        Json a;
        if (!attempt_id.empty()) a["attemptId"] = attempt_id;
        a["startTime"] = FormatDate(start);
        a["endTime"] = FormatDate(end);
        a["lastUpdated"] = FormatDate(updated);
        a["duration"] = completed && end >= 0 && start >= 0 ? end - start : 0;
        a["sparkUser"] = s.ColumnText(6);
        a["completed"] = completed;
        a["appSparkVersion"] = s.ColumnText(7);
        a["endTimeEpoch"] = end;
        a["startTimeEpoch"] = start;
        a["lastUpdatedEpoch"] = updated;
        app["attempts"].push_back(std::move(a));
      },
      app_id);
  if (!st.ok()) return st;
  if (!any) return Status::NotFound("unknown app: " + app_id);
  if (!only_attempt.empty()) return app["attempts"][0];
  return app;
}

Result<Json> Api::Applications(const Query& q) {
  std::set<std::string> statuses;
  for (const auto& v : q.All("status")) {
    std::string s = Lower(v);
    if (s != "completed" && s != "running") {
      return Status::InvalidArgument("status must be completed or running, not " + v);
    }
    statuses.insert(s);
  }
  std::optional<std::int64_t> min_date, max_date, min_end, max_end;
  auto date = [&](const char* name, std::optional<std::int64_t>* out) -> Status {
    if (auto v = q.Get(name)) {
      *out = ParseDate(*v);
      if (!*out) {
        return Status::InvalidField(name,
                                    "expected a date such as 2015-02-10, "
                                    "2015-02-03T16:42:40.000GMT or epoch milliseconds, got \"" +
                                        *v + "\"");
      }
    }
    return Status::Ok();
  };
  for (auto [name, out] : {std::pair{"minDate", &min_date}, std::pair{"maxDate", &max_date},
                           std::pair{"minEndDate", &min_end}, std::pair{"maxEndDate", &max_end}}) {
    if (Status st = date(name, out); !st.ok()) return st;
  }
  Result<std::int64_t> limit_param = CountParam(q.Get("limit"), "limit", -1);
  if (!limit_param.ok()) return limit_param.status();
  std::optional<std::int64_t> limit;
  if (limit_param.value() >= 0) limit = limit_param.value();
  // One entry per application, ordered as the History Server's listing index "endTime" (the
  // latest attempt's end, -1 while it runs), reversed.
  const bool include_completed = statuses.empty() || statuses.count("completed");
  const bool include_running = statuses.empty() || statuses.count("running");
  Json out = Json::array();
  Status failed;
  Status st = EachRow(
      store_,
      "SELECT a.app_id, (SELECT CASE WHEN l.completed = 1 THEN COALESCE(l.end_time_ms, -1) ELSE "
      "-1 END FROM spark_attempts l WHERE l.app_id = a.app_id ORDER BY l.start_time_ms DESC, "
      "l.attempt_id DESC LIMIT 1) AS e FROM spark_attempts a WHERE a.app_id NOT LIKE char(1) || "
      "'%' GROUP BY a.app_id ORDER BY e DESC, a.app_id DESC",
      [&](Statement& s) {
        if (limit && static_cast<std::int64_t>(out.size()) >= *limit) return false;
        auto app = Application(s.ColumnText(0), "");
        if (!app.ok()) {
          failed = app.status();
          return false;
        }
        // ApplicationListResource: the latest attempt (listed first) decides running or completed;
        // any attempt in the date windows keeps the application.
        const Json& attempts = app.value()["attempts"];
        const bool running = attempts.empty() || !attempts[0]["completed"].get<bool>();
        bool in_range = false;
        for (const Json& a : attempts) {
          std::int64_t start = a["startTimeEpoch"].get<std::int64_t>();
          std::int64_t end = a["endTimeEpoch"].get<std::int64_t>();
          bool date_ok = (!min_date || start >= *min_date) && (!max_date || start <= *max_date);
          bool end_ok = (!min_end || end >= *min_end) && (!max_end || end <= *max_end);
          in_range |= date_ok && end_ok;
        }
        if (((running && include_running) || (!running && include_completed)) && in_range) {
          out.push_back(std::move(app.value()));
        }
        return true;
      });
  if (!failed.ok()) return failed;
  if (!st.ok()) return st;
  return out;
}

// ---- jobs ----

Result<Json> Api::Jobs(std::int64_t key, const Query& q, std::optional<int> job_id) {
  std::set<std::string> statuses;
  for (const auto& v : q.All("status")) statuses.insert(Upper(v));
  Json out = Json::array();
  Status st = EachRow(
      store_,
      "SELECT job_id, name, description, submission_time_ms, completion_time_ms, stage_ids_json, "
      "job_group, job_tags_json, status, num_tasks, num_active_tasks, num_completed_tasks, "
      "num_skipped_tasks, num_failed_tasks, num_killed_tasks, num_completed_indices, "
      "num_active_stages, num_completed_stages, num_skipped_stages, num_failed_stages, "
      "killed_tasks_summary_json FROM spark_jobs WHERE attempt_key = ?1 ORDER BY job_id DESC",
      [&](Statement& s) {
        int id = static_cast<int>(s.ColumnInt(0));
        if (job_id && id != *job_id) return;
        if (!statuses.empty() && !statuses.count(s.ColumnText(8))) return;
        Json j;
        j["jobId"] = id;
        j["name"] = s.ColumnText(1);
        if (!s.ColumnIsNull(2)) j["description"] = s.ColumnText(2);
        if (!s.ColumnIsNull(3)) j["submissionTime"] = FormatDate(s.ColumnInt(3));
        if (!s.ColumnIsNull(4)) j["completionTime"] = FormatDate(s.ColumnInt(4));
        j["stageIds"] = ParseOr(s.ColumnText(5), Json::array());
        if (!s.ColumnIsNull(6)) j["jobGroup"] = s.ColumnText(6);
        j["jobTags"] = ParseOr(s.ColumnText(7), Json::array());
        j["status"] = s.ColumnText(8);
        const char* counts[] = {
            "numTasks",           "numActiveTasks",   "numCompletedTasks",   "numSkippedTasks",
            "numFailedTasks",     "numKilledTasks",   "numCompletedIndices", "numActiveStages",
            "numCompletedStages", "numSkippedStages", "numFailedStages"};
        for (int c = 0; c < 11; ++c) j[counts[c]] = s.ColumnInt(9 + c);
        j["killedTasksSummary"] = ParseOr(s.ColumnText(20), Json::object());
        out.push_back(std::move(j));
      },
      key);
  if (!st.ok()) return st;
  if (job_id) {
    if (out.empty()) return Status::NotFound("unknown job: " + std::to_string(*job_id));
    return out[0];
  }
  return out;
}

// ---- stages ----

// The stage attempt's task-metric sums, kept at ingest (spark_stage_summaries, alias m).
std::string MetricSums() {
  std::string cols;
  for (const auto& m : metrics::kTaskMetrics) cols += ", m." + std::string(m.column);
  return cols;
}

constexpr const char* kStageColumns =
    "s.stage_id, s.stage_attempt_id, s.status, s.num_tasks, s.num_active_tasks, "
    "s.num_complete_tasks, s.num_failed_tasks, s.num_killed_tasks, s.num_completed_indices, "
    "s.submission_time_ms, s.first_task_launched_time_ms, s.completion_time_ms, "
    "s.failure_reason, s.name, s.description, s.details, s.scheduling_pool, s.rdd_ids_json, "
    "s.accumulables_json, s.killed_tasks_summary_json, s.resource_profile_id, "
    "s.peak_executor_metrics_json, s.executor_peaks_json, s.speculation_summary_json, "
    "s.shuffle_push_enabled, s.shuffle_mergers_count";
constexpr int kStageMetricColumn = 26;

Json PeakMetrics(const std::string& text) {
  Json stored = ParseOr(text, Json::object());
  Json out = Json::object();
  for (const char* name : kExecutorMetricNames) {
    out[name] = stored.contains(name) ? stored[name] : Json(0);
  }
  return out;
}

std::int64_t MetricValue(Statement& s, int first, std::string_view column) {
  for (std::size_t i = 0; i < metrics::kTaskMetrics.size(); ++i) {
    if (metrics::kTaskMetrics[i].column == column) {
      return s.ColumnInt(first + static_cast<int>(i));
    }
  }
  return 0;
}

Json Api::ExecutorSummary(std::int64_t key, int stage, int attempt) {
  Json out = Json::object();
  // Executors with a summary for the stage: the ones that ran its tasks and the ones (the driver
  // too) that reported SparkListenerStageExecutorMetrics for it, with their peaks.
  // Both reads are best effort: the stage answer carries what the store has (a store before
  // schema v2 has neither the peaks nor the per-executor summaries).
  Json peaks = nullptr, excluded = Json::array();  // peaks: null in stores before schema v2
  const std::int64_t stage_id = stage, attempt_id = attempt;
  (void)FirstRow(
      store_,
      "SELECT executor_peaks_json, excluded_executors_json FROM spark_stages "
      "WHERE attempt_key = ?1 AND stage_id = ?2 AND stage_attempt_id = ?3",
      [&](Statement& p) {
        peaks = ParseOr(p.ColumnText(0), nullptr);
        excluded = ParseOr(p.ColumnText(1), Json::array());
      },
      key, stage_id, attempt_id);
  const char* names[] = {"taskTime",           "failedTasks",     "succeededTasks",
                         "killedTasks",        "inputBytes",      "inputRecords",
                         "outputBytes",        "outputRecords",   "shuffleRead",
                         "shuffleReadRecords", "shuffleWrite",    "shuffleWriteRecords",
                         "memoryBytesSpilled", "diskBytesSpilled"};
  auto entry = [&](const std::string& id, const std::int64_t* counts) {
    const bool is_excluded =
        std::find(excluded.begin(), excluded.end(), Json(id)) != excluded.end();
    Json e;
    for (int c = 0; c < 14; ++c) e[names[c]] = counts ? counts[c] : 0;
    e["isBlacklistedForStage"] = is_excluded;
    if (!peaks.is_object() || peaks.contains(id)) {
      e["peakMemoryMetrics"] = PeakMetrics(peaks.is_object() ? JsonText(peaks[id]) : "{}");
    }
    e["isExcludedForStage"] = is_excluded;
    return e;
  };
  (void)EachRow(
      store_,
      "SELECT x.executor_id, x.duration_ms_sum, x.failed_tasks, x.succeeded_tasks, "
      "x.killed_tasks, x.input_bytes, x.input_records, x.output_bytes, x.output_records, "
      "x.shuffle_read_bytes, x.shuffle_records_read, x.shuffle_bytes_written, "
      "x.shuffle_records_written, x.memory_bytes_spilled, x.disk_bytes_spilled "
      "FROM spark_stage_executor_summaries x WHERE x.attempt_key = ?1 AND x.stage_id = ?2 AND "
      "x.stage_attempt_id = ?3 ORDER BY x.executor_id",
      [&](Statement& s) {
        std::int64_t counts[14];
        for (int c = 0; c < 14; ++c) counts[c] = s.ColumnInt(1 + c);
        out[s.ColumnText(0)] = entry(s.ColumnText(0), counts);
      },
      key, stage_id, attempt_id);
  if (peaks.is_object()) {
    for (auto& [id, p] : peaks.items()) {
      if (!out.contains(id)) out[id] = entry(id, nullptr);
    }
  }
  return out;
}

Result<Json> Api::StageJson(Statement& s, std::int64_t key, const Query& q, bool single) {
  Json j;
  j["status"] = s.ColumnText(2);
  IntFields(j, s,
            {{"stageId", 0},
             {"attemptId", 1},
             {"numTasks", 3},
             {"numActiveTasks", 4},
             {"numCompleteTasks", 5},
             {"numFailedTasks", 6},
             {"numKilledTasks", 7},
             {"numCompletedIndices", 8}});
  if (!s.ColumnIsNull(9)) j["submissionTime"] = FormatDate(s.ColumnInt(9));
  if (!s.ColumnIsNull(10)) j["firstTaskLaunchedTime"] = FormatDate(s.ColumnInt(10));
  if (!s.ColumnIsNull(11)) j["completionTime"] = FormatDate(s.ColumnInt(11));
  if (!s.ColumnText(12).empty()) j["failureReason"] = s.ColumnText(12);
  const int m = kStageMetricColumn;
  auto v = [&](std::string_view column) { return MetricValue(s, m, column); };
  j["executorDeserializeTime"] = v("executor_deserialize_time_ms");
  j["executorDeserializeCpuTime"] = v("executor_deserialize_cpu_time_ns");
  j["executorRunTime"] = v("executor_run_time_ms");
  j["executorCpuTime"] = v("executor_cpu_time_ns");
  j["resultSize"] = v("result_size_bytes");
  j["jvmGcTime"] = v("jvm_gc_time_ms");
  j["resultSerializationTime"] = v("result_serialization_time_ms");
  j["memoryBytesSpilled"] = v("memory_bytes_spilled");
  j["diskBytesSpilled"] = v("disk_bytes_spilled");
  j["peakExecutionMemory"] = v("peak_execution_memory_bytes");
  j["inputBytes"] = v("input_bytes");
  j["inputRecords"] = v("input_records");
  j["outputBytes"] = v("output_bytes");
  j["outputRecords"] = v("output_records");
  j["shuffleRemoteBlocksFetched"] = v("shuffle_remote_blocks_fetched");
  j["shuffleLocalBlocksFetched"] = v("shuffle_local_blocks_fetched");
  j["shuffleFetchWaitTime"] = v("shuffle_fetch_wait_time_ms");
  j["shuffleRemoteBytesRead"] = v("shuffle_remote_bytes_read");
  j["shuffleRemoteBytesReadToDisk"] = v("shuffle_remote_bytes_read_to_disk");
  j["shuffleLocalBytesRead"] = v("shuffle_local_bytes_read");
  j["shuffleReadBytes"] = v("shuffle_remote_bytes_read") + v("shuffle_local_bytes_read");
  j["shuffleReadRecords"] = v("shuffle_records_read");
  j["shuffleCorruptMergedBlockChunks"] = v("push_corrupt_merged_block_chunks");
  j["shuffleMergedFetchFallbackCount"] = v("push_merged_fetch_fallback_count");
  j["shuffleMergedRemoteBlocksFetched"] = v("push_remote_merged_blocks_fetched");
  j["shuffleMergedLocalBlocksFetched"] = v("push_local_merged_blocks_fetched");
  j["shuffleMergedRemoteChunksFetched"] = v("push_remote_merged_chunks_fetched");
  j["shuffleMergedLocalChunksFetched"] = v("push_local_merged_chunks_fetched");
  j["shuffleMergedRemoteBytesRead"] = v("push_remote_merged_bytes_read");
  j["shuffleMergedLocalBytesRead"] = v("push_local_merged_bytes_read");
  j["shuffleRemoteReqsDuration"] = v("shuffle_remote_reqs_duration_ms");
  j["shuffleMergedRemoteReqsDuration"] = v("push_remote_merged_reqs_duration_ms");
  j["shuffleWriteBytes"] = v("shuffle_bytes_written");
  j["shuffleWriteTime"] = v("shuffle_write_time_ns");
  j["shuffleWriteRecords"] = v("shuffle_records_written");
  j["name"] = s.ColumnText(13);
  if (!s.ColumnText(14).empty()) j["description"] = s.ColumnText(14);
  j["details"] = s.ColumnText(15);
  j["schedulingPool"] = s.ColumnText(16);
  // In the log's order (StageInfo.rddInfos: the stage's RDD, then its ancestors).
  j["rddIds"] = ParseOr(s.ColumnText(17), Json::array());
  j["accumulatorUpdates"] = ParseOr(s.ColumnText(18), Json::array());
  int stage = static_cast<int>(s.ColumnInt(0)), attempt = static_cast<int>(s.ColumnInt(1));
  // One stage answers with its tasks and executor summary unless details=false; a list only
  // when details=true (as the History Server's StagesResource defaults).
  if (q.Get("details").value_or(single ? "true" : "false") == "true") {
    std::string status = Upper(q.Get("taskStatus").value_or(""));
    Json tasks = Json::object();
    auto stage_tasks = TasksOf(key, stage, attempt, status);
    if (!stage_tasks.ok()) return stage_tasks.status();
    for (Json& t : stage_tasks.value()) {
      std::string id = std::to_string(t["taskId"].get<std::int64_t>());
      tasks[id] = std::move(t);
    }
    j["tasks"] = tasks;
    j["executorSummary"] = ExecutorSummary(key, stage, attempt);
    // Only stages that ran a speculative task have one (AppStatusStore.speculationSummary).
    if (!s.ColumnIsNull(23)) j["speculationSummary"] = ParseOr(s.ColumnText(23), Json::object());
  }
  j["killedTasksSummary"] = ParseOr(s.ColumnText(19), Json::object());
  j["resourceProfileId"] = s.ColumnInt(20);
  j["peakExecutorMetrics"] = PeakMetrics(s.ColumnText(21));
  if (q.Get("withSummaries").value_or("false") == "true") {
    // Distributions of the stage attempt's successful tasks (as taskSummary) and of its
    // per-executor summaries, with the same quantiles. Omitted when there is nothing to summarize.
    // The stage endpoints' quantiles default to 0.0,0.25,0.5,0.75,1.0 (StagesResource).
    Query with_defaults = q;
    if (!q.Get("quantiles")) with_defaults.params.emplace("quantiles", "0.0,0.25,0.5,0.75,1.0");
    if (auto tasks = TaskSummary(key, stage, attempt, with_defaults); tasks.ok()) {
      j["taskMetricsDistributions"] = tasks.value();
    } else if (tasks.status().code() == StatusCode::kFailed) {  // a corrupt task row
      return tasks.status();
    }
    if (auto execs = ExecutorDistributions(key, stage, attempt, with_defaults); execs.ok()) {
      j["executorMetricsDistributions"] = execs.value();
    }
  }
  j["isShufflePushEnabled"] = s.ColumnInt(24) != 0;
  j["shuffleMergersCount"] = s.ColumnInt(25);
  return j;
}

Result<Json> Api::Stages(std::int64_t key, const Query& q, std::optional<int> stage_id,
                         std::optional<int> attempt) {
  std::set<std::string> statuses;
  for (const auto& v : q.All("status")) statuses.insert(Upper(v));
  // One stage (or one attempt) reads its own rows only, through the primary key: ?2 and ?3 are
  // in the query only when asked for (binding a parameter the query lacks does nothing).
  Json out = Json::array();
  Status failed;  // the first stage that could not be answered; the rows after it are not
  Status st = EachRow(
      store_,
      std::string("SELECT ") + kStageColumns + MetricSums() +
          " FROM spark_stages s LEFT JOIN spark_stage_summaries m ON m.attempt_key = "
          "s.attempt_key AND m.stage_id = s.stage_id AND m.stage_attempt_id = "
          "s.stage_attempt_id WHERE s.attempt_key = ?1" +
          (stage_id ? " AND s.stage_id = ?2" : "") +
          (attempt ? " AND s.stage_attempt_id = ?3" : "") +
          " ORDER BY s.stage_id DESC, s.stage_attempt_id DESC",
      [&](Statement& s) {
        if (!failed.ok() || (!statuses.empty() && !statuses.count(s.ColumnText(2)))) return;
        Result<Json> stage = StageJson(s, key, q, stage_id.has_value());
        if (!stage.ok()) {
          failed = stage.status();
          return;
        }
        out.push_back(std::move(stage).value());
      },
      key, std::optional<std::int64_t>(stage_id), std::optional<std::int64_t>(attempt));
  if (!st.ok()) return st;
  if (!failed.ok()) return failed;
  if (stage_id && out.empty()) {
    return Status::NotFound("unknown stage: " + std::to_string(*stage_id) +
                            (attempt ? ", attempt " + std::to_string(*attempt) : ""));
  }
  if (attempt) return out[0];
  if (stage_id) {
    // One stage: its attempts in increasing attempt order.
    std::reverse(out.begin(), out.end());
  }
  return out;
}

// ---- tasks ----

constexpr const char* kTaskColumns =
    "task_id, task_index, task_attempt, partition_id, launch_time_ms, finish_time_ms, "
    "getting_result_time_ms, duration_ms, executor_id, host, status, locality, speculative, "
    "error_message, accumulables_json, metrics";
constexpr int kTaskMetricColumn = 15;  // the blob (spark_task_metrics.h), NULL: no metrics

std::int64_t GettingResultTime(std::int64_t launch, std::int64_t fetch_start,
                               std::optional<std::int64_t> duration) {
  if (fetch_start <= 0) return 0;
  return duration && *duration > 0 ? launch + *duration - fetch_start : 0;
}

Result<Json> Api::TaskJson(Statement& s, int first) {
  Json t;
  t["taskId"] = s.ColumnInt(0);
  t["index"] = s.ColumnInt(1);
  t["attempt"] = s.ColumnInt(2);
  t["partitionId"] = s.ColumnInt(3);
  std::int64_t launch = s.ColumnInt(4);
  t["launchTime"] = FormatDate(launch);
  std::int64_t fetch_start = s.ColumnInt(6);
  if (fetch_start > 0) t["resultFetchStart"] = FormatDate(fetch_start);
  std::optional<std::int64_t> duration;
  if (!s.ColumnIsNull(7)) duration = s.ColumnInt(7);
  if (duration) t["duration"] = *duration;
  t["executorId"] = s.ColumnText(8);
  t["host"] = s.ColumnText(9);
  t["status"] = s.ColumnText(10);
  t["taskLocality"] = s.ColumnText(11);
  t["speculative"] = s.ColumnInt(12) != 0;
  t["accumulatorUpdates"] = ParseOr(s.ColumnText(14), Json::array());
  if (!s.ColumnIsNull(13)) t["errorMessage"] = s.ColumnText(13);
  std::int64_t getting = GettingResultTime(launch, fetch_start, duration);
  std::int64_t delay = 0;
  if (!s.ColumnIsNull(first)) {
    auto values = DecodeTaskMetrics(s.ColumnBlob(first));
    if (!values.ok()) return values.status();
    Json m = Json::object();
    for (std::size_t i = 0; i < metrics::kTaskMetrics.size(); ++i) {
      const auto& spec = metrics::kTaskMetrics[i];
      const std::int64_t v = values.value()[i];
      if (spec.api_group.empty()) {
        m[std::string(spec.api_field)] = v;
      } else if (spec.api_group == "shufflePushReadMetrics") {
        m["shuffleReadMetrics"]["shufflePushReadMetrics"][std::string(spec.api_field)] = v;
      } else {
        m[std::string(spec.api_group)][std::string(spec.api_field)] = v;
      }
    }
    t["taskMetrics"] = m;
    if (duration) {
      delay =
          std::max<std::int64_t>(0, *duration - m["executorRunTime"].get<std::int64_t>() -
                                        m["executorDeserializeTime"].get<std::int64_t>() -
                                        m["resultSerializationTime"].get<std::int64_t>() - getting);
    }
  }
  t["executorLogs"] = Json::object();
  t["schedulerDelay"] = delay;
  t["gettingResultTime"] = getting;
  return t;
}

Result<std::vector<Json>> Api::TasksOf(std::int64_t key, int stage, int attempt,
                                       const std::string& status) {
  std::vector<Json> out;
  Status error;
  // Best effort, as the executor summary: the tasks the store could read (but not a task
  // whose metrics cannot be decoded: that fails the answer).
  // Tasks show their executor's log links, as the History Server joins them.
  std::map<std::string, Json> logs;
  (void)EachRow(
      store_, "SELECT executor_id, log_urls_json FROM spark_executors WHERE attempt_key = ?1",
      [&](Statement& ex) { logs[ex.ColumnText(0)] = ParseOr(ex.ColumnText(1), Json::object()); },
      key);
  // One stage attempt's rows, in task id order: a range of the primary key (schema version 7).
  (void)EachRow(
      store_,
      std::string("SELECT ") + kTaskColumns +
          " FROM spark_tasks WHERE attempt_key = ?1 AND stage_id = ?2 AND stage_attempt_id = ?3 "
          "ORDER BY task_id",
      [&](Statement& s) {
        if (!status.empty() && s.ColumnText(10) != status) return;
        auto task = TaskJson(s, kTaskMetricColumn);
        if (!task.ok()) {
          if (error.ok()) {
            error = Status::Failed("task " + std::to_string(s.ColumnInt(0)) + " of stage " +
                                   std::to_string(stage) + "." + std::to_string(attempt) + ": " +
                                   task.status().message());
          }
          return;
        }
        out.push_back(std::move(task).value());
        if (auto it = logs.find(s.ColumnText(8)); it != logs.end()) {
          out.back()["executorLogs"] = it->second;
        }
      },
      key, std::int64_t{stage}, std::int64_t{attempt});
  if (!error.ok()) return error;
  return out;
}

std::int64_t RunTimeOf(const Json& t) {
  if (!t.contains("taskMetrics")) return -1;
  return t["taskMetrics"]["executorRunTime"].get<std::int64_t>();
}

Result<Json> Api::TaskList(std::int64_t key, int stage, int attempt, const Query& q) {
  std::string status = Upper(q.Get("status").value_or(""));
  auto listed = TasksOf(key, stage, attempt, status);
  if (!listed.ok()) return listed.status();
  std::vector<Json>& tasks = listed.value();
  std::string sort_by = q.Get("sortBy").value_or("ID");
  if (sort_by == "DECREASING_RUNTIME" || sort_by == "-runtime") {
    std::stable_sort(tasks.begin(), tasks.end(), [](const Json& a, const Json& b) {
      std::int64_t ra = RunTimeOf(a), rb = RunTimeOf(b);
      if (ra != rb) return ra > rb;
      return a["taskId"].get<std::int64_t>() > b["taskId"].get<std::int64_t>();
    });
  } else if (sort_by == "INCREASING_RUNTIME" || sort_by == "runtime") {
    std::stable_sort(tasks.begin(), tasks.end(), [](const Json& a, const Json& b) {
      std::int64_t ra = RunTimeOf(a), rb = RunTimeOf(b);
      if (ra != rb) return ra < rb;
      return a["taskId"].get<std::int64_t>() < b["taskId"].get<std::int64_t>();
    });
  } else if (sort_by != "ID") {
    return Status::InvalidArgument(
        "sortBy must be ID, runtime, -runtime, INCREASING_RUNTIME or "
        "DECREASING_RUNTIME, not " +
        sort_by);
  }
  Result<std::int64_t> offset_param = CountParam(q.Get("offset"), "offset", 0);
  if (!offset_param.ok()) return offset_param.status();
  Result<std::int64_t> length_param = CountParam(q.Get("length"), "length", 20);
  if (!length_param.ok()) return length_param.status();
  const auto offset = static_cast<std::size_t>(offset_param.value());
  const auto length = static_cast<std::size_t>(length_param.value());
  Json out = Json::array();
  for (std::size_t i = offset; i < tasks.size() && i < offset + length; ++i) {
    out.push_back(std::move(tasks[i]));
  }
  return out;
}

// The `quantiles` parameter (default 0.05,0.25,0.5,0.75,0.95), each in [0, 1].
Result<std::vector<double>> ParseQuantiles(const Query& q) {
  std::vector<double> quantiles = {0.05, 0.25, 0.5, 0.75, 0.95};
  if (auto v = q.Get("quantiles")) {
    quantiles.clear();
    std::size_t at = 0;
    while (at <= v->size()) {
      std::size_t comma = v->find(',', at);
      std::string part = v->substr(at, comma == std::string::npos ? std::string::npos : comma - at);
      char* end = nullptr;
      double d = std::strtod(part.c_str(), &end);
      if (part.empty() || *end != '\0' || d < 0 || d > 1) {
        return Status::InvalidArgument("quantiles must be numbers in [0, 1], not " + part);
      }
      quantiles.push_back(d);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
  }
  return quantiles;
}

// The History Server's quantile: the value at index min(q * n, n - 1) of the sorted values.
Json Quantiles(std::vector<double> values, const std::vector<double>& quantiles) {
  std::sort(values.begin(), values.end());
  Json out = Json::array();
  for (double qq : quantiles) {
    std::size_t i = std::min(static_cast<std::size_t>(qq * static_cast<double>(values.size())),
                             values.size() - 1);
    out.push_back(values[i]);
  }
  return out;
}

Result<Json> Api::ExecutorDistributions(std::int64_t key, int stage, int attempt, const Query& q) {
  auto quantiles = ParseQuantiles(q);
  if (!quantiles.ok()) return quantiles.status();
  Json summary = ExecutorSummary(key, stage, attempt);
  if (summary.empty()) return Status::NotFound("no executors in stage " + std::to_string(stage));
  std::vector<double> sorted = quantiles.value();
  std::sort(sorted.begin(), sorted.end());
  quantiles.value() = sorted;
  Json out;
  out["quantiles"] = quantiles.value();
  for (const char* f :
       {"taskTime", "failedTasks", "succeededTasks", "killedTasks", "inputBytes", "inputRecords",
        "outputBytes", "outputRecords", "shuffleRead", "shuffleReadRecords", "shuffleWrite",
        "shuffleWriteRecords", "memoryBytesSpilled", "diskBytesSpilled"}) {
    std::vector<double> values;
    for (auto& [id, e] : summary.items()) values.push_back(e[f].get<double>());
    out[f] = Quantiles(values, quantiles.value());
  }
  // ExecutorPeakMetricsDistributions: each metric's quantiles over the executors that have
  // peakMemoryMetrics.
  Json peaks = Json::object();
  std::size_t with_peaks = 0;
  for (auto& [id, e] : summary.items()) with_peaks += e.contains("peakMemoryMetrics");
  if (with_peaks > 0) {
    for (const char* name : kExecutorMetricNames) {
      std::vector<double> values;
      for (auto& [id, e] : summary.items()) {
        if (e.contains("peakMemoryMetrics")) {
          values.push_back(e["peakMemoryMetrics"][name].get<double>());
        }
      }
      peaks[name] = Quantiles(values, quantiles.value());
    }
  }
  out["peakMemoryMetrics"] = peaks;
  return out;
}

Result<Json> Api::TaskSummary(std::int64_t key, int stage, int attempt, const Query& q) {
  auto parsed = ParseQuantiles(q);
  if (!parsed.ok()) return parsed.status();
  const std::vector<double>& quantiles = parsed.value();
  auto succeeded = TasksOf(key, stage, attempt, "SUCCESS");
  if (!succeeded.ok()) return succeeded.status();
  const std::vector<Json>& tasks = succeeded.value();
  if (tasks.empty())
    return Status::NotFound("no successful tasks in stage " + std::to_string(stage) + ", attempt " +
                            std::to_string(attempt));
  auto dist = [&](const std::function<double(const Json&)>& f) {
    std::vector<double> values;
    for (const Json& t : tasks) values.push_back(f(t));
    return Quantiles(std::move(values), quantiles);
  };
  auto metric = [&](const char* group, const char* field) {
    return dist([group, field](const Json& t) -> double {
      if (!t.contains("taskMetrics")) return 0;
      const Json& m = t["taskMetrics"];
      const Json& g = group[0] ? m[group] : m;
      return g.contains(field) ? g[field].get<double>() : 0.0;
    });
  };
  auto push = [&](const char* field) {
    return dist([field](const Json& t) -> double {
      if (!t.contains("taskMetrics")) return 0;
      return t["taskMetrics"]["shuffleReadMetrics"]["shufflePushReadMetrics"][field].get<double>();
    });
  };
  Json j;
  j["quantiles"] = quantiles;
  j["duration"] = dist([](const Json& t) { return t.value("duration", 0.0); });
  for (const char* f : {"executorDeserializeTime", "executorDeserializeCpuTime", "executorRunTime",
                        "executorCpuTime", "resultSize", "jvmGcTime", "resultSerializationTime"}) {
    j[f] = metric("", f);
  }
  j["gettingResultTime"] = dist([](const Json& t) { return t["gettingResultTime"].get<double>(); });
  j["schedulerDelay"] = dist([](const Json& t) { return t["schedulerDelay"].get<double>(); });
  for (const char* f : {"peakExecutionMemory", "memoryBytesSpilled", "diskBytesSpilled"}) {
    j[f] = metric("", f);
  }
  j["inputMetrics"] = {{"bytesRead", metric("inputMetrics", "bytesRead")},
                       {"recordsRead", metric("inputMetrics", "recordsRead")}};
  j["outputMetrics"] = {{"bytesWritten", metric("outputMetrics", "bytesWritten")},
                        {"recordsWritten", metric("outputMetrics", "recordsWritten")}};
  auto sr = [](const Json& t, const char* f) -> double {
    if (!t.contains("taskMetrics")) return 0;
    return t["taskMetrics"]["shuffleReadMetrics"][f].get<double>();
  };
  Json read;
  read["readBytes"] =
      dist([&](const Json& t) { return sr(t, "remoteBytesRead") + sr(t, "localBytesRead"); });
  read["readRecords"] = metric("shuffleReadMetrics", "recordsRead");
  for (const char* f : {"remoteBlocksFetched", "localBlocksFetched", "fetchWaitTime",
                        "remoteBytesRead", "remoteBytesReadToDisk"}) {
    read[f] = metric("shuffleReadMetrics", f);
  }
  read["totalBlocksFetched"] = dist(
      [&](const Json& t) { return sr(t, "remoteBlocksFetched") + sr(t, "localBlocksFetched"); });
  read["remoteReqsDuration"] = metric("shuffleReadMetrics", "remoteReqsDuration");
  Json push_dist;
  for (const char* f :
       {"corruptMergedBlockChunks", "mergedFetchFallbackCount", "remoteMergedBlocksFetched",
        "localMergedBlocksFetched", "remoteMergedChunksFetched", "localMergedChunksFetched",
        "remoteMergedBytesRead", "localMergedBytesRead", "remoteMergedReqsDuration"}) {
    push_dist[f] = push(f);
  }
  read["shufflePushReadMetricsDist"] = push_dist;
  j["shuffleReadMetrics"] = read;
  j["shuffleWriteMetrics"] = {{"writeBytes", metric("shuffleWriteMetrics", "bytesWritten")},
                              {"writeRecords", metric("shuffleWriteMetrics", "recordsWritten")},
                              {"writeTime", metric("shuffleWriteMetrics", "writeTime")}};
  return j;
}

// ---- executors ----

Result<Json> Api::Executors(std::int64_t key, bool all) {
  // The driver's uptime, when the application completed (best effort: 0 otherwise).
  std::int64_t app_duration_ms = 0;
  (void)FirstRow(
      store_,
      "SELECT start_time_ms, end_time_ms, completed FROM spark_attempts WHERE attempt_key = ?1",
      [&](Statement& a) {
        if (a.ColumnInt(2) != 0) app_duration_ms = a.ColumnInt(1) - a.ColumnInt(0);
      },
      key);
  Json out = Json::array();
  Status st = EachRow(
      store_,
      "SELECT e.executor_id, e.host_port, e.total_cores, e.add_time_ms, e.remove_time_ms, "
      "e.remove_reason, e.max_memory_bytes, e.max_onheap_memory_bytes, "
      "e.max_offheap_memory_bytes, e.log_urls_json, e.attributes_json, e.resources_json, "
      "e.resource_profile_id, e.excluded, e.excluded_in_stages_json, e.peak_metrics_json, "
      "COALESCE(x.running_tasks, 0), COALESCE(x.failed_tasks, 0), "
      "COALESCE(x.succeeded_tasks, 0), COALESCE(x.tasks, 0), COALESCE(x.duration_ms_sum, 0), "
      "COALESCE(x.input_bytes, 0), COALESCE(x.shuffle_read_bytes, 0), "
      "COALESCE(x.shuffle_bytes_written, 0), COALESCE(x.jvm_gc_time_ms, 0), "
      "e.rdd_blocks, e.memory_used_bytes, e.disk_used_bytes, e.used_onheap_storage_bytes, "
      "e.used_offheap_storage_bytes "
      "FROM spark_executors e LEFT JOIN spark_executor_summaries x ON x.attempt_key = "
      "e.attempt_key AND x.executor_id = e.executor_id WHERE e.attempt_key = ?1 "
      "ORDER BY e.executor_id DESC",
      [&](Statement& s) {
        bool active = s.ColumnIsNull(4);
        if (!all && !active) return;
        Json e;
        e["id"] = s.ColumnText(0);
        e["hostPort"] = s.ColumnText(1);
        e["isActive"] = active;
        IntFields(e, s, {{"rddBlocks", 25}, {"memoryUsed", 26}, {"diskUsed", 27}});
        e["totalCores"] = s.ColumnIsNull(2) ? 0 : s.ColumnInt(2);
        e["maxTasks"] = s.ColumnIsNull(2) ? 0 : s.ColumnInt(2);
        IntFields(e, s,
                  {{"activeTasks", 16},
                   {"failedTasks", 17},
                   {"completedTasks", 18},
                   {"totalTasks", 19},
                   {"totalDuration", 20},
                   {"totalGCTime", 24}});
        if (e["id"] == "driver") {
          // The History Server reports the driver's uptime as its total duration and its own JVM's
          // GC time (the TotalGCTime executor metric), not the sums of tasks run in local mode.
          e["totalDuration"] = app_duration_ms;
          Json peaks = ParseOr(s.ColumnText(15), Json::object());
          e["totalGCTime"] = peaks.is_object() ? peaks.value("TotalGCTime", 0) : 0;
        }
        e["totalInputBytes"] = s.ColumnInt(21);
        e["totalShuffleRead"] = s.ColumnInt(22);
        e["totalShuffleWrite"] = s.ColumnInt(23);
        e["isBlacklisted"] = s.ColumnInt(13) != 0;
        e["maxMemory"] = s.ColumnIsNull(6) ? 0 : s.ColumnInt(6);
        e["addTime"] = FormatDate(s.ColumnIsNull(3) ? 0 : s.ColumnInt(3));
        if (!active) {
          e["removeTime"] = FormatDate(s.ColumnInt(4));
          e["removeReason"] = s.ColumnText(5);
        }
        e["executorLogs"] = ParseOr(s.ColumnText(9), Json::object());
        if (!s.ColumnIsNull(7)) {
          e["memoryMetrics"] = {{"usedOnHeapStorageMemory", s.ColumnInt(28)},
                                {"usedOffHeapStorageMemory", s.ColumnInt(29)},
                                {"totalOnHeapStorageMemory", s.ColumnInt(7)},
                                {"totalOffHeapStorageMemory", s.ColumnInt(8)}};
        }
        Json stages = ParseOr(s.ColumnText(14), Json::array());
        e["blacklistedInStages"] = stages;
        if (Json peaks = ParseOr(s.ColumnText(15), nullptr); peaks.is_object()) {
          e["peakMemoryMetrics"] = PeakMetrics(s.ColumnText(15));
        }
        e["attributes"] = ParseOr(s.ColumnText(10), Json::object());
        e["resources"] = ParseOr(s.ColumnText(11), Json::object());
        e["resourceProfileId"] = s.ColumnInt(12);
        e["isExcluded"] = s.ColumnInt(13) != 0;
        e["excludedInStages"] = stages;
        out.push_back(std::move(e));
      },
      key);
  if (!st.ok()) return st;
  return out;
}

// ---- storage and miscellaneous processes ----

// storage/rdd lists the RDDs with a cached partition (AppStatusStore.rddList); storage/rdd/N
// answers any RDD with a valid storage level that was not unpersisted.
Result<Json> Api::Rdds(std::int64_t key, std::optional<int> rdd_id) {
  Json out = Json::array();
  std::optional<Json> found;  // rdd_id's
  Status st = EachRow(
      store_, "SELECT rdd_id, info_json FROM spark_rdds WHERE attempt_key = ?1 ORDER BY rdd_id",
      [&](Statement& s) {
        Json info = ParseOr(s.ColumnText(1), Json::object());
        if (rdd_id) {
          if (s.ColumnInt(0) == *rdd_id) found = std::move(info);
          return !found;
        }
        if (info.value("numCachedPartitions", 0) > 0) out.push_back(std::move(info));
        return true;
      },
      key);
  if (found) return *found;
  if (!st.ok()) return st;
  if (rdd_id) return Status::NotFound("no rdd found w/ id " + std::to_string(*rdd_id));
  return out;
}

// ProcessSummary of each SparkListenerMiscellaneousProcessAdded process, by process id.
Result<Json> Api::MiscProcesses(std::int64_t key) {
  return JsonRows(
      "SELECT process_id, host_port, cores, add_time_ms, logs_json FROM spark_misc_processes "
      "WHERE attempt_key = ?1 ORDER BY process_id",
      key, [](Statement& s) {
        Json p;
        p["id"] = s.ColumnText(0);
        p["hostPort"] = s.ColumnText(1);
        p["isActive"] = true;
        p["totalCores"] = s.ColumnInt(2);
        p["addTime"] = FormatDate(s.ColumnInt(3));
        p["processLogs"] = ParseOr(s.ColumnText(4), Json::object());
        return p;
      });
}

// ---- SQL executions (SqlResource) ----

// A JAX-RS Boolean query parameter: Boolean.valueOf, so anything but "true" (any case) is false.
bool BoolParam(const Query& q, const char* name, bool fallback) {
  auto v = q.Get(name);
  return v ? Lower(*v) == "true" : fallback;
}

// sql lists the executions in id order (offset, length: the page, default 0 and 20); sql/N one
// of them. details=false leaves out nodes and edges, planDescription=false the plan text. status
// is COMPLETED when every job of the execution succeeded, FAILED when one failed, else RUNNING;
// duration runs to the completion time, or to now while the execution runs.
Result<Json> Api::Sql(std::int64_t key, const Query& q, std::optional<std::int64_t> execution_id) {
  const bool details = BoolParam(q, "details", true);
  const bool plan = BoolParam(q, "planDescription", true);
  std::int64_t offset = 0, length = 20;
  for (auto [name, out] : {std::pair{"offset", &offset}, std::pair{"length", &length}}) {
    if (auto v = q.Get(name)) {
      std::size_t used = 0;
      try {
        *out = std::stoi(*v, &used);
      } catch (...) {
        used = 0;
      }
      if (used == 0 || used != v->size()) {
        return Status::InvalidArgument(std::string(name) + " must be a whole number, not " + *v);
      }
    }
  }
  if (!execution_id && offset < 0) {
    return Status::InvalidArgument("offset must not be negative, not " + std::to_string(offset));
  }
  if (!execution_id && length <= 0) {
    return Status::InvalidArgument("length must be positive, not " + std::to_string(length));
  }
  const std::int64_t now_ms = static_cast<std::int64_t>(std::time(nullptr)) * 1000;
  Json out = Json::array();
  // One execution: at most one row (LIMIT 1 OFFSET 0).
  Status st = EachRow(
      store_,
      "SELECT execution_id, description, physical_plan, start_time_ms, end_time_ms, jobs_json, "
      "nodes_json, edges_json FROM spark_sql_executions WHERE attempt_key = ?1 AND (?2 IS NULL OR "
      "execution_id = ?2) ORDER BY execution_id LIMIT ?3 OFFSET ?4",
      [&](Statement& s) {
        Json e;
        e["id"] = s.ColumnInt(0);
        Json running = Json::array(), succeeded = Json::array(), failed = Json::array();
        const Json jobs = ParseOr(s.ColumnText(5), Json::array());
        for (const Json& j : jobs) {
          if (!j.is_array() || j.size() != 2 || !j[1].is_string()) continue;
          const std::string status = j[1].get<std::string>();
          if (status == "RUNNING") running.push_back(j[0]);
          if (status == "SUCCEEDED") succeeded.push_back(j[0]);
          if (status == "FAILED") failed.push_back(j[0]);
        }
        e["status"] = jobs.size() == succeeded.size() ? "COMPLETED"
                      : !failed.empty()               ? "FAILED"
                                                      : "RUNNING";
        // Absent (null) texts are left out, as the History Server's JSON writer leaves out nulls.
        if (!s.ColumnIsNull(1)) e["description"] = s.ColumnText(1);
        if (!plan) {
          e["planDescription"] = "";
        } else if (!s.ColumnIsNull(2)) {
          e["planDescription"] = s.ColumnText(2);
        }
        const std::int64_t submitted = s.ColumnIsNull(3) ? -1 : s.ColumnInt(3);
        e["submissionTime"] = FormatDate(submitted);
        e["duration"] = (s.ColumnIsNull(4) ? now_ms : s.ColumnInt(4)) - submitted;
        e["runningJobIds"] = running;
        e["successJobIds"] = succeeded;
        e["failedJobIds"] = failed;
        e["nodes"] = details ? ParseOr(s.ColumnText(6), Json::array()) : Json::array();
        e["edges"] = details ? ParseOr(s.ColumnText(7), Json::array()) : Json::array();
        out.push_back(std::move(e));
      },
      key, std::optional<std::int64_t>(execution_id), execution_id ? std::int64_t{1} : length,
      execution_id ? std::int64_t{0} : offset);
  if (execution_id && !out.empty()) return out[0];
  if (!st.ok()) return st;
  if (execution_id) {
    return Status::NotFound("unknown query execution id: " + std::to_string(*execution_id));
  }
  return out;
}

// ---- environment ----

Result<Json> Api::Environment(std::int64_t key) {
  Json runtime = Json::object();
  std::map<std::string, Json> pairs;
  for (const char* sec : {"spark", "hadoop", "system", "metrics", "classpath"}) {
    pairs[sec] = Json::array();
  }
  Status st = EachRow(
      store_,
      "SELECT section, name, value FROM spark_properties WHERE attempt_key = ?1 "
      "ORDER BY section, name",
      [&](Statement& s) {
        std::string section = s.ColumnText(0);
        if (section == "jvm") {
          std::string name = s.ColumnText(1);
          if (name == "Java Version") runtime["javaVersion"] = s.ColumnText(2);
          if (name == "Java Home") runtime["javaHome"] = s.ColumnText(2);
          if (name == "Scala Version") runtime["scalaVersion"] = s.ColumnText(2);
          return;
        }
        pairs[section].push_back(Json::array({s.ColumnText(1), s.ColumnText(2)}));
      },
      key);
  if (!st.ok()) return st;
  Json r;
  r["javaVersion"] = runtime.value("javaVersion", "");
  r["javaHome"] = runtime.value("javaHome", "");
  r["scalaVersion"] = runtime.value("scalaVersion", "");
  Json j;
  j["runtime"] = r;
  j["sparkProperties"] = pairs["spark"];
  j["hadoopProperties"] = pairs["hadoop"];
  j["systemProperties"] = pairs["system"];
  j["metricsProperties"] = pairs["metrics"];
  j["classpathEntries"] = pairs["classpath"];
  auto profiles = JsonRows(
      "SELECT profile_id, executor_resources_json, task_resources_json FROM "
      "spark_resource_profiles WHERE attempt_key = ?1 ORDER BY profile_id",
      key, [](Statement& rp) {
        Json p;
        p["id"] = rp.ColumnInt(0);
        Json ex = Json::object();
        const Json ex_requests = ParseOr(rp.ColumnText(1), Json::object());
        const Json task_requests = ParseOr(rp.ColumnText(2), Json::object());
        for (auto& [name, req] : ex_requests.items()) {
          ex[name] = {{"resourceName", req.value("Resource Name", name)},
                      {"amount", req.value("Amount", 0)},
                      {"discoveryScript", req.value("Discovery Script", "")},
                      {"vendor", req.value("Vendor", "")}};
        }
        Json task = Json::object();
        for (auto& [name, req] : task_requests.items()) {
          task[name] = {{"resourceName", req.value("Resource Name", name)},
                        {"amount", req.value("Amount", 0.0)}};
        }
        p["executorResources"] = ex;
        p["taskResources"] = task;
        return p;
      });
  if (!profiles.ok()) return profiles.status();
  j["resourceProfiles"] = std::move(profiles.value());
  return j;
}

}  // namespace

Result<std::string> HistoryApi(Store& store, const std::string& path) {
  std::string p = path, query;
  if (auto qm = p.find('?'); qm != std::string::npos) {
    query = p.substr(qm + 1);
    p.resize(qm);
  }
  while (!p.empty() && p.front() == '/') p.erase(0, 1);
  if (p.rfind("api/v1/", 0) == 0) p.erase(0, 7);
  std::vector<std::string> seg;
  std::size_t at = 0;
  while (at < p.size()) {
    std::size_t slash = p.find('/', at);
    std::string part = p.substr(at, slash == std::string::npos ? std::string::npos : slash - at);
    if (!part.empty()) seg.push_back(part);
    if (slash == std::string::npos) break;
    at = slash + 1;
  }
  Query q;
  at = 0;
  while (at < query.size()) {
    std::size_t amp = query.find('&', at);
    std::string kv = query.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
    std::size_t eq = kv.find('=');
    if (!kv.empty()) {
      q.params.emplace(kv.substr(0, eq), eq == std::string::npos ? "" : kv.substr(eq + 1));
    }
    if (amp == std::string::npos) break;
    at = amp + 1;
  }
  Api api(store);
  auto answer = api.Answer(seg, q);
  if (!answer.ok()) return answer.status();
  return JsonLine(answer.value());
}

}  // namespace perfplan::profiles::spark
