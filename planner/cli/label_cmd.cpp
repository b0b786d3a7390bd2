// `perfplan label APP io|compute` (stores a user hint that labels the task-type clusters) and
// `perfplan classify` (the task type of every stored application).
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/store_flags.h"
#include "planner/cli/table.h"
#include "planner/scoring/spark_scoring.h"
#include "profiles/ganglia/task_type_hints.h"

namespace perfplan::cli {
namespace {

struct LabelFlags : StoreFlags {
  std::string app_id, type;
};

void PrintClasses(std::ostream& out, const planner::ClassifyAnswer& classes) {
  for (const std::string& w : classes.warnings) out << "note: " << w << "\n";
  Table table({"application", "cluster", "type", "hint"});
  for (const planner::ClassifiedRun& r : classes.runs) {
    table.AddRow({r.app_id, r.cluster < 0 ? "-" : std::to_string(r.cluster),
                  std::string(models::ToString(r.type)),
                  r.hint ? std::string(models::ToString(*r.hint)) : "-"});
  }
  table.Print(out);
}

}  // namespace

void AddLabelCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<LabelFlags>();
  cmd.footer("Example:\n  perfplan label local-1430917381534 compute --store spark.db");
  cmd.add_option("app", flags->app_id, "Application id (as `perfplan apps` lists it)")->required();
  cmd.add_option("type", flags->type, "io or compute")->required();
  AddStoreFlags(cmd, *flags);
  cmd.callback([flags, &ctx] {
    const auto type = models::TaskTypeFromString(flags->type);
    if (!type || *type == models::TaskType::kUnknown) {
      return ReportError(
          ctx, "label",
          Status::InvalidArgument("task type '" + flags->type + "' is not io or compute"),
          flags->json);
    }
    auto store = profiles::Store::Open(flags->store, planner::ScoringMigrations());
    if (!store.ok()) return ReportError(ctx, "label", store.status(), flags->json);
    if (Status s = planner::CheckApplicationExists(*store.value(), flags->app_id); !s.ok()) {
      return ReportError(ctx, "label", s, flags->json);
    }
    if (Status s = profiles::SaveTaskTypeHint(*store.value(), flags->app_id, *type); !s.ok()) {
      return ReportError(ctx, "label", s, flags->json);
    }
    ctx.exit_code = 0;
    if (flags->json) {
      *ctx.out << planner::LabelToJson(flags->app_id, *type);
    } else {
      *ctx.out << flags->app_id << " labelled " << models::ToString(*type) << "\n";
    }
  });
}

void AddClassifyCommand(CLI::App& cmd, CliContext& ctx) {
  cmd.footer("Example:\n  perfplan classify --store spark.db");
  auto open = [](const std::string& path) {
    return profiles::Store::Open(path, planner::ScoringMigrations());
  };
  AddStoreQuestion(cmd, ctx, "classify", open, planner::ClassifyStoredApplications, PrintClasses);
}

}  // namespace perfplan::cli
