#include <cstdio>
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/store_flags.h"
#include "planner/output/skip_report.h"
#include "planner/spark/spark_api.h"
#include "profiles/spark/spark_ingest.h"
#include "profiles/spark/spark_ingest_parallel.h"
#include "profiles/spark/spark_store.h"

namespace perfplan::cli {
namespace {
struct IngestSparkFlags : StoreFlags {
  std::vector<std::string> paths;
  bool replace = false;
  int jobs = profiles::spark::DefaultIngestJobs();
  std::size_t max_line_bytes = profiles::spark::IngestLimits().max_line_bytes;
};
}  // namespace

void AddIngestSparkCommand(CLI::App& parent, CliContext& ctx) {
  auto flags = std::make_shared<IngestSparkFlags>();
  CLI::App* cmd =
      AddVerb(parent, "spark",
              "Ingest Spark event logs (files, rolling folders, folders searched recursively)");
  cmd->footer(
      "Example:\n  perfplan ingest spark ../shared/data/01-spark-eventlogs/apache-spark/"
      "spark-events --store spark.db");
  cmd->add_option("paths", flags->paths, "Event log files or folders")->required();
  AddStoreFlags(*cmd, *flags);
  cmd->add_flag("--replace", flags->replace,
                "Replace a stored application attempt even from a shorter or incomplete log");
  cmd->add_option("--max-line-bytes", flags->max_line_bytes,
                  "Skip (and report) lines longer than this many decompressed bytes")
      ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 40))
      ->capture_default_str();
  AddIngestJobsOption(*cmd, flags->jobs, "Parser threads");
  cmd->callback([flags, &ctx] {
    auto store = profiles::Store::Open(flags->store, {profiles::spark::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "ingest spark", store.status(), flags->json);
    profiles::spark::IngestLimits limits;
    limits.max_line_bytes = flags->max_line_bytes;
    limits.replace = flags->replace;
    auto summary = profiles::spark::IngestEventLogsParallel(
        *store.value(), flags->paths, flags->jobs, TerminalProgress(ctx, "logs"), limits);
    if (!summary.ok()) return ReportError(ctx, "ingest spark", summary.status(), flags->json);
    const auto& s = summary.value();
    // Nothing read and something refused (every path missing or unreadable): bad input, exit 2,
    // as the README's exit-code table says; the report below still lists why.
    ctx.exit_code = s.applications.empty() && !s.skipped.empty() ? 2 : 0;
    if (ctx.exit_code != 0) {
      *ctx.err << "perfplan ingest spark: error: no event log could be read (" << s.skipped_total
               << " skipped)\n";
    }
    if (flags->json) {
      *ctx.out << planner::ToJson(s);
      return;
    }
    for (const auto& a : s.applications) {
      *ctx.out << a.app_id << (a.attempt_id.empty() ? "" : "/" + a.attempt_id) << ": "
               << (a.unchanged ? "unchanged" : std::to_string(a.events) + " events")
               << (a.completed ? "" : " (incomplete)") << "  " << a.source << "\n";
    }
    for (const auto& k : s.skipped) {
      *ctx.out << "skipped " << k.file << ":" << k.line << ": " << k.reason << "\n";
    }
    planner::WriteSkipReasons(*ctx.out, s.skipped_reasons, s.skipped_total, s.skipped.size());
    *ctx.out << s.applications.size() << " application(s), " << s.events << " events, "
             << s.skipped_total << " skipped\n";
  });
}

}  // namespace perfplan::cli
