// `perfplan ingest mapreduce PATH…`: Hadoop job history (.jhist, 0.20/1.x JobHistory), Rumen and
// SLS traces and job configurations into the store.
#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/store_flags.h"
#include "planner/mapreduce/mapreduce_api.h"
#include "planner/output/skip_report.h"
#include "profiles/mapreduce/mapreduce_ingest.h"
#include "profiles/mapreduce/mapreduce_store.h"

namespace perfplan::cli {
namespace {
struct IngestMapReduceFlags : StoreFlags {
  std::vector<std::string> paths;
  profiles::mapreduce::IngestOptions options;
};
}  // namespace

void AddIngestMapReduceCommand(CLI::App& parent, CliContext& ctx) {
  auto flags = std::make_shared<IngestMapReduceFlags>();
  CLI::App* cmd = AddVerb(
      parent, "mapreduce",
      "Ingest Hadoop MapReduce job history (.jhist, 0.20/1.x JobHistory), Rumen/SLS traces and "
      "*_conf.xml (files or folders, gzip'd or not)");
  cmd->footer(
      "Example:\n  perfplan ingest mapreduce ../shared/data/04-workload-runtime-traces/"
      "hadoop-jobhistory --store mr.db");
  cmd->add_option("paths", flags->paths, "History files or folders")->required();
  AddStoreFlags(*cmd, *flags);
  // Hidden (not in --help): the crash test commits every file alone so that its kills land
  // between commits; no user needs it.
  cmd->add_option("--batch-files", flags->options.batch_files, "Files per transaction")->group("");
  cmd->callback([flags, &ctx] {
    auto store = profiles::Store::Open(flags->store, {profiles::mapreduce::StoreMigrations()});
    if (!store.ok()) return ReportError(ctx, "ingest mapreduce", store.status(), flags->json);
    auto summary = profiles::mapreduce::IngestMapReduce(
        *store.value(), flags->paths, TerminalProgress(ctx, "files"), flags->options);
    if (!summary.ok()) {
      return ReportError(ctx, "ingest mapreduce", summary.status(), flags->json);
    }
    const auto& s = summary.value();
    ctx.exit_code = 0;
    if (flags->json) {
      *ctx.out << planner::ToJson(s);
      return;
    }
    for (const auto& f : s.files) {
      *ctx.out << f.path << ": ";
      if (f.unchanged) {
        *ctx.out << "unchanged\n";
        continue;
      }
      *ctx.out << profiles::mapreduce::ToString(f.format) << ", " << f.events << " events";
      for (std::size_t i = 0; i < f.job_ids.size(); ++i) {
        *ctx.out << (i == 0 ? ", " : " ") << f.job_ids[i];
      }
      *ctx.out << "\n";
    }
    for (const auto& i : s.ignored) *ctx.out << "ignored " << i << "\n";
    for (const auto& p : s.skipped) *ctx.out << "skipped " << profiles::FormatProblem(p) << "\n";
    planner::WriteSkipReasons(*ctx.out, s.skipped_reasons, s.skipped_total, s.skipped.size());
    *ctx.out << s.files.size() << " file(s), " << s.jobs << " job(s), " << s.events
             << " events, " << s.skipped_total << " skipped\n";
  });
}

}  // namespace perfplan::cli
