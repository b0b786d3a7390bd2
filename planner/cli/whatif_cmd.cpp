// `perfplan whatif executors APP --counts 1,2,4,…`: replays a recorded Spark application's tasks
// on its recorded executor timeline and on other executor counts (models/executor_timeline.h).
#include <cstdio>
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/store_flags.h"
#include "planner/cli/table.h"
#include "planner/spark/executor_timeline_answer.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::cli {
namespace {

struct WhatIfFlags : StoreFlags {
  std::string app_id, attempt_id;
  std::vector<int> counts;
};

void PrintWhatIf(std::ostream& out, const planner::WhatIfOnTimeline& answer) {
  const planner::WhatIfAnswer& a = answer.whatif;
  const planner::ExecutorTimelineAnswer& timeline = answer.timeline;
  Table table({"executors", "predicted seconds"});
  for (const auto& [n, t] : a.points) table.AddRow({std::to_string(n), Fixed(t, 2)});
  table.Print(out);
  out << "\ncritical path (unlimited executors): " << Fixed(a.critical_path_seconds, 2)
      << " s\nmeasured: " << Fixed(a.measured_seconds, 2) << " s on " << a.observed_executors
      << " executor(s) x " << a.cores_per_executor << " core(s), at most "
      << timeline.max_concurrent_executors << " alive at once\n"
      << "replay on the recorded executor timeline: " << Fixed(a.predicted_at_observed_seconds, 2)
      << " s (" << Fixed(100 * a.relative_error_at_observed, 1) << "%)\n"
      << "replay with " << a.observed_executors << " executor(s) alive the whole run: "
      << Fixed(timeline.predicted_static_at_observed_seconds, 2) << " s\n"
      << "driver time outside jobs (kept as measured): " << Fixed(a.driver_seconds, 2) << " s\n";
}

}  // namespace

void AddWhatIfExecutorsCommand(CLI::App& parent, CliContext& ctx) {
  auto flags = std::make_shared<WhatIfFlags>();
  CLI::App* cmd =
      AddVerb(parent, "executors", "Replay a Spark application's tasks on other executor counts");
  cmd->footer(
      "Example:\n  perfplan whatif executors app-20161116163331-0000 --counts 1,2,4,8 "
      "--store spark.db");
  cmd->add_option("app", flags->app_id, "Application id")->required();
  cmd->add_option("--counts", flags->counts, "Executor counts, e.g. 1,2,4,8")
      ->required()
      ->delimiter(',')
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--attempt", flags->attempt_id, "Attempt id (default: the latest)");
  AddStoreFlags(*cmd, *flags);
  cmd->callback([flags, &ctx] {
    WriteAnswer(
        ctx, "whatif executors", flags->json,
        AskStore(profiles::Store::OpenReadOnly(flags->store, {profiles::spark::StoreMigrations()}),
                 [&](profiles::Store& store) {
                   return planner::AnswerWhatIfOnTimeline(store, flags->app_id, flags->attempt_id,
                                                          flags->counts);
                 }),
        PrintWhatIf);
  });
}

}  // namespace perfplan::cli
