// `perfplan apps` (the Spark applications in the store) and `perfplan app ID` (one of them, stage
// by stage).
#include <cstdio>
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/table.h"
#include "planner/spark/spark_api.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::cli {
namespace {

struct AppsFlags {
  std::string store = "perfplan.db";
  std::string app_id, attempt_id;
  bool json = false;
};

std::string Seconds(std::optional<double> s) {
  if (!s) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", *s);
  return buf;
}

std::optional<double> DurationSeconds(const profiles::spark::ApplicationSummary& a) {
  if (!a.end_time_ms) return std::nullopt;
  return static_cast<double>(*a.end_time_ms - a.start_time_ms) / 1000.0;
}

}  // namespace

void AddAppsCommand(CLI::App& command, CliContext& ctx) {
  auto flags = std::make_shared<AppsFlags>();
  CLI::App* cmd = &command;
  cmd->footer("Example:\n  perfplan apps --store spark.db");
  cmd->add_option("--store", flags->store, "Profile store (SQLite file)");
  cmd->add_flag("--json", flags->json, "Print one JSON document instead of text");
  cmd->callback([flags, &ctx] {
    auto store = profiles::Store::OpenReadOnly(flags->store, {profiles::spark::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "apps", store.status(), flags->json);
    auto apps = profiles::spark::ListApplications(*store.value());
    if (!apps.ok()) return ReportError(ctx, "apps", apps.status(), flags->json);
    ctx.exit_code = 0;
    if (flags->json) {
      *ctx.out << planner::ToJson(apps.value());
      return;
    }
    Table table({"application", "attempt", "name", "seconds", "jobs", "stages", "tasks", "failed",
                 "executors", "state"});
    for (const auto& a : apps.value()) {
      table.AddRow({a.app_id, a.attempt_id.empty() ? "-" : a.attempt_id, a.name,
                    Seconds(DurationSeconds(a)), std::to_string(a.jobs), std::to_string(a.stages),
                    std::to_string(a.tasks), std::to_string(a.failed_tasks),
                    std::to_string(a.executors), a.completed ? "completed" : "incomplete"});
    }
    table.Print(*ctx.out);
  });
}

void AddAppCommand(CLI::App& command, CliContext& ctx) {
  auto flags = std::make_shared<AppsFlags>();
  CLI::App* cmd = &command;
  cmd->footer("Example:\n  perfplan app local-1430917381534 --store spark.db");
  cmd->add_option("id", flags->app_id, "Application id")->required();
  cmd->add_option("--attempt", flags->attempt_id, "Attempt id (default: the latest)");
  cmd->add_option("--store", flags->store, "Profile store (SQLite file)");
  cmd->add_flag("--json", flags->json, "Print one JSON document instead of text");
  cmd->callback([flags, &ctx] {
    auto store = profiles::Store::OpenReadOnly(flags->store, {profiles::spark::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "app", store.status(), flags->json);
    auto app =
        profiles::spark::DescribeApplication(*store.value(), flags->app_id, flags->attempt_id);
    if (!app.ok()) return ReportError(ctx, "app", app.status(), flags->json);
    ctx.exit_code = 0;
    const auto& [a, stages] = app.value();
    if (flags->json) {
      *ctx.out << planner::ToJson(a, stages);
      return;
    }
    *ctx.out << a.app_id << (a.attempt_id.empty() ? "" : " attempt " + a.attempt_id) << " \""
             << a.name << "\" by " << a.user << ", Spark "
             << (a.spark_version.empty() ? "version unknown" : a.spark_version) << ", "
             << Seconds(DurationSeconds(a)) << " s, " << (a.completed ? "completed" : "incomplete")
             << "\n  from " << a.source << "\n\n";
    Table table({"stage", "attempt", "status", "tasks", "failed", "seconds", "median task s",
                 "max task s", "name"});
    for (const auto& s : stages) {
      char median[32], max[32];
      std::snprintf(median, sizeof(median), "%.3f", s.task_seconds_median);
      std::snprintf(max, sizeof(max), "%.3f", s.task_seconds_max);
      table.AddRow({std::to_string(s.stage_id), std::to_string(s.stage_attempt_id), s.status,
                    std::to_string(s.num_tasks), std::to_string(s.failed_tasks),
                    Seconds(s.duration_seconds), median, max, s.name});
    }
    table.Print(*ctx.out);
  });
}

}  // namespace perfplan::cli
