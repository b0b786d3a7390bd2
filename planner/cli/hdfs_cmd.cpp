#include <cstdlib>
#include <iostream>

#include "planner/cli/command.h"
#include "planner/cli/options.h"
#include "planner/hdfs/hdfs_streaming.h"
#include "models/input_file.h"

namespace perfplan::cli {
namespace {
struct HdfsReduceFlags {
  models::HdfsWorkloadOptions options;
  std::string from, to;
  bool json = true;  // accepted for uniformity; the reduce output is always JSON
};
}  // namespace

void AddHdfsCommand(CLI::App& command, CliContext& ctx) {
  CLI::App* group = &command;
  group->footer(
      "Example (one machine):\n  cat hdfs-audit.log datanode.log | perfplan hdfs map | sort | "
      "perfplan hdfs reduce\nOn a cluster, see docs/hdfs.md for the hadoop-streaming.jar line.");
  CLI::App* map =
      AddVerb(*group, "map", "Read log lines on stdin; write tab-separated records on stdout");
  map->callback([&ctx] {
    const char* name = std::getenv("mapreduce_map_input_file");  // set by Hadoop Streaming
    if (Status s = CheckInputDescriptor(0); !s.ok()) return ReportError(ctx, "hdfs map", s, false);
    std::ios::sync_with_stdio(false);
    Status s = planner::HdfsMap(std::cin, *ctx.out, *ctx.err, name ? name : "stdin");
    if (!s.ok()) ReportError(ctx, "hdfs map", s, false);
  });
  auto flags = std::make_shared<HdfsReduceFlags>();
  CLI::App* reduce =
      AddVerb(*group, "reduce",
              "Read sorted records on stdin; print the workload JSON (as `workload --json`)");
  reduce->add_option("--from", flags->from, "Window start (2024-01-01[ HH:MM:SS] or epoch ms)");
  reduce->add_option("--to", flags->to, "Window end, exclusive");
  reduce->add_flag("--streams", flags->options.streams, "Include per-client read streams");
  reduce->add_flag("--json", flags->json, "Accepted for uniformity: the output is always JSON");
  reduce->callback([flags, &ctx] {
    models::HdfsWorkloadOptions options = flags->options;
    for (auto [text, slot, name] : {std::tuple{&flags->from, &options.from_ms, "--from"},
                                    std::tuple{&flags->to, &options.to_ms, "--to"}}) {
      if (text->empty()) continue;
      auto t = planner::ParseTimeArgument(name, *text);
      if (!t.ok()) {
        ReportError(ctx, "hdfs reduce", t.status(), true);
        return;
      }
      *slot = t.value();
    }
    if (Status s = CheckInputDescriptor(0); !s.ok())
      return ReportError(ctx, "hdfs reduce", s, true);
    std::ios::sync_with_stdio(false);
    // Every line is read and checked before the first byte is written: bad input is an error
    // document and exit 2, never part of an answer. The read streams are then written as they
    // come from the analysis's sort.
    auto answer = planner::HdfsReduceStreamed(std::cin, options, nullptr);
    WriteStreamedJson(ctx, "hdfs reduce", answer);
  });
}

}  // namespace perfplan::cli
