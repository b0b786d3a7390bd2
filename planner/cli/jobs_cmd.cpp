// `perfplan jobs` (the MapReduce jobs in the store) and `perfplan job ID` (one of them: phases,
// task counts, counters, failed and killed attempts, the slowest tasks).
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/table.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "profiles/mapreduce/mapreduce_store.h"

namespace perfplan::cli {
namespace {

struct JobsFlags {
  std::string store = "perfplan.db";
  std::string job_id;
  std::size_t slowest = 5;
  bool json = false;
};

std::string Seconds(std::optional<double> s) { return s ? Fixed(*s, 1) : "-"; }

void PrintJob(std::ostream& out, const planner::JobAnswer& a) {
  const auto& s = a.summary;
  out << s.job_id << "  " << s.name << "  user " << s.user << "  queue " << s.queue << "\n"
      << "status " << s.status << ", " << Seconds(a.duration_seconds) << " s, format " << s.format
      << ", " << s.events << " events, " << a.conf_properties << " configuration properties\n"
      << "source " << s.source << "\n";
  if (!a.diagnostics.empty()) out << "diagnostics: " << a.diagnostics << "\n";
  out << "\n";
  Table phases({"phase", "attempts", "wall s", "sum s", "median s", "max s"});
  for (const auto& p : a.phases) {
    phases.AddRow({p.phase, std::to_string(p.attempts), Seconds(p.wall_seconds),
                   Fixed(p.attempt_seconds_sum, 3), Fixed(p.attempt_seconds_median, 3),
                   Fixed(p.attempt_seconds_max, 3)});
  }
  phases.Print(out);
  out << "\n";
  Table tasks({"task type", "status", "tasks"});
  for (const auto& [type, status, n] : a.task_counts) tasks.AddRow({type, status, std::to_string(n)});
  tasks.Print(out);
  if (!a.unsuccessful_attempts.empty()) {
    out << "\n";
    Table bad({"attempt", "type", "status", "host", "error"});
    for (const auto& at : a.unsuccessful_attempts) {
      bad.AddRow({at.attempt_id, at.task_type, at.status, at.host,
                  at.error.substr(0, at.error.find('\n'))});
    }
    bad.Print(out);
  }
  if (!a.slowest.empty()) {
    out << "\nslowest successful attempts:\n";
    Table slow({"attempt", "type", "host", "seconds"});
    for (const auto& t : a.slowest) {
      slow.AddRow({t.attempt_id, t.task_type, t.host, Fixed(t.seconds, 3)});
    }
    slow.Print(out);
  }
  if (!a.counters.empty()) {
    out << "\ncounters:\n";
    Table counters({"group", "counter", "value"});
    for (const auto& c : a.counters) counters.AddRow({c.group.str(), c.name.str(), std::to_string(c.value)});
    counters.Print(out);
  }
}

}  // namespace

void AddJobsCommand(CLI::App& command, CliContext& ctx) {
  auto flags = std::make_shared<JobsFlags>();
  CLI::App* cmd = &command;
  cmd->footer("Example:\n  perfplan jobs --store mr.db");
  cmd->add_option("--store", flags->store, "Profile store (SQLite file)");
  cmd->add_flag("--json", flags->json, "Print one JSON document instead of text");
  cmd->callback([flags, &ctx] {
    auto store = profiles::Store::Open(flags->store, {profiles::mapreduce::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "jobs", store.status(), flags->json);
    auto jobs = profiles::mapreduce::ListJobs(*store.value());
    if (!jobs.ok()) return ReportError(ctx, "jobs", jobs.status(), flags->json);
    ctx.exit_code = 0;
    if (flags->json) {
      *ctx.out << planner::ToJson(jobs.value());
      return;
    }
    Table table({"job", "name", "user", "status", "seconds", "maps", "reduces", "attempts",
                 "failed", "killed", "format"});
    for (const auto& j : jobs.value()) {
      table.AddRow({j.job_id, j.name, j.user, j.status,
                    Seconds(planner::SecondsBetween(j.submit_ms ? j.submit_ms : j.launch_ms,
                                                    j.finish_ms)),
                    std::to_string(j.maps), std::to_string(j.reduces), std::to_string(j.attempts),
                    std::to_string(j.failed_attempts), std::to_string(j.killed_attempts),
                    j.format});
    }
    table.Print(*ctx.out);
  });
}

void AddJobCommand(CLI::App& command, CliContext& ctx) {
  auto flags = std::make_shared<JobsFlags>();
  CLI::App* cmd = &command;
  cmd->footer("Example:\n  perfplan job job_1329348432655_0001 --store mr.db");
  cmd->add_option("job", flags->job_id, "MapReduce job id")->required();
  cmd->add_option("--store", flags->store, "Profile store (SQLite file)");
  cmd->add_option("--slowest", flags->slowest, "How many of the slowest attempts to list")
      ->capture_default_str();
  cmd->add_flag("--json", flags->json, "Print one JSON document instead of text");
  cmd->callback([flags, &ctx] {
    auto store = profiles::Store::Open(flags->store, {profiles::mapreduce::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "job", store.status(), flags->json);
    auto answer = planner::AnswerJob(*store.value(), flags->job_id, flags->slowest);
    if (!answer.ok()) return ReportError(ctx, "job", answer.status(), flags->json);
    ctx.exit_code = 0;
    if (flags->json) {
      *ctx.out << planner::ToJson(answer.value());
    } else {
      PrintJob(*ctx.out, answer.value());
    }
  });
}

}  // namespace perfplan::cli
