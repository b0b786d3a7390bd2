// JSON for the MapReduce answers (planner/mapreduce/mapreduce_api.h).
#include <nlohmann/json.hpp>

#include "models/json_fields.h"
#include "models/json_text.h"
#include "planner/hindex/hindex_json_object.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "planner/output/skip_report.h"
#include "profiles/problem.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

json SummaryJson(const profiles::mapreduce::JobSummary& s) {
  json j = PERFPLAN_JSON_FIELDS(s, job_id, name, user, queue, status, format, maps, reduces,
                                other_tasks, attempts, failed_attempts, killed_attempts, events,
                                conf_properties, source);
  j["submit_time_ms"] = OrNull(s.submit_ms);
  j["launch_time_ms"] = OrNull(s.launch_ms);
  j["finish_time_ms"] = OrNull(s.finish_ms);
  j["duration_seconds"] =
      OrNull(SecondsBetween(s.submit_ms ? s.submit_ms : s.launch_ms, s.finish_ms));
  return j;
}

json CountersJson(const std::vector<profiles::mapreduce::Counter>& counters) {
  json out = json::array();
  for (const auto& c : counters) {
    out.push_back({{"group", c.group.str()}, {"name", c.name.str()}, {"value", c.value}});
  }
  return out;
}

json PhasesJson(const std::vector<std::pair<std::string, StageStragglers>>& phases) {
  json out = json::array();
  for (const auto& [name, s] : phases) {
    json j = StageStragglersJson(s);
    j.erase("stage_id");
    j.erase("attempt_id");
    j["phase"] = name;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace

std::string ToJson(const profiles::mapreduce::IngestSummary& s) {
  json files = json::array();
  for (const auto& f : s.files) {
    json file = PERFPLAN_JSON_FIELDS(f, path, job_ids, events, problems, unchanged);
    file["format"] = f.unchanged ? json(nullptr) : json(std::string(ToString(f.format)));
    files.push_back(std::move(file));
  }
  json skipped = json::array();
  for (const auto& p : s.skipped) {
    json problem = PERFPLAN_JSON_FIELDS(p, file, line, field, message);
    problem["text"] = profiles::FormatProblem(p);
    skipped.push_back(std::move(problem));
  }
  json j = PERFPLAN_JSON_FIELDS(s, jobs, events, lines, bytes_read, ignored, skipped_total);
  j["files"] = s.files.size();
  j["files_ingested"] = files;
  j["skipped"] = skipped;
  j["skipped_reasons"] = SkipReasonsJson(s.skipped_reasons);
  return JsonLine(j);
}

std::string ToJson(const std::vector<profiles::mapreduce::JobSummary>& jobs) {
  json list = json::array();
  for (const auto& s : jobs) list.push_back(SummaryJson(s));
  return JsonLine(json{{"jobs", list}});
}

std::string ToJson(const JobAnswer& a) {
  json j = SummaryJson(a.summary);
  j["total_maps"] = OrNull(a.total_maps);
  j["total_reduces"] = OrNull(a.total_reduces);
  j["finished_maps"] = OrNull(a.finished_maps);
  j["finished_reduces"] = OrNull(a.finished_reduces);
  j["failed_maps"] = OrNull(a.failed_maps);
  j["failed_reduces"] = OrNull(a.failed_reduces);
  j["killed_maps"] = OrNull(a.killed_maps);
  j["killed_reduces"] = OrNull(a.killed_reduces);
  j["diagnostics"] = a.diagnostics;
  json phases = json::array();
  for (const auto& p : a.phases) {
    json row = PERFPLAN_JSON_FIELDS(p, phase, attempts, attempt_seconds_sum, attempt_seconds_median,
                                    attempt_seconds_max);
    row["wall_seconds"] = OrNull(p.wall_seconds);
    phases.push_back(std::move(row));
  }
  j["phases"] = phases;
  json tasks = json::array();
  for (const auto& [type, status, n] : a.task_counts) {
    tasks.push_back({{"task_type", type}, {"status", status}, {"tasks", n}});
  }
  j["task_counts"] = tasks;
  j["counters"] = CountersJson(a.counters);
  json bad = json::array();
  for (const auto& at : a.unsuccessful_attempts) {
    json attempt = PERFPLAN_JSON_FIELDS(at, attempt_id, task_id, task_type, status, host, error);
    attempt["start_time_ms"] = OrNull(at.start_ms);
    attempt["finish_time_ms"] = OrNull(at.finish_ms);
    bad.push_back(std::move(attempt));
  }
  j["unsuccessful_attempts"] = bad;
  json slow = json::array();
  for (const auto& t : a.slowest) {
    slow.push_back(PERFPLAN_JSON_FIELDS(t, task_id, task_type, attempt_id, host, seconds));
  }
  j["slowest_tasks"] = slow;
  json events = json::object();
  for (const auto& [type, n] : a.event_counts) events[type] = n;
  j["event_counts"] = events;
  j["conf_properties"] = a.conf_properties;
  return JsonLine(j);
}

std::string ToJson(const MapReduceStragglersAnswer& a) {
  json j = {{"job_id", a.job_id},
            {"phases", PhasesJson(a.phases)},
            {"reduce_sub_phases", PhasesJson(a.reduce_sub_phases)},
            {"h_job", OrNull(a.h_job)},
            {"phases_used", a.phases_used}};
  if (!a.h_job) j["h_job_note"] = a.h_job_note;
  return JsonLine(j);
}

}  // namespace perfplan::planner
