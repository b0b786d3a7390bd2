// `perfplan apps` (the Spark applications in the store) and `perfplan app ID` (one of them, stage
// by stage).
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/store_flags.h"
#include "planner/cli/table.h"
#include "planner/spark/spark_api.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::cli {
namespace {

struct AppsFlags : StoreFlags {
  std::string app_id, attempt_id;
};

std::optional<double> DurationSeconds(const profiles::spark::ApplicationSummary& a) {
  if (!a.end_time_ms) return std::nullopt;
  return static_cast<double>(*a.end_time_ms - a.start_time_ms) / 1000.0;
}

Result<std::unique_ptr<profiles::Store>> OpenSparkStore(const std::string& path) {
  return profiles::Store::OpenReadOnly(path, {profiles::spark::StoreMigrations()});
}

void PrintApplications(std::ostream& out,
                       const std::vector<profiles::spark::ApplicationSummary>& apps) {
  Table table({"application", "attempt", "name", "seconds", "jobs", "stages", "tasks", "failed",
               "executors", "state"});
  for (const auto& a : apps) {
    table.AddRow({a.app_id, a.attempt_id.empty() ? "-" : a.attempt_id, a.name,
                  FixedOrDash(DurationSeconds(a), 1), std::to_string(a.jobs),
                  std::to_string(a.stages), std::to_string(a.tasks), std::to_string(a.failed_tasks),
                  std::to_string(a.executors), a.completed ? "completed" : "incomplete"});
  }
  table.Print(out);
}

void PrintApplication(std::ostream& out,
                      const std::pair<profiles::spark::ApplicationSummary,
                                      std::vector<profiles::spark::StageSummary>>& app) {
  const auto& [a, stages] = app;
  out << a.app_id << (a.attempt_id.empty() ? "" : " attempt " + a.attempt_id) << " \"" << a.name
      << "\" by " << a.user << ", Spark "
      << (a.spark_version.empty() ? "version unknown" : a.spark_version) << ", "
      << FixedOrDash(DurationSeconds(a), 1) << " s, " << (a.completed ? "completed" : "incomplete")
      << "\n  from " << a.source << "\n\n";
  Table table({"stage", "attempt", "status", "tasks", "failed", "seconds", "median task s",
               "max task s", "name"});
  for (const auto& s : stages) {
    table.AddRow({std::to_string(s.stage_id), std::to_string(s.stage_attempt_id), s.status,
                  std::to_string(s.num_tasks), std::to_string(s.failed_tasks),
                  FixedOrDash(s.duration_seconds, 1), Fixed(s.task_seconds_median, 3),
                  Fixed(s.task_seconds_max, 3), s.name});
  }
  table.Print(out);
}

}  // namespace

void AddAppsCommand(CLI::App& cmd, CliContext& ctx) {
  cmd.footer("Example:\n  perfplan apps --store spark.db");
  AddStoreQuestion(cmd, ctx, "apps", OpenSparkStore, profiles::spark::ListApplications,
                   PrintApplications, [](const auto& apps) { return planner::ToJson(apps); });
}

void AddAppCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<AppsFlags>();
  cmd.footer("Example:\n  perfplan app local-1430917381534 --store spark.db");
  cmd.add_option("id", flags->app_id, "Application id")->required();
  cmd.add_option("--attempt", flags->attempt_id, "Attempt id (default: the latest)");
  AddStoreFlags(cmd, *flags);
  cmd.callback([flags, &ctx] {
    WriteAnswer(ctx, "app", flags->json,
                AskStore(OpenSparkStore(flags->store),
                         [&](profiles::Store& store) {
                           return profiles::spark::DescribeApplication(store, flags->app_id,
                                                                       flags->attempt_id);
                         }),
                PrintApplication,
                [](const auto& app) { return planner::ToJson(app.first, app.second); });
  });
}

}  // namespace perfplan::cli
