#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/hdfs/hdfs.h"
#include "planner/hdfs/hdfs_ingest_jobs.h"
#include "profiles/spark/spark_ingest_parallel.h"
#include "planner/output/skip_report.h"

namespace perfplan::cli {
namespace {
struct IngestHdfsFlags {
  planner::IngestHdfsRequest request;
  bool json = false;
  int jobs = profiles::spark::DefaultIngestJobs();
};
}  // namespace

void AddIngestHdfsCommand(CLI::App& parent, CliContext& ctx) {
  auto flags = std::make_shared<IngestHdfsFlags>();
  CLI::App* cmd =
      AddVerb(parent, "hdfs",
              "Collect NameNode audit/state-change and DataNode clienttrace logs incrementally");
  cmd->footer(
      "Each PATH is a node's live log file; its rotated copies (PATH.1, PATH.2.gz, "
      "PATH.2024-01-01) are read too.\nRe-running reads only what is new.\n\nExample:\n"
      "  perfplan ingest hdfs --node nn1=/var/log/hadoop/hdfs/hdfs-audit.log \\\n"
      "      --node dn1=/var/log/hadoop/hdfs/hadoop-hdfs-datanode-dn1.log --store perfplan.db");
  cmd->add_option("--node", flags->request.nodes, "NAME=PATH of a node's log (repeatable)")
      ->required();
  AddStoreOption(*cmd, flags->request.store_path)->capture_default_str();
  cmd->add_option("--batch-lines", flags->request.options.batch_lines,
                  "Lines per transaction (checkpoint interval)")
      ->capture_default_str();
  cmd->add_option("--max-line-bytes", flags->request.options.max_line_bytes,
                  "Skip (and report) lines longer than this many uncompressed bytes")
      ->check(CLI::Range(std::int64_t{1024}, std::int64_t{1} << 40))
      ->capture_default_str();
  cmd->add_option("--timezone", flags->request.options.timezone,
                  "Zone the daemons' log4j timestamps are in: UTC, an offset such as -08:00, or "
                  "a tz database name such as America/Los_Angeles (records are stored in UTC)")
      ->capture_default_str();
  cmd->add_flag("--complete", flags->request.options.complete_files,
                "Also read a last line without a line break (files no longer written)");
  AddJsonFlag(*cmd, flags->json);
  AddIngestJobsOption(*cmd, flags->jobs, "Parser threads, one --node each at a time");
  cmd->callback([flags, &ctx] {
    auto report = planner::AnswerIngestHdfs(flags->request, flags->jobs,
                                            TerminalProgress(ctx, "nodes"));
    if (!report.ok()) {
      ReportError(ctx, "ingest hdfs", report.status(), flags->json);
      return;
    }
    const profiles::HdfsIngestReport& r = report.value();
    // No file read (new or unchanged) and something skipped: every --node path was missing or
    // unreadable, which is bad input (exit 2), not an empty success.
    const bool nothing_read = r.files_read == 0 && r.files_unchanged == 0 && !r.skipped.empty();
    ctx.exit_code = nothing_read ? 2 : 0;
    if (nothing_read) {
      *ctx.err << "perfplan ingest hdfs: error: no log file could be read (" << r.skipped_total
               << " skipped)\n";
    }
    for (const auto& p : r.skipped)
      *ctx.err << "perfplan ingest hdfs: skipped " << profiles::FormatProblem(p) << "\n";
    planner::WriteSkipReasons(*ctx.err, r.skipped_reasons, r.skipped_total, r.skipped.size());
    if (flags->json) {
      *ctx.out << planner::ToJson(r);
      return;
    }
    *ctx.out << "records stored: " << r.records << " (audit " << r.counts.audit << ", transfer "
             << r.counts.transfer << ", block " << r.counts.block << ") from " << r.counts.lines
             << " new lines; files read " << r.files_read << ", unchanged " << r.files_unchanged
             << "; skipped " << r.skipped_total
             << (r.timezone == "UTC" ? "" : "; log4j times read in " + r.timezone) << "\n";
    Table table({"node", "path", "lines", "offset_bytes", "last_time"});
    for (const auto& c : r.checkpoints) {
      table.AddRow({c.node, c.path, std::to_string(c.lines), std::to_string(c.offset_bytes),
                    std::to_string(c.last_time_ms)});
    }
    table.Print(*ctx.out);
  });
}

}  // namespace perfplan::cli
