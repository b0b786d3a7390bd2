#include "profiles/mapreduce/mapreduce_history.h"

#include <simdjson.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <unordered_map>

#include "models/enum_names.h"
#include "models/json_text.h"
#include "profiles/spark/spark_log_reader.h"

namespace perfplan::profiles::mapreduce {
namespace {

namespace sj = simdjson::dom;
using nlohmann::json;

// The process's interned counter names. Entries are never freed (a CounterName may be read at
// exit); "" is the first, so a default CounterName needs no lookup.
struct InternTable {
  InternTable() {
    entries.emplace_back();
    index.emplace(entries.front().text, &entries.front());
  }
  std::mutex mu;
  std::deque<CounterName::Entry> entries;  // stable addresses
  std::unordered_map<std::string_view, const CounterName::Entry*> index;
};
InternTable& Interned() {
  static InternTable* table = new InternTable();  // NOLINT: deliberately never destroyed
  return *table;
}
const CounterName::Entry* Intern(std::string_view text) {
  // A per-thread cache in front of the shared table: a name seen before takes no lock.
  thread_local std::unordered_map<std::string_view, const CounterName::Entry*> cache;
  if (auto it = cache.find(text); it != cache.end()) return it->second;
  InternTable& t = Interned();
  const CounterName::Entry* e = nullptr;
  {
    std::lock_guard<std::mutex> lock(t.mu);
    auto it = t.index.find(text);
    if (it == t.index.end()) {
      CounterName::Entry& added = t.entries.emplace_back();
      added.text = std::string(text);
      added.has_escapes = text.find_first_of("\\\t\n") != std::string_view::npos;
      it = t.index.emplace(added.text, &added).first;
    }
    e = it->second;
  }
  cache.emplace(e->text, e);
  return e;
}

std::optional<std::int64_t> Time(std::int64_t ms) {
  if (ms <= 0) return std::nullopt;  // Hadoop writes -1 / 0 for "never"
  return ms;
}

// Folds events into one job, keeping tasks and attempts in first-seen order.
// Ids are looked up by view: a string is made only for an id seen the first time.
class JobBuilder {
 public:
  Job& job() { return job_; }
  Task& TaskFor(std::string_view id) { return Find(id, task_index_, job_.tasks, &Task::task_id); }
  Attempt& AttemptFor(std::string_view id) {
    return Find(id, attempt_index_, job_.attempts, &Attempt::attempt_id);
  }
  // One more event of `type` (the map's key string is made once per type, not per event).
  void Count(std::string_view type) {
    auto it = count_of_.find(type);
    if (it == count_of_.end()) {
      auto node = job_.event_counts.try_emplace(std::string(type), 0).first;
      it = count_of_.emplace(node->first, &node->second).first;
    }
    ++*it->second;
  }

 private:
  struct ViewHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using Index = std::unordered_map<std::string, std::size_t, ViewHash, std::equal_to<>>;
  template <typename T>
  static T& Find(std::string_view id, Index& index, std::vector<T>& items, std::string T::*key) {
    if (auto it = index.find(id); it != index.end()) return items[it->second];
    index.emplace(std::string(id), items.size());
    items.emplace_back().*key = std::string(id);
    return items.back();
  }
  Job job_;
  Index task_index_, attempt_index_;
  std::unordered_map<std::string_view, std::int64_t*> count_of_;  // keys: event_counts' own
};

// ---------------------------------------------------------------- .jhist (Avro-JSON) ----

// Avro-JSON writes a non-null union value as {"TYPE": value}; unwrap one level.
sj::element Unwrap(sj::element e) {
  sj::object o;
  if (e.get_object().get(o) == simdjson::SUCCESS && o.size() == 1) {
    auto kv = *o.begin();
    std::string_view k = kv.key;
    if (k == "string" || k == "int" || k == "long" || k == "boolean" || k == "double" ||
        k == "float" || k.find('.') != std::string_view::npos) {
      return kv.value;
    }
  }
  return e;
}
bool Field(sj::object o, std::string_view key, sj::element* out) {
  sj::element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS || e.is_null()) return false;
  *out = Unwrap(e);
  return !out->is_null();
}
// The string at `key`, valid while the parsed line is; "" when absent or not a string.
std::string_view StrView(sj::object o, std::string_view key) {
  sj::element e;
  std::string_view s;
  if (!Field(o, key, &e) || e.get_string().get(s) != simdjson::SUCCESS) return {};
  return s;
}
std::string Str(sj::object o, std::string_view key) { return std::string(StrView(o, key)); }
std::optional<std::int64_t> Int(sj::object o, std::string_view key) {
  sj::element e;
  if (!Field(o, key, &e)) return std::nullopt;
  std::int64_t i;
  if (e.get_int64().get(i) == simdjson::SUCCESS) return i;
  return std::nullopt;
}
std::optional<std::int64_t> TimeField(sj::object o, std::string_view key) {
  auto v = Int(o, key);
  return v ? Time(*v) : std::nullopt;
}

// The counter names met at each position of `group` by this thread (at most 64 groups kept).
std::vector<CounterName>& NamesSeenIn(const CounterName& group) {
  thread_local std::vector<std::pair<CounterName, std::vector<CounterName>>> by_group;
  for (auto& [g, names] : by_group) {
    if (g == group) return names;
  }
  if (by_group.size() >= 64) by_group.erase(by_group.begin());
  return by_group.emplace_back(group, std::vector<CounterName>()).second;
}

std::vector<Counter> JhCounters(sj::object o, std::string_view key) {
  std::vector<Counter> out;
  sj::element e;
  sj::object c;
  sj::array groups;
  if (!Field(o, key, &e) || e.get_object().get(c) != simdjson::SUCCESS ||
      c["groups"].get_array().get(groups) != simdjson::SUCCESS) {
    return out;
  }
  for (sj::element g : groups) {
    sj::object go;
    sj::array counts;
    if (g.get_object().get(go) != simdjson::SUCCESS ||
        go["counts"].get_array().get(counts) != simdjson::SUCCESS) {
      continue;
    }
    const CounterName group(StrView(go, "name"));
    if (out.capacity() < out.size() + counts.size()) {
      out.reserve(std::max(2 * out.capacity(), out.size() + counts.size()));
    }
    // Hadoop writes a group's counters in the same order for every task: the name at each
    // position is checked against the one seen there last (a compare instead of a hash lookup).
    std::vector<CounterName>& seen = NamesSeenIn(group);
    std::size_t position = 0;
    for (sj::element k : counts) {
      sj::object ko;
      if (k.get_object().get(ko) != simdjson::SUCCESS) continue;
      // One pass over {"name","displayName","value"} instead of a key search per field (a
      // Hadoop 2.x attempt has ~50 counters; this loop was a tenth of the ingest).
      std::string_view name;
      std::int64_t value = 0;
      for (auto field : ko) {
        sj::element v = Unwrap(field.value);
        if (field.key == "name") {
          if (v.get_string().get(name) != simdjson::SUCCESS) name = {};
        } else if (field.key == "value") {
          if (v.get_int64().get(value) != simdjson::SUCCESS) value = 0;
        }
      }
      if (position == seen.size()) seen.emplace_back(name);
      if (seen[position] != name) seen[position] = CounterName(name);
      out.push_back({group, seen[position++], value});
    }
  }
  return out;
}

// "/rack/host" (1.x HOSTNAME, Rumen hostName, SLS container.host) → rack "/rack", host "host";
// a name without a slash is the host alone.
void SetRackAndHost(const std::string& where, Attempt& a) {
  const std::size_t slash = where.rfind('/');
  if (slash == std::string::npos) {
    a.host = where;
    return;
  }
  if (slash > 0) a.rack = where.substr(0, slash);
  a.host = where.substr(slash + 1);
}

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The fields JobFinished and JobUnsuccessfulCompletion share (killed* since Hadoop 2.8/3.x).
void ReadJobEnd(sj::object b, Job& job) {
    job.finish_ms = TimeField(b, "finishTime");
    job.finished_maps = Int(b, "finishedMaps");
    job.finished_reduces = Int(b, "finishedReduces");
    job.failed_maps = Int(b, "failedMaps");
    job.failed_reduces = Int(b, "failedReduces");
    job.killed_maps = Int(b, "killedMaps");
    job.killed_reduces = Int(b, "killedReduces");
}

// Folds one event of `type` with body `b` into the job. Returns "" or a problem message.
std::string ApplyJhistEvent(JobBuilder& jb, std::string_view type, sj::object b) {
  Job& job = jb.job();
  auto job_id = [&]() -> std::string {
    std::string id = Str(b, "jobid");
    if (!id.empty() && job.job_id.empty()) job.job_id = id;
    return id;
  };
  if (type == "JOB_SUBMITTED") {
    job_id();
    job.name = Str(b, "jobName");
    job.user = Str(b, "userName");
    job.queue = Str(b, "jobQueueName");
    job.submit_ms = TimeField(b, "submitTime");
    if (job.status.empty()) job.status = "SUBMITTED";
  } else if (type == "JOB_INITED") {
    job_id();
    job.launch_ms = TimeField(b, "launchTime");
    job.total_maps = Int(b, "totalMaps");
    job.total_reduces = Int(b, "totalReduces");
    if (std::string s = Str(b, "jobStatus"); !s.empty()) job.status = s;
  } else if (type == "JOB_INFO_CHANGED") {
    job_id();
    if (auto t = TimeField(b, "submitTime")) job.submit_ms = t;
    if (auto t = TimeField(b, "launchTime")) job.launch_ms = t;
  } else if (type == "JOB_QUEUE_CHANGED") {
    job_id();
    if (std::string q = Str(b, "jobQueueName"); !q.empty()) job.queue = q;
  } else if (type == "JOB_STATUS_CHANGED") {
    job_id();
    if (std::string s = Str(b, "jobStatus"); !s.empty()) job.status = s;
  } else if (type == "JOB_FINISHED") {
    job_id();
    job.status = "SUCCEEDED";
    ReadJobEnd(b, job);
    job.counters["total"] = JhCounters(b, "totalCounters");
    job.counters["map"] = JhCounters(b, "mapCounters");
    job.counters["reduce"] = JhCounters(b, "reduceCounters");
  } else if (type == "JOB_FAILED" || type == "JOB_KILLED" || type == "JOB_ERROR") {
    job_id();
    job.status = Str(b, "jobStatus");
    if (job.status.empty()) job.status = std::string(type.substr(4));
    ReadJobEnd(b, job);
    job.diagnostics = Str(b, "diagnostics");
    auto total = JhCounters(b, "totalCounters");
    if (!total.empty()) job.counters["total"] = std::move(total);
  } else if (StartsWith(type, "TASK_")) {
    const std::string_view id = StrView(b, "taskid");
    if (id.empty()) return "taskid: missing";
    Task& t = jb.TaskFor(id);
    if (std::string tt = Str(b, "taskType"); !tt.empty()) t.task_type = tt;
    if (type == "TASK_STARTED") {
      t.start_ms = TimeField(b, "startTime");
      t.splits = Str(b, "splitLocations");
    } else if (type == "TASK_FINISHED" || type == "TASK_FAILED") {
      const bool finished = type == "TASK_FINISHED";
      t.finish_ms = TimeField(b, "finishTime");
      t.status = Str(b, "status");
      if (t.status.empty()) t.status = finished ? "SUCCEEDED" : "FAILED";
      if (finished) {
        t.successful_attempt = Str(b, "successfulAttemptId");
      } else {
        t.error = Str(b, "error");
      }
      t.counters = JhCounters(b, "counters");
    } else if (type == "TASK_UPDATED") {
      if (auto f = TimeField(b, "finishTime")) t.finish_ms = f;
    }
  } else if (type.find("_ATTEMPT_") != std::string_view::npos) {
    const std::string_view id = StrView(b, "attemptId");
    if (id.empty()) return "attemptId: missing";
    Attempt& a = jb.AttemptFor(id);
    a.task_id.assign(StrView(b, "taskid"));
    if (std::string tt = Str(b, "taskType"); !tt.empty()) a.task_type = tt;
    if (a.task_type.empty()) a.task_type = std::string(type.substr(0, type.find('_')));
    if (!a.task_id.empty()) {
      Task& t = jb.TaskFor(a.task_id);
      if (t.task_type.empty()) t.task_type = a.task_type;
    }
    if (EndsWith(type, "_STARTED")) {
      a.start_ms = TimeField(b, "startTime");
      if (a.host.empty()) a.host.assign(StrView(b, "trackerName"));
    } else {
      a.finish_ms = TimeField(b, "finishTime");
      if (std::string_view h = StrView(b, "hostname"); !h.empty()) a.host.assign(h);
      a.rack.assign(StrView(b, "rackname"));
      a.counters = JhCounters(b, "counters");
      if (EndsWith(type, "_FINISHED")) {
        a.status = Str(b, "taskStatus");
        if (a.status.empty()) a.status = "SUCCEEDED";
        a.map_finish_ms = TimeField(b, "mapFinishTime");
        a.shuffle_finish_ms = TimeField(b, "shuffleFinishTime");
        a.sort_finish_ms = TimeField(b, "sortFinishTime");
      } else {  // _FAILED / _KILLED: TaskAttemptUnsuccessfulCompletion
        a.status = Str(b, "status");
        if (a.status.empty()) a.status = EndsWith(type, "_KILLED") ? "KILLED" : "FAILED";
        a.error = Str(b, "error");
      }
    }
  }
  // AM_STARTED, NORMALIZED_RESOURCE, JOB_PRIORITY_CHANGED and unknown types: counted only.
  return "";
}

void ReadJhist(spark::EventLineReader& reader, HistoryFile& out) {
  JobBuilder jb;
  // One parser per thread for every file: its buffers grow to the longest line once, instead of
  // being allocated again for each of a folder's histories.
  thread_local sj::parser parser;
  std::string_view line;
  int header_lines = 1;  // "Avro-Json" already consumed; the schema line comes next
  while (reader.Next(&line)) {
    ++out.lines;
    const std::int64_t n = reader.current_line();
    auto first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos) continue;
    line.remove_prefix(first);
    // The Avro schema line as Hadoop writes it (Schema.toString(): no spaces) is skipped without
    // being parsed: ~5 KB of every history, most of a small job's bytes. Any other first line is
    // parsed and recognised below.
    if (header_lines == 1 && StartsWith(line, "{\"type\":\"record\",") && line.back() == '}') {
      header_lines = 0;
      continue;
    }
    sj::element doc;
    if (auto err = parser.parse(line.data(), line.size()).get(doc); err) {
      out.problems.push_back({out.path, static_cast<int>(n), "",
                              std::string("invalid JSON: ") + simdjson::error_message(err)});
      continue;
    }
    sj::object o;
    std::string_view type;
    if (doc.get_object().get(o) != simdjson::SUCCESS ||
        o["type"].get_string().get(type) != simdjson::SUCCESS) {
      out.problems.push_back({out.path, static_cast<int>(n), "type",
                              "not a job-history event (expected {\"type\":…,\"event\":…})"});
      continue;
    }
    sj::object body;
    if (header_lines == 1 && type == "record") {  // the Avro schema
      header_lines = 0;
      continue;
    }
    header_lines = 0;
    sj::object ev;
    if (o["event"].get_object().get(ev) != simdjson::SUCCESS || ev.size() != 1 ||
        (*ev.begin()).value.get_object().get(body) != simdjson::SUCCESS) {
      out.problems.push_back({out.path, static_cast<int>(n), "event",
                              "missing the event record {\"CLASS\":{…}} of " + std::string(type)});
      continue;
    }
    ++out.events;
    jb.Count(type);
    if (std::string m = ApplyJhistEvent(jb, type, body); !m.empty()) {
      out.problems.push_back({out.path, static_cast<int>(n), m.substr(0, m.find(':')),
                              m.substr(m.find(':') + 2) + " in " + std::string(type)});
    }
  }
  if (!jb.job().job_id.empty()) out.jobs.push_back(std::move(jb.job()));
}

// ---------------------------------------------------------------- 0.20 / 1.x lines ----

// Splits `Type KEY="VALUE" … .` into its record type and unescaped key/values. False when the
// record is malformed (message in *error).
bool ParseRecord(std::string_view rec, std::string* type,
                 std::vector<std::pair<std::string, std::string>>* kv, std::string* error) {
  std::size_t i = rec.find(' ');
  if (i == std::string_view::npos) {
    *error = "expected `TYPE KEY=\"VALUE\" … .`";
    return false;
  }
  *type = std::string(rec.substr(0, i));
  kv->clear();
  while (true) {
    while (i < rec.size() && (rec[i] == ' ' || rec[i] == '\n' || rec[i] == '\r')) ++i;
    if (i >= rec.size()) {
      *error = "record does not end with \" .\"";
      return false;
    }
    if (rec[i] == '.' && i + 1 == rec.size()) return true;
    const std::size_t eq = rec.find("=\"", i);
    if (eq == std::string_view::npos) {
      *error = "expected KEY=\"VALUE\" at column " + std::to_string(i + 1);
      return false;
    }
    std::string key(rec.substr(i, eq - i));
    std::string value;
    std::size_t j = eq + 2;
    bool closed = false;
    for (; j < rec.size(); ++j) {
      const char c = rec[j];
      if (c == '\\' && j + 1 < rec.size()) {
        value += rec[++j];
      } else if (c == '"') {
        closed = true;
        break;
      } else {
        value += c;
      }
    }
    if (!closed) {
      *error = key + ": unterminated value";
      return false;
    }
    kv->emplace_back(std::move(key), std::move(value));
    i = j + 1;
  }
}

// `{(group)(display)[(name)(display)(value)]…}…` with `\` escapes; values already unescaped
// once by ParseRecord only for the record's own escapes, so counters are parsed on the raw
// string (escaped) form.
bool ParseCounters1(std::string_view s, std::vector<Counter>* out) {
  std::size_t i = 0;
  auto token = [&](char open, char close, std::string* v) -> bool {
    if (i >= s.size() || s[i] != open) return false;
    ++i;
    v->clear();
    for (; i < s.size(); ++i) {
      if (s[i] == '\\' && i + 1 < s.size()) {
        *v += s[++i];
      } else if (s[i] == close) {
        ++i;
        return true;
      } else {
        *v += s[i];
      }
    }
    return false;
  };
  while (i < s.size()) {
    if (s[i] != '{') return false;
    ++i;
    std::string group, display;
    if (!token('(', ')', &group) || !token('(', ')', &display)) return false;
    while (i < s.size() && s[i] == '[') {
      ++i;
      std::string name, disp, value;
      if (!token('(', ')', &name) || !token('(', ')', &disp) || !token('(', ')', &value)) {
        return false;
      }
      if (i >= s.size() || s[i] != ']') return false;
      ++i;
      char* end = nullptr;
      const long long v = std::strtoll(value.c_str(), &end, 10);
      if (value.empty() || *end != '\0') return false;
      out->push_back({group, name, v});
    }
    if (i >= s.size() || s[i] != '}') return false;
    ++i;
  }
  return true;
}

// The raw (still escaped) text of KEY="…" in a record, for counters whose own syntax uses `\`.
std::string RawValue(std::string_view rec, std::string_view key) {
  std::string needle = " " + std::string(key) + "=\"";
  std::size_t p = rec.find(needle);
  if (p == std::string_view::npos) return "";
  p += needle.size();
  std::string raw;
  for (std::size_t j = p; j < rec.size(); ++j) {
    if (rec[j] == '\\' && j + 1 < rec.size()) {
      // Keep escapes of the counter syntax; drop those of the record syntax.
      const char c = rec[j + 1];
      if (c == '.' || c == '"' || c == '=') {
        raw += c;
      } else {
        raw += rec[j];
        raw += c;
      }
      ++j;
    } else if (rec[j] == '"') {
      break;
    } else {
      raw += rec[j];
    }
  }
  return raw;
}

std::optional<std::int64_t> ParseInt(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0') return std::nullopt;
  return v;
}

std::string ApplyRecord1(JobBuilder& jb, const std::string& type,
                         const std::vector<std::pair<std::string, std::string>>& kv,
                         std::string_view raw) {
  auto get = [&](std::string_view key) -> const std::string* {
    for (const auto& [k, v] : kv) {
      if (k == key) return &v;
    }
    return nullptr;
  };
  auto str = [&](std::string_view key) {
    const std::string* v = get(key);
    return v ? *v : std::string();
  };
  std::string bad;
  auto num = [&](std::string_view key) -> std::optional<std::int64_t> {
    const std::string* v = get(key);
    if (!v || v->empty()) return std::nullopt;
    auto i = ParseInt(*v);
    if (!i && bad.empty()) bad = std::string(key) + ": not an integer: \"" + *v + "\"";
    return i;
  };
  auto time = [&](std::string_view key) -> std::optional<std::int64_t> {
    auto v = num(key);
    return v ? Time(*v) : std::nullopt;
  };
  auto counters = [&](std::vector<Counter>* out) {
    const std::string c = RawValue(raw, "COUNTERS");
    if (c.empty()) return;
    std::vector<Counter> parsed;
    if (!ParseCounters1(c, &parsed)) {
      if (bad.empty()) bad = "COUNTERS: not {(group)(name)[(counter)(name)(value)]…}";
      return;
    }
    *out = std::move(parsed);
  };
  Job& job = jb.job();
  if (type == "Meta" || type == "Jobtracker") return "";
  if (type == "Job") {
    if (job.job_id.empty()) job.job_id = str("JOBID");
    if (get("JOBNAME")) job.name = str("JOBNAME");
    if (get("USER")) job.user = str("USER");
    if (get("JOB_QUEUE")) job.queue = str("JOB_QUEUE");
    if (auto t = time("SUBMIT_TIME")) job.submit_ms = t;
    if (auto t = time("LAUNCH_TIME")) job.launch_ms = t;
    if (auto v = num("TOTAL_MAPS")) job.total_maps = v;
    if (auto v = num("TOTAL_REDUCES")) job.total_reduces = v;
    if (get("JOB_STATUS")) job.status = str("JOB_STATUS");
    if (auto t = time("FINISH_TIME")) job.finish_ms = t;
    if (auto v = num("FINISHED_MAPS")) job.finished_maps = v;
    if (auto v = num("FINISHED_REDUCES")) job.finished_reduces = v;
    if (auto v = num("FAILED_MAPS")) job.failed_maps = v;
    if (auto v = num("FAILED_REDUCES")) job.failed_reduces = v;
    if (get("FAIL_REASON")) job.diagnostics = str("FAIL_REASON");
    if (get("COUNTERS")) counters(&job.counters["total"]);
    if (get("MAP_COUNTERS")) {
      std::vector<Counter> m;
      if (ParseCounters1(RawValue(raw, "MAP_COUNTERS"), &m)) job.counters["map"] = m;
    }
    if (get("REDUCE_COUNTERS")) {
      std::vector<Counter> r;
      if (ParseCounters1(RawValue(raw, "REDUCE_COUNTERS"), &r)) job.counters["reduce"] = r;
    }
  } else if (type == "Task") {
    const std::string id = str("TASKID");
    if (id.empty()) return "TASKID: missing";
    Task& t = jb.TaskFor(id);
    if (get("TASK_TYPE")) t.task_type = str("TASK_TYPE");
    if (auto v = time("START_TIME")) t.start_ms = v;
    if (get("SPLITS")) t.splits = str("SPLITS");
    if (auto v = time("FINISH_TIME")) t.finish_ms = v;
    if (get("TASK_STATUS")) t.status = str("TASK_STATUS");
    if (get("ERROR")) t.error = str("ERROR");
    // A failed Task record's TASK_ATTEMPT_ID is the attempt it failed by (1.x JobHistory
    // Task.logFailed's failedDueToAttempt), not its successful attempt.
    if (get("TASK_ATTEMPT_ID") && t.status != "FAILED" && t.status != "KILLED") {
      t.successful_attempt = str("TASK_ATTEMPT_ID");
    }
    if (get("COUNTERS")) counters(&t.counters);
  } else if (type == "MapAttempt" || type == "ReduceAttempt") {
    const std::string id = str("TASK_ATTEMPT_ID");
    if (id.empty()) return "TASK_ATTEMPT_ID: missing";
    Attempt& a = jb.AttemptFor(id);
    if (get("TASKID")) a.task_id = str("TASKID");
    if (get("TASK_TYPE")) a.task_type = str("TASK_TYPE");
    if (a.task_type.empty()) a.task_type = type == "MapAttempt" ? "MAP" : "REDUCE";
    if (!a.task_id.empty()) jb.TaskFor(a.task_id);
    if (auto v = time("START_TIME")) a.start_ms = v;
    if (get("TRACKER_NAME") && a.host.empty()) a.host = str("TRACKER_NAME");
    if (auto v = time("FINISH_TIME")) a.finish_ms = v;
    if (get("HOSTNAME")) SetRackAndHost(str("HOSTNAME"), a);  // 1.x writes "/rack/host"
    if (get("TASK_STATUS")) a.status = str("TASK_STATUS");
    if (get("ERROR")) a.error = str("ERROR");
    if (auto v = time("SHUFFLE_FINISHED")) a.shuffle_finish_ms = v;
    if (auto v = time("SORT_FINISHED")) a.sort_finish_ms = v;
    if (auto v = time("MAP_FINISHED")) a.map_finish_ms = v;
    if (get("COUNTERS")) counters(&a.counters);
  } else {
    return "record: unknown record type \"" + type +
           "\" (expected Meta, Job, Task, MapAttempt or ReduceAttempt)";
  }
  return bad;
}

// Passes the file's first line (already read, at `first_line`) and then every other line to
// `feed(line, line_number)`, counting each in out.lines.
template <typename Feed>
void FeedLines(spark::EventLineReader& reader, std::string_view first, std::int64_t first_line,
               HistoryFile& out, const Feed& feed) {
  ++out.lines;
  feed(first, first_line);
  std::string_view line;
  while (reader.Next(&line)) {
    ++out.lines;
    feed(line, reader.current_line());
  }
}

void ReadHistory1(spark::EventLineReader& reader, std::string first, std::int64_t first_line,
                  HistoryFile& out) {
  JobBuilder jb;
  std::string rec;
  std::int64_t rec_line = 0;
  std::string type, error;
  std::vector<std::pair<std::string, std::string>> kv;
  auto flush = [&] {
    ++out.events;
    if (!ParseRecord(rec, &type, &kv, &error)) {
      out.problems.push_back({out.path, static_cast<int>(rec_line), "", error});
    } else {
      ++jb.job().event_counts[type];
      if (std::string m = ApplyRecord1(jb, type, kv, rec); !m.empty()) {
        const std::size_t colon = m.find(": ");
        out.problems.push_back({out.path, static_cast<int>(rec_line), m.substr(0, colon),
                                m.substr(colon + 2)});
      }
    }
    rec.clear();
  };
  auto feed = [&](std::string_view line, std::int64_t n) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    if (rec.empty()) {
      if (line.empty()) return;
      rec_line = n;
    } else {
      rec += '\n';
    }
    rec += line;
    // A record ends with an unescaped " ." (or a lone ".").
    if (line.size() >= 2 && line.substr(line.size() - 2) == " .") flush();
  };
  FeedLines(reader, first, first_line, out, feed);
  if (!rec.empty()) {
    out.problems.push_back(
        {out.path, static_cast<int>(rec_line), "", "record does not end with \" .\" (truncated)"});
    ++out.events;
  }
  if (!jb.job().job_id.empty()) out.jobs.push_back(std::move(jb.job()));
}

// ---------------------------------------------------------------- Rumen / SLS JSON ----

std::int64_t JInt(const json& j, const char* key, std::int64_t fallback = -1) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return fallback;
  return it->get<std::int64_t>();
}
std::string JStr(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return "";
  return it->get<std::string>();
}

// Rumen LoggedTaskAttempt counter fields (−1 = not recorded) as TaskCounter/FileSystemCounter.
constexpr std::pair<const char*, const char*> kRumenCounters[] = {
    {"hdfsBytesRead", "HDFS_BYTES_READ"},
    {"hdfsBytesWritten", "HDFS_BYTES_WRITTEN"},
    {"fileBytesRead", "FILE_BYTES_READ"},
    {"fileBytesWritten", "FILE_BYTES_WRITTEN"},
    {"mapInputRecords", "MAP_INPUT_RECORDS"},
    {"mapInputBytes", "MAP_INPUT_BYTES"},
    {"mapOutputBytes", "MAP_OUTPUT_BYTES"},
    {"mapOutputRecords", "MAP_OUTPUT_RECORDS"},
    {"combineInputRecords", "COMBINE_INPUT_RECORDS"},
    {"reduceInputGroups", "REDUCE_INPUT_GROUPS"},
    {"reduceInputRecords", "REDUCE_INPUT_RECORDS"},
    {"reduceShuffleBytes", "REDUCE_SHUFFLE_BYTES"},
    {"reduceOutputRecords", "REDUCE_OUTPUT_RECORDS"},
    {"spilledRecords", "SPILLED_RECORDS"},
};

std::string RumenTaskType(const std::string& list, const json& task) {
  std::string t = JStr(task, "taskType");
  if (!t.empty()) return t;
  return list == "mapTasks" ? "MAP" : list == "reduceTasks" ? "REDUCE" : "";
}

void AddRumenJob(const json& j, HistoryFile& out, std::int64_t line) {
  JobBuilder jb;
  Job& job = jb.job();
  job.job_id = JStr(j, "jobID");
  job.name = JStr(j, "jobName");
  job.user = JStr(j, "user");
  job.queue = JStr(j, "queue");
  job.status = JStr(j, "outcome");
  job.submit_ms = Time(JInt(j, "submitTime"));
  job.launch_ms = Time(JInt(j, "launchTime"));
  job.finish_ms = Time(JInt(j, "finishTime"));
  if (auto v = JInt(j, "totalMaps"); v >= 0) job.total_maps = v;
  if (auto v = JInt(j, "totalReduces"); v >= 0) job.total_reduces = v;
  if (auto it = j.find("jobProperties"); it != j.end() && it->is_object()) {
    for (const auto& [k, v] : it->items()) {
      job.conf.emplace_back(k, v.is_string() ? v.get<std::string>() : JsonText(v));
    }
  }
  for (const char* list : {"mapTasks", "reduceTasks", "otherTasks"}) {
    auto tasks = j.find(list);
    if (tasks == j.end() || !tasks->is_array()) continue;
    for (const json& tj : *tasks) {
      const std::string tid = JStr(tj, "taskID");
      if (tid.empty()) {
        out.problems.push_back({out.path, static_cast<int>(line),
                                std::string(list) + "[].taskID", "missing in job " + job.job_id});
        continue;
      }
      ++job.event_counts["task"];
      Task& t = jb.TaskFor(tid);
      t.task_type = RumenTaskType(list, tj);
      t.status = JStr(tj, "taskStatus");
      t.start_ms = Time(JInt(tj, "startTime"));
      t.finish_ms = Time(JInt(tj, "finishTime"));
      auto attempts = tj.find("attempts");
      if (attempts == tj.end() || !attempts->is_array()) continue;
      for (const json& aj : *attempts) {
        const std::string aid = JStr(aj, "attemptID");
        if (aid.empty()) {
          out.problems.push_back({out.path, static_cast<int>(line), "attempts[].attemptID",
                                  "missing in task " + tid});
          continue;
        }
        ++job.event_counts["attempt"];
        Attempt& a = jb.AttemptFor(aid);
        a.task_id = tid;
        a.task_type = t.task_type;
        a.status = JStr(aj, "result");
        if ((a.status == "SUCCESS" || a.status == "SUCCEEDED") && t.successful_attempt.empty()) {
          t.successful_attempt = aid;
        }
        a.start_ms = Time(JInt(aj, "startTime"));
        a.finish_ms = Time(JInt(aj, "finishTime"));
        a.shuffle_finish_ms = Time(JInt(aj, "shuffleFinished"));
        a.sort_finish_ms = Time(JInt(aj, "sortFinished"));
        SetRackAndHost(JStr(aj, "hostName"), a);
        for (const auto& [field, name] : kRumenCounters) {
          const std::int64_t v = JInt(aj, field);
          if (v >= 0) {
            a.counters.push_back({std::string(field).rfind("hdfs", 0) == 0 ||
                                          std::string(field).rfind("file", 0) == 0
                                      ? "FileSystemCounters"
                                      : "TaskCounter",
                                  name, v});
          }
        }
        if (auto r = aj.find("resourceUsageMetrics"); r != aj.end() && r->is_object()) {
          if (auto v = JInt(*r, "cumulativeCpuUsage"); v >= 0) {
            a.counters.push_back({"TaskCounter", "CPU_MILLISECONDS", v});
          }
          if (auto v = JInt(*r, "physicalMemoryUsage"); v >= 0) {
            a.counters.push_back({"TaskCounter", "PHYSICAL_MEMORY_BYTES", v});
          }
        }
      }
    }
  }
  out.jobs.push_back(std::move(job));
}

void AddSlsJob(const json& j, HistoryFile& out, std::int64_t line) {
  JobBuilder jb;
  Job& job = jb.job();
  job.job_id = JStr(j, "job.id");
  if (job.job_id.empty()) {
    out.problems.push_back({out.path, static_cast<int>(line), "job.id", "missing"});
    return;
  }
  job.user = JStr(j, "job.user");
  job.queue = JStr(j, "job.queue.name");
  job.name = JStr(j, "am.type");
  job.status = "SUCCEEDED";  // SLS traces replay completed jobs
  job.submit_ms = JInt(j, "job.start.ms", 0);
  job.launch_ms = job.submit_ms;
  job.finish_ms = JInt(j, "job.end.ms", 0);
  auto tasks = j.find("job.tasks");
  std::int64_t maps = 0, reduces = 0;
  if (tasks != j.end() && tasks->is_array()) {
    std::int64_t index = 0;
    for (const json& tj : *tasks) {
      ++job.event_counts["container"];
      std::string type = JStr(tj, "container.type");
      std::transform(type.begin(), type.end(), type.begin(), ::toupper);
      if (type.empty()) type = JInt(tj, "container.priority") == 10 ? "REDUCE" : "MAP";
      const std::int64_t k = type == "REDUCE" ? reduces++ : maps++;
      const std::string tid =
          job.job_id + (type == "REDUCE" ? "_r_" : "_m_") + std::to_string(k);
      Task& t = jb.TaskFor(tid);
      t.task_type = type;
      t.status = "SUCCEEDED";
      t.start_ms = JInt(tj, "container.start.ms", 0);
      t.finish_ms = JInt(tj, "container.end.ms", 0);
      Attempt& a = jb.AttemptFor(tid + "_0");
      a.task_id = tid;
      a.task_type = type;
      a.status = "SUCCEEDED";
      a.start_ms = t.start_ms;
      a.finish_ms = t.finish_ms;
      t.successful_attempt = a.attempt_id;
      SetRackAndHost(JStr(tj, "container.host"), a);
      ++index;
    }
  }
  job.total_maps = maps;
  job.total_reduces = reduces;
  out.jobs.push_back(std::move(job));
}

// Reads concatenated (pretty-printed) JSON values, or one array of them, calling `each` with the
// value and the line it starts on.
void ReadJsonStream(spark::EventLineReader& reader, std::string first, std::int64_t first_line,
                    HistoryFile& out) {
  std::string buf;
  int depth = 0;
  bool in_string = false, escape = false;
  std::int64_t start_line = first_line;
  bool top_array = false, decided = false;
  auto handle = [&](const json& j, std::int64_t line) {
    ++out.events;
    if (j.contains("jobID")) {
      out.format = Format::kRumen;
      AddRumenJob(j, out, line);
    } else if (j.contains("job.tasks") || j.contains("am.type")) {
      out.format = Format::kSls;
      AddSlsJob(j, out, line);
    } else if (j.contains("nodes") && j.contains("rack")) {
      if (out.jobs.empty()) out.format = Format::kSlsTopology;
    } else {
      out.problems.push_back({out.path, static_cast<int>(line), "",
                              "neither a Rumen job (no \"jobID\") nor an SLS job (no "
                              "\"job.tasks\")"});
    }
  };
  auto feed = [&](std::string_view line, std::int64_t n) {
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (!decided && depth == 0 && buf.empty()) {
        if (c == ' ' || c == '\t' || c == '\r') continue;
        if (c == '[' && !top_array) {
          top_array = true;
          decided = true;
          continue;
        }
        decided = true;
      }
      if (top_array && depth == 0 && buf.empty() && (c == ',' || c == ' ' || c == ']' ||
                                                     c == '\t' || c == '\r')) {
        continue;
      }
      if (depth == 0 && buf.empty()) {
        if (c == ' ' || c == '\t' || c == '\r') continue;
        start_line = n;
      }
      buf += c;
      if (in_string) {
        if (escape) {
          escape = false;
        } else if (c == '\\') {
          escape = true;
        } else if (c == '"') {
          in_string = false;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth <= 0) {
          json j = json::parse(buf, nullptr, false);
          if (j.is_discarded() || !j.is_object()) {
            out.problems.push_back(
                {out.path, static_cast<int>(start_line), "", "invalid JSON object"});
          } else {
            handle(j, start_line);
          }
          buf.clear();
          depth = 0;
        }
      }
    }
    if (!buf.empty()) buf += '\n';
  };
  FeedLines(reader, first, first_line, out, feed);
  const auto rest = buf.find_first_not_of(" \t\r\n");
  if (rest != std::string::npos) {
    out.problems.push_back({out.path, static_cast<int>(start_line), "",
                            "truncated JSON value (the file ends inside it)"});
  }
}

// ---------------------------------------------------------------- conf.xml ----

void ReadConfXml(spark::EventLineReader& reader, std::string first, HistoryFile& out) {
  std::string text = std::move(first);
  ++out.lines;
  std::string_view line;
  while (reader.Next(&line)) {
    ++out.lines;
    text += '\n';
    text += line;
  }
  pugi::xml_document doc;
  pugi::xml_parse_result r = doc.load_buffer(text.data(), text.size());
  if (!r) {
    // Line of the offset.
    const auto upto = text.substr(0, static_cast<std::size_t>(r.offset));
    const int ln = 1 + static_cast<int>(std::count(upto.begin(), upto.end(), '\n'));
    out.problems.push_back({out.path, ln, "", std::string("invalid XML: ") + r.description()});
    return;
  }
  pugi::xml_node conf = doc.child("configuration");
  if (!conf) {
    out.problems.push_back({out.path, 1, "configuration", "missing the <configuration> element"});
    return;
  }
  for (pugi::xml_node p : conf.children("property")) {
    ++out.events;
    const std::string name = p.child_value("name");
    if (name.empty()) {
      const auto upto = text.substr(0, static_cast<std::size_t>(p.offset_debug()));
      const int ln = 1 + static_cast<int>(std::count(upto.begin(), upto.end(), '\n'));
      out.problems.push_back({out.path, ln, "property.name", "missing"});
      continue;
    }
    out.conf.emplace_back(name, p.child_value("value"));
  }
}

constexpr models::EnumName<Format> kFormatNames[] = {
    {Format::kJhist, "jhist"},      {Format::kHistory1, "history1"},
    {Format::kRumen, "rumen"},      {Format::kSls, "sls"},
    {Format::kConfXml, "conf-xml"}, {Format::kSlsTopology, "sls-topology"}};

}  // namespace

CounterName::CounterName() : entry_(&Interned().entries.front()) {}
CounterName::CounterName(std::string_view text) : entry_(Intern(text)) {}

std::string_view ToString(Format format) { return models::NameOf(kFormatNames, format); }

std::string JobIdFromConfName(std::string_view file_name) {
  const std::size_t slash = file_name.rfind('/');
  if (slash != std::string_view::npos) file_name.remove_prefix(slash + 1);
  const std::size_t conf = file_name.find("_conf.xml");
  if (!StartsWith(file_name, "job_") || conf == std::string_view::npos) return "";
  return std::string(file_name.substr(0, conf));
}

std::optional<Format> SniffHistoryLine(std::string_view first) {
  while (!first.empty() && (first.back() == '\r' || first.back() == ' ')) first.remove_suffix(1);
  if (first == "Avro-Json") return Format::kJhist;
  if (StartsWith(first, "Meta VERSION=") || StartsWith(first, "Job JOBID=")) {
    return Format::kHistory1;
  }
  return std::nullopt;
}

Result<HistoryFile> ReadHistoryFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::InvalidArgument(path + ": is a folder, not a file");
  }
  spark::EventLogSource src;
  src.name = path;
  src.parts = {path};
  spark::EventLineReader reader(src);
  HistoryFile out;
  out.path = path;
  std::string_view line;
  std::string first;
  std::int64_t first_line = 0;
  while (reader.Next(&line)) {
    auto p = line.find_first_not_of(" \t\r\xef\xbb\xbf");
    if (p == std::string_view::npos) {
      ++out.lines;
      continue;
    }
    first = std::string(line.substr(p));
    first_line = reader.current_line();
    break;
  }
  for (const auto& k : reader.skipped()) {
    if (first_line == 0) {
      return Status::InvalidArgument(k.file + (k.line ? ":" + std::to_string(k.line) : "") +
                                     ": " + k.reason);
    }
  }
  if (first_line == 0) return Status::InvalidArgument(path + ": empty file");
  const std::optional<Format> sniffed = SniffHistoryLine(first);
  if (sniffed == Format::kJhist) {
    out.format = Format::kJhist;
    ++out.lines;
    ReadJhist(reader, out);
  } else if (StartsWith(first, "Obj\x01")) {
    return Status::InvalidArgument(
        path + ": binary Avro job history (mapreduce.jobhistory.jhist.format=binary) is not "
               "supported; write the history as JSON (the default) or convert it with avro-tools "
               "tojson");
  } else if (sniffed == Format::kHistory1) {
    out.format = Format::kHistory1;
    ReadHistory1(reader, first, first_line, out);
  } else if (first[0] == '{' || first[0] == '[') {
    out.format = Format::kRumen;
    ReadJsonStream(reader, first, first_line, out);
  } else if (StartsWith(first, "<?xml") || StartsWith(first, "<configuration")) {
    out.format = Format::kConfXml;
    out.conf_job_id = JobIdFromConfName(path);
    ReadConfXml(reader, first, out);
  } else {
    std::string shown = first.substr(0, 80);
    if (first.size() > 80) shown += "…";
    return Status::InvalidArgument(path +
                                   ": not a MapReduce job history, Rumen trace, SLS trace or job "
                                   "configuration (first line: \"" +
                                   shown + "\")");
  }
  for (const auto& k : reader.skipped()) {
    out.problems.push_back({k.file, static_cast<int>(k.line), "", k.reason});
  }
  out.bytes_read = reader.file_bytes_read();
  return out;
}

}  // namespace perfplan::profiles::mapreduce
