#include "profiles/mapreduce/mapreduce_run_table.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <string_view>

#include "models/text.h"
#include "profiles/mapreduce/mapreduce_store.h"

namespace perfplan::profiles::mapreduce {
namespace {

using models::FormatNumber;

constexpr double kNominalBandwidth = 125e6;  // as planner/runtime/store_backtest.cpp
constexpr double kMiB = 1024.0 * 1024.0;
constexpr std::int64_t kYarnDefaultMemoryMb = 8192;  // yarn-default.xml
constexpr std::int64_t kYarnDefaultVcores = 8;

bool Succeeded(std::string_view status) { return status == "SUCCEEDED" || status == "SUCCESS"; }

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Properties that name, locate or time one job rather than configure it.
bool IsIdentityProperty(const std::string& name, const std::string& value,
                        const std::string& job_id) {
  static const std::set<std::string> kNames = {
      "mapreduce.job.name",       "mapreduce.job.user.name", "mapreduce.job.id",
      "mapreduce.job.dir",        "mapreduce.job.submithostname",
      "mapreduce.job.submithostaddress", "mapreduce.job.jobjar", "mapreduce.job.tags",
      "mapreduce.workflow.id",    "mapreduce.workflow.name", "mapreduce.workflow.node.name",
      "mapreduce.job.cache.files.timestamps", "mapreduce.job.cache.archives.timestamps",
      "mapred.job.name",          "mapred.job.id",           "user.name",
      "job.end.notification.url", "mapreduce.input.fileinputformat.inputdir",
      "mapreduce.output.fileoutputformat.outputdir", "mapred.input.dir", "mapred.output.dir"};
  if (kNames.count(name)) return true;
  if (job_id.size() > 4 && value.find(job_id.substr(4)) != std::string::npos) return true;
  for (std::string_view suffix : {"dir", "dirs", ".address", ".hostname", ".host", ".port",
                                  ".path", ".file", ".keytab", ".principal", ".timestamp",
                                  ".timestamps", ".url", ".uri", ".classpath"}) {
    if (EndsWith(name, suffix)) return true;
  }
  return false;
}

// A job's conf.xml holds every property of the cluster (~400 for Hadoop 2.x): a note names the
// first kListedNames and counts the rest.
constexpr std::size_t kListedNames = 20;
std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kListedNames; ++i) {
    out += (out.empty() ? "" : ", ") + names[i];
  }
  if (names.size() > kListedNames) {
    out += " and " + std::to_string(names.size() - kListedNames) + " more";
  }
  return out;
}

// Adds "TEXT: NAMES" to `notes` when there are names.
void NoteNames(std::vector<std::string>* notes, const std::string& text,
               const std::vector<std::string>& names) {
  if (!names.empty()) notes->push_back(text + ": " + JoinNames(names));
}

std::optional<std::int64_t> ConfInt(const JobRun& run, const std::string& name) {
  for (const auto& [k, v] : run.conf) {
    if (k != name) continue;
    char* end = nullptr;
    const long long x = std::strtoll(v.c_str(), &end, 10);
    if (!v.empty() && *end == '\0' && x > 0) return x;
  }
  return std::nullopt;
}

}  // namespace

const std::vector<std::string>& JobMetricColumns() {
  static const std::vector<std::string> kColumns = {
      "total_time_seconds", "cpu_seconds",  "gc_time_seconds", "spilled_records",
      "shuffle_bytes",      "input_bytes",  "task_seconds",    "shuffle_seconds"};
  return kColumns;
}

std::vector<std::optional<double>> JobRun::Metrics() const {
  return {total_seconds,   cpu_seconds, gc_seconds,   spilled_records,
          shuffle_bytes,   input_bytes, task_seconds, shuffle_seconds};
}

bool JobSucceeded(const JobRun& run) { return Succeeded(run.status); }

JobRun ToJobRun(const Job& job) {
  JobRun r;
  r.job_id = job.job_id;
  r.name = job.name;
  r.status = job.status;
  r.start_ms = job.submit_ms ? job.submit_ms : job.launch_ms;
  r.finish_ms = job.finish_ms;
  if (r.start_ms && r.finish_ms && *r.finish_ms >= *r.start_ms) {
    r.total_seconds = static_cast<double>(*r.finish_ms - *r.start_ms) / 1000.0;
  }
  for (const Task& t : job.tasks) {
    if (t.task_type == "MAP") ++r.maps;
    if (t.task_type == "REDUCE") ++r.reduces;
  }
  std::set<std::string> seen;
  // The counters the metrics read: the job's totals, or the successful attempts' sum.
  std::vector<const Counter*> counters;
  const auto total = job.counters.find("total");
  const bool has_totals = total != job.counters.end() && !total->second.empty();
  if (has_totals) {
    for (const Counter& c : total->second) counters.push_back(&c);
  }
  r.counters_from_attempts = !has_totals;
  for (const Attempt& a : job.attempts) {
    if (!a.host.empty() && seen.insert(a.host).second) r.hosts.push_back(a.host);
    if (!Succeeded(a.status)) continue;
    if (!has_totals) {
      for (const Counter& c : a.counters) counters.push_back(&c);
    }
    if (a.start_ms && a.finish_ms && *a.finish_ms >= *a.start_ms) {
      r.task_seconds += static_cast<double>(*a.finish_ms - *a.start_ms) / 1000.0;
    }
    if (a.task_type == "REDUCE" && a.start_ms && a.shuffle_finish_ms &&
        *a.shuffle_finish_ms >= *a.start_ms) {
      r.shuffle_seconds += static_cast<double>(*a.shuffle_finish_ms - *a.start_ms) / 1000.0;
    }
  }
  auto sum = [&](auto matches) {
    std::optional<double> out;
    for (const Counter* c : counters) {
      if (matches(*c)) out = out.value_or(0) + static_cast<double>(c->value);
    }
    return out;
  };
  auto named = [&](std::string_view name) {
    return sum([name](const Counter& c) { return c.name == name; });
  };
  if (auto v = named("CPU_MILLISECONDS")) r.cpu_seconds = *v / 1000.0;
  if (auto v = named("GC_TIME_MILLIS")) r.gc_seconds = *v / 1000.0;
  r.spilled_records = named("SPILLED_RECORDS");
  r.shuffle_bytes = named("REDUCE_SHUFFLE_BYTES");
  r.input_bytes = sum([](const Counter& c) {
    return c.group.view().find("FileSystem") != std::string_view::npos && EndsWith(c.name, "_BYTES_READ") &&
           c.name != "FILE_BYTES_READ";
  });
  r.conf = job.conf;
  return r;
}

Result<std::vector<JobRun>> LoadJobRuns(Store& store, const spark::RunTableSelection& selection) {
  auto listed = ListJobs(store);
  if (!listed.ok()) return listed.status();
  if (listed.value().empty()) {
    return Status::InvalidArgument("no MapReduce jobs in the store " + store.path() +
                                   "; ingest job histories into it first (perfplan ingest "
                                   "mapreduce)");
  }
  std::set<std::string> ids;
  for (const JobSummary& j : listed.value()) ids.insert(j.job_id);
  for (const std::string& id : selection.app_ids) {
    if (!ids.count(id)) {
      return Status::InvalidField("app_ids", "job " + id + " not in the store " + store.path());
    }
  }
  std::vector<JobRun> out;
  for (const JobSummary& j : listed.value()) {
    const auto& want = selection.app_ids;
    if (!want.empty() && std::find(want.begin(), want.end(), j.job_id) == want.end()) continue;
    if (!selection.name_contains.empty() &&
        j.name.find(selection.name_contains) == std::string::npos) {
      continue;
    }
    auto job = LoadJob(store, j.job_id);
    if (!job.ok()) return job.status();
    out.push_back(ToJobRun(job.value()));
  }
  if (out.empty()) {
    return Status::InvalidField("name_contains", "no job in the store " + store.path() +
                                                     " matches \"" + selection.name_contains +
                                                     "\"");
  }
  return out;
}

spark::StoreRunTable JobRunTable(const std::vector<JobRun>& runs, const std::string& source) {
  spark::StoreRunTable out;
  out.table.source = source;
  std::vector<std::map<std::string, std::string>> props(runs.size());
  std::vector<std::string> order;  // first appearance
  std::set<std::string> identity_set;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (const auto& [name, value] : runs[i].conf) {
      if (IsIdentityProperty(name, value, runs[i].job_id)) identity_set.insert(name);
      if (props[i].emplace(name, value).second &&
          std::find(order.begin(), order.end(), name) == order.end()) {
        order.push_back(name);
      }
    }
  }
  std::vector<std::string> parameters, constant, partial, identity;
  for (const std::string& name : order) {
    if (identity_set.count(name)) {
      identity.push_back(name);
      continue;
    }
    bool everywhere = true, varies = false;
    for (const auto& p : props) {
      auto it = p.find(name);
      if (it == p.end()) {
        everywhere = false;
        break;
      }
      if (it->second != props.front().at(name)) varies = true;
    }
    (!everywhere ? partial : !varies ? constant : parameters).push_back(name);
  }
  for (const auto& name : parameters) out.table.columns.emplace_back().name = name;
  for (const auto& name : JobMetricColumns()) out.table.columns.emplace_back().name = name;
  std::string ids;
  std::size_t from_attempts = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    models::RunRow row;
    for (const auto& name : parameters) row.cells.push_back(props[i].at(name));
    for (const auto& m : runs[i].Metrics()) row.cells.push_back(m ? FormatNumber(*m) : "");
    row.line = static_cast<int>(i) + 1;
    out.table.rows.push_back(std::move(row));
    ids += (ids.empty() ? "" : ", ") + runs[i].job_id;
    if (runs[i].counters_from_attempts) ++from_attempts;
  }
  out.notes.push_back("store: " + std::to_string(runs.size()) + " MapReduce job(s): " + ids);
  if (from_attempts > 0) {
    out.notes.push_back("store: " + std::to_string(from_attempts) +
                        " job(s) have no JobFinished counters; their counters are the sum over "
                        "their successful attempts");
  }
  NoteNames(&out.notes, "store: properties with the same value in every job are not parameters",
            constant);
  NoteNames(&out.notes,
            "store: properties missing in some jobs are not parameters (ingest each job's "
            "conf.xml)",
            partial);
  NoteNames(&out.notes, "store: identity properties are not parameters", identity);
  return out;
}

Result<spark::StoreRunTable> ReadJobRunTable(Store& store,
                                             const spark::RunTableSelection& selection) {
  auto runs = LoadJobRuns(store, selection);
  if (!runs.ok()) return runs.status();
  return JobRunTable(runs.value(), "store:" + store.path());
}

const std::vector<std::string>& JobRunsCsvExtraColumns() {
  static const std::vector<std::string> kColumns = {"job_id", "maps", "reduces",
                                                    "submit_time_seconds", "vcpus",
                                                    "memory_bytes"};
  return kColumns;
}

JobRunsCsv ToRunsCsvRows(const std::vector<JobRun>& runs) {
  JobRunsCsv out;
  std::vector<std::string> no_input, no_yarn, unfinished;
  for (const JobRun& r : runs) {
    if (!r.total_seconds || *r.total_seconds <= 0) {
      unfinished.push_back(r.job_id);
      continue;
    }
    JobRunsCsvRow row;
    models::MeasuredRun& m = row.run;
    m.workload = r.name.empty() ? r.job_id : r.name;
    m.dataset_bytes = r.input_bytes.value_or(0);
    if (m.dataset_bytes <= 0) {
      m.dataset_bytes = 1;
      no_input.push_back(r.job_id);
    }
    m.storage_nodes = m.compute_nodes = static_cast<double>(std::max<std::size_t>(1, r.hosts.size()));
    const auto memory_mb = ConfInt(r, "yarn.nodemanager.resource.memory-mb");
    const auto vcores = ConfInt(r, "yarn.nodemanager.resource.cpu-vcores");
    if (!memory_mb || !vcores) no_yarn.push_back(r.job_id);
    const std::int64_t mb = memory_mb.value_or(kYarnDefaultMemoryMb);
    const std::int64_t cores = vcores.value_or(kYarnDefaultVcores);
    m.vcpus = static_cast<double>(cores);
    m.memory_bytes = static_cast<double>(mb) * kMiB;
    m.instance_type = "yarn-" + std::to_string(mb) + "mb-" + std::to_string(cores) + "vcore";
    m.bandwidth_bytes_per_second = kNominalBandwidth;
    m.runtime_seconds = *r.total_seconds;
    m.completed = JobSucceeded(r);
    row.job_id = r.job_id;
    row.maps = r.maps;
    row.reduces = r.reduces;
    row.submit_time_seconds = static_cast<double>(*r.start_ms) / 1000.0;
    out.rows.push_back(std::move(row));
  }
  NoteNames(&out.notes, "jobs without a start and finish time are not runs", unfinished);
  NoteNames(&out.notes,
            "jobs that read no input (no FileSystem *_BYTES_READ counter other than "
            "FILE_BYTES_READ) have dataset_bytes 1",
            no_input);
  NoteNames(&out.notes,
            "jobs whose configuration lacks yarn.nodemanager.resource.memory-mb or cpu-vcores "
            "take YARN's defaults (8192 MiB, 8 vcores)",
            no_yarn);
  return out;
}

}  // namespace perfplan::profiles::mapreduce
