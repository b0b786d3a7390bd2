#include <ostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/cli/table.h"
#include "planner/hdfs/hdfs.h"

namespace perfplan::cli {
namespace {
struct WorkloadFlags {
  planner::WorkloadRequest request;
  bool json = false;
};

void PrintStats(std::ostream& out, const char* key,
                const std::vector<models::HdfsClientStats>& stats) {
  Table t({key, "read_ops", "write_ops", "metadata_ops", "read_bytes", "write_bytes", "iops",
           "files_read", "files_written", "datanodes"});
  for (const auto& s : stats) {
    t.AddRow({s.key.empty() ? "(none)" : s.key, std::to_string(s.read_ops),
              std::to_string(s.write_ops), std::to_string(s.metadata_ops),
              std::to_string(s.read_bytes), std::to_string(s.write_bytes), Fixed(s.iops, 3),
              std::to_string(s.files_read), std::to_string(s.files_written),
              std::to_string(s.datanodes_touched)});
  }
  t.Print(out);
}

void PrintWorkload(std::ostream& out, std::ostream& err, const models::HdfsWorkload& w) {
  const auto& c = w.cluster;
  out << "window: " << Fixed(c.window_seconds, 3) << " s; read " << Bytes(c.read_bytes) << " ("
      << Bytes(c.read_bytes_per_second) << "/s), written " << Bytes(c.write_bytes) << " (+"
      << Bytes(c.replication_write_bytes) << " replicas); ops read " << c.read_ops << ", write "
      << c.write_ops << ", metadata " << c.metadata_ops << "; DataNode load Gini "
      << Fixed(c.datanode_load_gini, 3) << "\n\nclients\n";
  PrintStats(out, "client", w.clients);
  out << "\nusers\n";
  PrintStats(out, "user", w.users);
  out << "\ndatanodes\n";
  Table t({"datanode", "read_bytes", "write_bytes", "read_ops", "write_ops", "share"});
  for (const auto& d : w.datanodes) {
    t.AddRow({d.datanode, std::to_string(d.read_bytes), std::to_string(d.write_bytes),
              std::to_string(d.read_ops), std::to_string(d.write_ops),
              Fixed(100 * d.share_of_bytes, 1) + "%"});
  }
  t.Print(out);
  if (!w.recommendations.empty()) out << "\nrecommendations\n";
  for (const auto& rec : w.recommendations) {
    out << "  " << rec.command << "    # " << rec.reason << "\n";
  }
  for (const auto& warning : w.warnings) err << "perfplan workload: warning: " << warning << "\n";
}
}  // namespace

void AddWorkloadCommand(CLI::App& cmd, CliContext& ctx) {
  auto flags = std::make_shared<WorkloadFlags>();
  cmd.footer(
      "Example:\n  perfplan workload --store perfplan.db --from 2024-01-01 --to "
      "\"2024-01-02 00:00:00\" --json");
  auto& r = flags->request;
  AddStoreOption(cmd, r.store_path)->capture_default_str();
  cmd.add_option("--from", r.from, "Window start (2024-01-01[ HH:MM:SS] or epoch ms)");
  cmd.add_option("--to", r.to, "Window end, exclusive");
  cmd.add_option("--balancer-gini", r.options.balancer_gini_threshold,
                 "Recommend the balancer above this Gini of DataNode load")
      ->capture_default_str();
  cmd.add_option("--cache-min-reads", r.options.cache_min_reads,
                 "Opens within the window that make a file hot")
      ->capture_default_str();
  cmd.add_option("--cache-window-seconds", r.options.cache_window_seconds,
                 "Re-read window for cache directives")
      ->capture_default_str();
  cmd.add_option("--cache-pool", r.options.cache_pool, "Pool named in cache directives")
      ->capture_default_str();
  cmd.add_flag("--streams", r.options.streams,
               "Include per-client file- and block-read streams (JSON only)");
  AddJsonFlag(cmd, flags->json);
  cmd.callback([flags, &ctx] {
    planner::WorkloadRequest& request = flags->request;
    if (!flags->json) request.options.streams = false;  // the table prints no streams
    if (request.options.streams) {  // written as they come from the analysis's sort
      auto answer = planner::AnswerWorkloadStreamed(request);
      return WriteStreamedJson(ctx, "workload", answer);
    }
    WriteAnswer(ctx, "workload", flags->json, planner::AnswerWorkload(flags->request),
                [&ctx](std::ostream& out, const planner::WorkloadAnswer& answer) {
                  PrintWorkload(out, *ctx.err, answer.workload);
                });
  });
}

}  // namespace perfplan::cli
