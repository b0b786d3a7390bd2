#include <ostream>

#include "planner/cli/command.h"
#include "planner/spark_api.h"
#include "profiles/spark_store.h"

namespace perfplan::cli {
namespace {
struct SparkApiFlags {
  std::string path;
  std::string store = "perfplan.db";
  bool json_ignored = false;
};
}  // namespace

void AddSparkCommand(CLI::App& app, CliContext& ctx) {
  CLI::App* spark = app.add_subcommand("spark", "Spark answers from the profile store");
  spark->require_subcommand(1);
  auto flags = std::make_shared<SparkApiFlags>();
  CLI::App* api = spark->add_subcommand(
      "api", "Print what Spark's History Server returns at /api/v1/PATH (always JSON)");
  api->footer(
      "Example:\n  perfplan spark api 'applications/local-1422981780767/stages/1?details=true' "
      "--store spark.db");
  api->add_option("path", flags->path, "REST path under /api/v1/, with an optional ?query")
      ->required();
  api->add_option("--store", flags->store, "Profile store (SQLite file)");
  // The answer is JSON either way; --json is accepted for uniformity with other commands.
  api->add_flag("--json", flags->json_ignored,
                "Accepted for uniformity; the answer is always JSON");
  api->callback([flags, &ctx] {
    auto store = profiles::Store::Open(flags->store, {profiles::spark::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "spark api", store.status(), true);
    auto answer = planner::SparkApi(*store.value(), flags->path);
    if (!answer.ok()) return ReportError(ctx, "spark api", answer.status(), true);
    ctx.exit_code = 0;
    *ctx.out << answer.value();
  });
}

}  // namespace perfplan::cli
