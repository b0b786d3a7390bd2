// JSON for the MapReduce answers (planner/mapreduce/mapreduce_api.h).
#include <nlohmann/json.hpp>

#include "models/json_text.h"

#include "planner/hindex/hindex_json_object.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "planner/output/skip_report.h"
#include "profiles/problem.h"

namespace perfplan::planner {
namespace {

using nlohmann::json;

template <typename T>
json Opt(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json SummaryJson(const profiles::mapreduce::JobSummary& s) {
  return {{"job_id", s.job_id},
          {"name", s.name},
          {"user", s.user},
          {"queue", s.queue},
          {"status", s.status},
          {"format", s.format},
          {"submit_time_ms", Opt(s.submit_ms)},
          {"launch_time_ms", Opt(s.launch_ms)},
          {"finish_time_ms", Opt(s.finish_ms)},
          {"duration_seconds", Opt(SecondsBetween(s.submit_ms ? s.submit_ms : s.launch_ms,
                                                  s.finish_ms))},
          {"maps", s.maps},
          {"reduces", s.reduces},
          {"other_tasks", s.other_tasks},
          {"attempts", s.attempts},
          {"failed_attempts", s.failed_attempts},
          {"killed_attempts", s.killed_attempts},
          {"events", s.events},
          {"conf_properties", s.conf_properties},
          {"source", s.source}};
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
    files.push_back({{"path", f.path},
                     {"format", f.unchanged ? json(nullptr) : json(std::string(ToString(f.format)))},
                     {"job_ids", f.job_ids},
                     {"events", f.events},
                     {"problems", f.problems},
                     {"unchanged", f.unchanged}});
  }
  json skipped = json::array();
  for (const auto& p : s.skipped) {
    skipped.push_back({{"file", p.file},
                       {"line", p.line},
                       {"field", p.field},
                       {"message", p.message},
                       {"text", profiles::FormatProblem(p)}});
  }
  json j = {{"files", s.files.size()}, {"jobs", s.jobs},         {"events", s.events},
            {"lines", s.lines},        {"bytes_read", s.bytes_read}, {"files_ingested", files},
            {"ignored", s.ignored},    {"skipped", skipped},
            {"skipped_total", s.skipped_total},
            {"skipped_reasons", SkipReasonsJson(s.skipped_reasons)}};
  return JsonLine(j);
}

std::string ToJson(const std::vector<profiles::mapreduce::JobSummary>& jobs) {
  json list = json::array();
  for (const auto& s : jobs) list.push_back(SummaryJson(s));
  return JsonLine(json{{"jobs", list}});
}

std::string ToJson(const JobAnswer& a) {
  json j = SummaryJson(a.summary);
  j["total_maps"] = Opt(a.total_maps);
  j["total_reduces"] = Opt(a.total_reduces);
  j["finished_maps"] = Opt(a.finished_maps);
  j["finished_reduces"] = Opt(a.finished_reduces);
  j["failed_maps"] = Opt(a.failed_maps);
  j["failed_reduces"] = Opt(a.failed_reduces);
  j["killed_maps"] = Opt(a.killed_maps);
  j["killed_reduces"] = Opt(a.killed_reduces);
  j["diagnostics"] = a.diagnostics;
  json phases = json::array();
  for (const auto& p : a.phases) {
    phases.push_back({{"phase", p.phase},
                      {"attempts", p.attempts},
                      {"wall_seconds", Opt(p.wall_seconds)},
                      {"attempt_seconds_sum", p.attempt_seconds_sum},
                      {"attempt_seconds_median", p.attempt_seconds_median},
                      {"attempt_seconds_max", p.attempt_seconds_max}});
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
    bad.push_back({{"attempt_id", at.attempt_id},
                   {"task_id", at.task_id},
                   {"task_type", at.task_type},
                   {"status", at.status},
                   {"host", at.host},
                   {"start_time_ms", Opt(at.start_ms)},
                   {"finish_time_ms", Opt(at.finish_ms)},
                   {"error", at.error}});
  }
  j["unsuccessful_attempts"] = bad;
  json slow = json::array();
  for (const auto& t : a.slowest) {
    slow.push_back({{"task_id", t.task_id},
                    {"task_type", t.task_type},
                    {"attempt_id", t.attempt_id},
                    {"host", t.host},
                    {"seconds", t.seconds}});
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
            {"h_job", Opt(a.h_job)},
            {"phases_used", a.phases_used}};
  if (!a.h_job) j["h_job_note"] = a.h_job_note;
  return JsonLine(j);
}

}  // namespace perfplan::planner
