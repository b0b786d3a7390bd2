// `perfplan jobs` (the MapReduce jobs in the store) and `perfplan job ID` (one of them: phases,
// task counts, counters, failed and killed attempts, the slowest tasks).
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/store_flags.h"
#include "planner/cli/table.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "profiles/mapreduce/mapreduce_store.h"

namespace perfplan::cli {
namespace {

struct JobsFlags : StoreFlags {
  std::string job_id;
  std::size_t slowest = 5;
};

void PrintJob(std::ostream& out, const planner::JobAnswer& a) {
  const auto& s = a.summary;
  out << s.job_id << "  " << s.name << "  user " << s.user << "  queue " << s.queue << "\n"
      << "status " << s.status << ", " << FixedOrDash(a.duration_seconds, 1) << " s, format "
      << s.format << ", " << s.events << " events, " << a.conf_properties
      << " configuration properties\n"
      << "source " << s.source << "\n";
  if (!a.diagnostics.empty()) out << "diagnostics: " << a.diagnostics << "\n";
  out << "\n";
  Table phases({"phase", "attempts", "wall s", "sum s", "median s", "max s"});
  for (const auto& p : a.phases) {
    phases.AddRow({p.phase, std::to_string(p.attempts), FixedOrDash(p.wall_seconds, 1),
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

void PrintJobs(std::ostream& out, const std::vector<profiles::mapreduce::JobSummary>& jobs) {
  Table table({"job", "name", "user", "status", "seconds", "maps", "reduces", "attempts",
               "failed", "killed", "format"});
  for (const auto& j : jobs) {
    table.AddRow({j.job_id, j.name, j.user, j.status,
                  FixedOrDash(planner::SecondsBetween(j.submit_ms ? j.submit_ms : j.launch_ms,
                                                      j.finish_ms),
                              1),
                  std::to_string(j.maps), std::to_string(j.reduces), std::to_string(j.attempts),
                  std::to_string(j.failed_attempts), std::to_string(j.killed_attempts),
                  j.format});
  }
  table.Print(out);
}

}  // namespace

void AddJobsCommand(CLI::App& cmd, CliContext& ctx) {
  cmd.footer("Example:\n  perfplan jobs --store mr.db");
  auto open = [](const std::string& path) {
    return profiles::Store::Open(path, {profiles::mapreduce::StoreMigrations()});
  };
  AddStoreQuestion(cmd, ctx, "jobs", open, profiles::mapreduce::ListJobs, PrintJobs,
                   [](const auto& jobs) { return planner::ToJson(jobs); });
}

void AddJobCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<JobsFlags>();
  cmd.footer("Example:\n  perfplan job job_1329348432655_0001 --store mr.db");
  cmd.add_option("job", flags->job_id, "MapReduce job id")->required();
  AddStoreOption(cmd, flags->store);
  cmd.add_option("--slowest", flags->slowest, "How many of the slowest attempts to list")
      ->capture_default_str();
  AddJsonFlag(cmd, flags->json);
  cmd.callback([flags, &ctx] {
    WriteAnswer(
        ctx, "job", flags->json,
        AskStore(profiles::Store::Open(flags->store, {profiles::mapreduce::StoreMigrations()}),
                 [&](profiles::Store& store) {
                   return planner::AnswerJob(store, flags->job_id, flags->slowest);
                 }),
        PrintJob);
  });
}

}  // namespace perfplan::cli
